/**
 * Governance messages that move funds or route them: sends from module accounts and from any
 * account, and the wrap rules that turn incoming IBC vouchers into local denoms.
 */
import { InvalidArgumentError } from "@perpx/core";
import { sending, wrap } from "@perpx/proto";
import type { CoinInput } from "../../messages/transfers.js";
import { bech32Address, checkParams, nonEmpty, positiveAmount } from "../../messages/validate.js";
import type { TxMessage } from "../../tx/encode.js";
import { authorityOf, type GovernanceParams, list, object } from "./fields.js";
import { govMsg } from "./msg.js";

function coinOf(coin: CoinInput, argument: string): { denom: string; amount: string } {
  object(coin, argument);
  return {
    denom: nonEmpty(coin.denom, `${argument}.denom`),
    amount: positiveAmount(coin.amount, `${argument}.amount`),
  };
}

/**
 * Parameters of {@link sendFromModuleToAccountMsg}.
 *
 * @example
 * ```ts
 * const params: SendFromModuleToAccountParams = { senderModuleName: "community_treasury", recipient: wallet.address, coin: { denom: "aperpx", amount: 10n ** 18n } };
 * ```
 */
export interface SendFromModuleToAccountParams extends GovernanceParams {
  /** The module account paying, by module name. */
  senderModuleName: string;
  /** The account credited (either address form). */
  recipient: string;
  /** The coin, amount > 0. */
  coin: CoinInput;
}

/**
 * Builds a `MsgSendFromModuleToAccount` (governance).
 *
 * @param params - the message's fields in chain units (`SendFromModuleToAccountParams`: each field
 *   is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = sendFromModuleToAccountMsg({ senderModuleName: "community_treasury", recipient: wallet.address, coin: { denom: "aperpx", amount: 10n ** 18n } });
 * ```
 */
export function sendFromModuleToAccountMsg(
  params: SendFromModuleToAccountParams,
): TxMessage<typeof sending.MsgSendFromModuleToAccountSchema> {
  checkParams(params, "sendFromModuleToAccountMsg");
  return govMsg(sending.MsgSendFromModuleToAccountSchema, {
    authority: authorityOf(params),
    senderModuleName: nonEmpty(params.senderModuleName, "senderModuleName"),
    recipient: bech32Address(params.recipient),
    coin: coinOf(params.coin, "coin"),
  });
}

/**
 * Parameters of {@link sendFromAccountToAccountMsg}.
 *
 * @example
 * ```ts
 * const params: SendFromAccountToAccountParams = { sender: wallet.address, recipient: LocalWallet.generate().address, coin: { denom: "uusdc", amount: 1_000_000n } };
 * ```
 */
export interface SendFromAccountToAccountParams extends GovernanceParams {
  /** The account paying (either address form). */
  sender: string;
  /** The account credited (either address form). */
  recipient: string;
  /** The coin, amount > 0. */
  coin: CoinInput;
}

/**
 * Builds a `MsgSendFromAccountToAccount` (governance).
 *
 * @param params - the message's fields in chain units (`SendFromAccountToAccountParams`: each field
 *   is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = sendFromAccountToAccountMsg({ sender: wallet.address, recipient: LocalWallet.generate().address, coin: { denom: "uusdc", amount: 1_000_000n } });
 * ```
 */
export function sendFromAccountToAccountMsg(
  params: SendFromAccountToAccountParams,
): TxMessage<typeof sending.MsgSendFromAccountToAccountSchema> {
  checkParams(params, "sendFromAccountToAccountMsg");
  return govMsg(sending.MsgSendFromAccountToAccountSchema, {
    authority: authorityOf(params),
    sender: bech32Address(params.sender),
    recipient: bech32Address(params.recipient),
    coin: coinOf(params.coin, "coin"),
  });
}

/**
 * A wrap rule: vouchers of `sourceDenom` arriving over (`portId`, `channelId`) are wrapped one for
 * one into `localDenom`.
 *
 * @example
 * ```ts
 * const rule: WrapRuleInput = { channelId: "channel-0", sourceDenom: "uusdc", localDenom: "uusdc" };
 * ```
 */
export interface WrapRuleInput {
  /**
   * The port.
   * @default "transfer"
   */
  portId?: string;
  /** The channel, `channel-<n>`. */
  channelId: string;
  /** The denom on the source chain. */
  sourceDenom: string;
  /** The local denom (not a voucher `ibc/...`). */
  localDenom: string;
}

/** The key of a wrap rule; fields named `<prefix><field>` in errors. */
function wrapRuleKey(rule: Omit<WrapRuleInput, "localDenom">, prefix: string) {
  object(rule, prefix === "" ? "parameters" : prefix.slice(0, -1));
  const channelId = nonEmpty(rule.channelId, `${prefix}channelId`);
  if (!/^channel-\d+$/.test(channelId)) {
    throw new InvalidArgumentError(
      `${prefix}channelId`,
      `must be channel-<n>, got ${JSON.stringify(channelId)}`,
    );
  }
  return {
    portId: nonEmpty(rule.portId ?? "transfer", `${prefix}portId`),
    channelId,
    sourceDenom: nonEmpty(rule.sourceDenom, `${prefix}sourceDenom`),
  };
}

function wrapRule(rule: WrapRuleInput, argument: string) {
  const key = wrapRuleKey(rule, `${argument}.`);
  const localDenom = nonEmpty(rule.localDenom, `${argument}.localDenom`);
  if (localDenom.startsWith("ibc/")) {
    throw new InvalidArgumentError(`${argument}.localDenom`, "cannot be a voucher (ibc/...)");
  }
  return { ...key, localDenom };
}

/**
 * Parameters of {@link setWrapRulesMsg}.
 *
 * @example
 * ```ts
 * const params: SetWrapRulesParams = { rules: [{ channelId: "channel-0", sourceDenom: "uusdc", localDenom: "uusdc" }] };
 * ```
 */
export interface SetWrapRulesParams extends GovernanceParams {
  /** Every rule in force afterwards (the others are removed). */
  rules: readonly WrapRuleInput[];
}

/**
 * Builds a `MsgSetWrapRules` (governance): replaces every wrap rule.
 *
 * @param params - the message's fields in chain units (`SetWrapRulesParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = setWrapRulesMsg({ rules: [{ channelId: "channel-0", sourceDenom: "uusdc", localDenom: "uusdc" }] });
 * ```
 */
export function setWrapRulesMsg(params: SetWrapRulesParams): TxMessage<typeof wrap.MsgSetWrapRulesSchema> {
  checkParams(params, "setWrapRulesMsg");
  return govMsg(wrap.MsgSetWrapRulesSchema, {
    authority: authorityOf(params),
    rules: list(params.rules, "rules").map((rule, i) => wrapRule(rule, `rules[${i}]`)),
  });
}

/**
 * Parameters of {@link setWrapRuleMsg}.
 *
 * @example
 * ```ts
 * const params: SetWrapRuleParams = { rule: { channelId: "channel-1", sourceDenom: "uusdc", localDenom: "uusdc" } };
 * ```
 */
export interface SetWrapRuleParams extends GovernanceParams {
  /** The rule, added or replaced by (port, channel, source denom). */
  rule: WrapRuleInput;
}

/**
 * Builds a `MsgSetWrapRule` (governance).
 *
 * @param params - the message's fields in chain units (`SetWrapRuleParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = setWrapRuleMsg({ rule: { channelId: "channel-1", sourceDenom: "uusdc", localDenom: "uusdc" } });
 * ```
 */
export function setWrapRuleMsg(params: SetWrapRuleParams): TxMessage<typeof wrap.MsgSetWrapRuleSchema> {
  checkParams(params, "setWrapRuleMsg");
  return govMsg(wrap.MsgSetWrapRuleSchema, {
    authority: authorityOf(params),
    rule: wrapRule(params.rule, "rule"),
  });
}

/**
 * Parameters of {@link deleteWrapRuleMsg}: the rule's key.
 *
 * @example
 * ```ts
 * const params: DeleteWrapRuleParams = { channelId: "channel-0", sourceDenom: "uusdc" };
 * ```
 */
export interface DeleteWrapRuleParams extends GovernanceParams {
  /** @default "transfer" */
  portId?: string;
  /** The channel, `channel-<n>`. */
  channelId: string;
  /** The denom on the source chain. */
  sourceDenom: string;
}

/**
 * Builds a `MsgDeleteWrapRule` (governance).
 *
 * @param params - the message's fields in chain units (`DeleteWrapRuleParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = deleteWrapRuleMsg({ channelId: "channel-0", sourceDenom: "uusdc" });
 * ```
 */
export function deleteWrapRuleMsg(
  params: DeleteWrapRuleParams,
): TxMessage<typeof wrap.MsgDeleteWrapRuleSchema> {
  checkParams(params, "deleteWrapRuleMsg");
  return govMsg(wrap.MsgDeleteWrapRuleSchema, { authority: authorityOf(params), ...wrapRuleKey(params, "") });
}
