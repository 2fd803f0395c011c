/**
 * x/wrap: rules keyed by (port, channel, source denom), set by governance, turn incoming ICS-20
 * vouchers into a local denom one-for-one (the voucher goes to the wrap module account as
 * collateral). `MsgWithdraw` burns the local denom and sends the voucher back over IBC;
 * `MsgRedeem` burns it and hands the voucher over on this chain. `Backing` lists the collateral.
 * A withdrawal whose packet fails (error acknowledgement or timeout) is wrapped back: the refunded
 * voucher returns to the module account and the local denom to the sender.
 *
 * Store slice `wrap/`:
 * - `rule/<port>/<channel>/<source denom>`: `WrapRule` (genesis key of `records.ts`);
 * - `backing/<local denom>/<voucher denom>`: `VoucherBacking` (amount issued and the voucher's
 *   trace; remaining balance and whether the rule is in force are read live).
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { wrap } from "@perpx/proto";
import { type ChainConfig, wrapRecords } from "../../genesis/genesis.js";
import { requireGovAuthority } from "../../kernel/governance.js";
import {
  type Context,
  emptyResponse,
  type Module,
  msgHandler,
  notFound,
  packAny,
  queryHandler,
} from "../../kernel/module.js";
import { accAddressBytes, bech32Of } from "../../lib/addresses.js";
import { utf8 } from "../../lib/codec.js";
import { parseAmount } from "../../lib/coins.js";
import { abciError, registerError } from "../../lib/errors.js";
import { paginate } from "../../lib/pagination.js";
import type { AuthKeeper, StoreAccess } from "../auth/auth.js";
import type { BankKeeper } from "../bank/bank.js";
import type { IbcKeeper, IncomingTransfer } from "../ibc/ibc.js";
import { createRecordsModule, readRecord, readRecords } from "../records.js";

/** The module's name, store prefix, module account and codespace. */
export const WRAP = "wrap";

/** Errors of codespace `wrap`. */
export const wrapErrors = {
  invalidAuthority: registerError(WRAP, 2, "invalid authority"),
  invalidRule: registerError(WRAP, 3, "invalid wrap rule"),
  ruleNotFound: registerError(WRAP, 4, "wrap rule not found"),
  invalidAmount: registerError(WRAP, 5, "invalid amount"),
  voucherDenomRequired: registerError(WRAP, 6, "voucher denom is required"),
  voucherNotBacking: registerError(WRAP, 7, "voucher does not back the local denom"),
  insufficientBacking: registerError(WRAP, 8, "insufficient voucher backing"),
  invalidTimeout: registerError(WRAP, 9, "invalid timeout"),
  invalidReceiver: registerError(WRAP, 10, "invalid receiver"),
} as const;

function ruleKey(portId: string, channelId: string, sourceDenom: string): string {
  return `rule/${portId}/${channelId}/${sourceDenom}`;
}

function validateRule(rule: wrap.WrapRule | undefined): wrap.WrapRule {
  if (rule === undefined) throw abciError(wrapErrors.invalidRule, "rule is required");
  for (const [name, value] of [
    ["port_id", rule.portId],
    ["channel_id", rule.channelId],
    ["source_denom", rule.sourceDenom],
    ["local_denom", rule.localDenom],
  ] as const) {
    if (value === "") throw abciError(wrapErrors.invalidRule, `${name} is empty`);
  }
  if (!/^channel-\d+$/.test(rule.channelId)) {
    throw abciError(wrapErrors.invalidRule, `channel_id ${rule.channelId} is not of the form channel-<n>`);
  }
  if (rule.localDenom.startsWith("ibc/")) {
    throw abciError(wrapErrors.invalidRule, `local_denom ${rule.localDenom} cannot be a voucher`);
  }
  return rule;
}

function positiveAmount(text: string): bigint {
  const amount = parseAmount(text);
  if (amount === undefined || amount <= 0n) {
    throw abciError(wrapErrors.invalidAmount, `amount "${text}" must be a positive integer`);
  }
  return amount;
}

/** The wrap module's state operations. */
export class WrapKeeper {
  constructor(
    private readonly auth: AuthKeeper,
    private readonly bank: BankKeeper,
  ) {}

  /** The rule with this key, or undefined. */
  rule(ctx: StoreAccess, portId: string, channelId: string, sourceDenom: string): wrap.WrapRule | undefined {
    const bytes = ctx.store(WRAP).get(ruleKey(portId, channelId, sourceDenom));
    return bytes === undefined ? undefined : fromBinary(wrap.WrapRuleSchema, bytes);
  }

  /** The stored backing of a local denom by a voucher, or undefined. */
  backing(ctx: StoreAccess, localDenom: string, voucher: string): wrap.VoucherBacking | undefined {
    const bytes = ctx.store(WRAP).get(`backing/${localDenom}/${voucher}`);
    return bytes === undefined ? undefined : fromBinary(wrap.VoucherBackingSchema, bytes);
  }

  /** Every backing (optionally of one local denom), with live remaining balance and rule state. */
  backings(ctx: StoreAccess, localDenom: string): wrap.VoucherBacking[] {
    const prefix = localDenom === "" ? "backing/" : `backing/${localDenom}/`;
    const holder = this.auth.moduleAddress(WRAP);
    return [...ctx.store(WRAP).entries(prefix)].map(([, bytes]) => {
      const b = fromBinary(wrap.VoucherBackingSchema, bytes);
      const rule = this.rule(ctx, b.portId, b.channelId, b.sourceDenom);
      return create(wrap.VoucherBackingSchema, {
        ...b,
        remainingBalance: this.bank.balance(ctx, holder, b.voucherDenom).toString(),
        ruleInForce: rule !== undefined && rule.localDenom === b.localDenom,
      });
    });
  }

  /**
   * The IBC receive hook: when a rule matches the packet's (port, channel, denom), moves the
   * voucher from the transfer module account to the wrap module account and mints the local denom
   * to the receiver. Returns the local denom, or undefined when no rule matches (not an error).
   */
  onReceive(ctx: Context, packet: IncomingTransfer, voucher: string): string | undefined {
    const rule = this.rule(ctx, packet.portId, packet.channelId, packet.denom);
    if (rule === undefined) return undefined;
    const vouchers = [{ denom: voucher, amount: packet.amount }];
    const local = [{ denom: rule.localDenom, amount: packet.amount }];
    this.bank.sendCoinsFromModuleToModule(ctx, "transfer", WRAP, vouchers);
    this.bank.mintCoins(ctx, WRAP, local);
    this.bank.sendCoinsFromModuleToAccount(ctx, WRAP, packet.receiver, local);
    const previous = this.backing(ctx, rule.localDenom, voucher);
    const issued = BigInt(previous?.amountIssued ?? "0") + packet.amount;
    ctx.store(WRAP).set(
      `backing/${rule.localDenom}/${voucher}`,
      toBinary(
        wrap.VoucherBackingSchema,
        create(wrap.VoucherBackingSchema, {
          localDenom: rule.localDenom,
          voucherDenom: voucher,
          amountIssued: issued.toString(),
          portId: packet.portId,
          channelId: packet.channelId,
          sourceDenom: packet.denom,
        }),
      ),
    );
    ctx.events.emitEvent("wrap", [
      ["receiver", bech32Of(packet.receiver)],
      ["voucher_denom", voucher],
      ["local_denom", rule.localDenom],
      ["amount", packet.amount.toString()],
      ["port_id", packet.portId],
      ["channel_id", packet.channelId],
    ]);
    return rule.localDenom;
  }

  /**
   * Burns `amount` of the local denom from `sender` and releases the same amount of a voucher
   * backing it from the module account (to the module account's caller).
   *
   * @throws {AbciError} wrap 6 without a voucher denom, 7 when it does not back the local denom,
   *   8 when the module holds less of it than `amount`.
   */
  unwrap(
    ctx: Context,
    sender: Uint8Array,
    localDenom: string,
    voucher: string,
    amount: bigint,
  ): wrap.VoucherBacking {
    if (voucher === "")
      throw abciError(wrapErrors.voucherDenomRequired, "voucher_denom must name an ibc/<hash> voucher");
    const backing = this.backing(ctx, localDenom, voucher);
    if (backing === undefined) {
      throw abciError(
        wrapErrors.voucherNotBacking,
        `${voucher} does not back ${localDenom === "" ? '""' : localDenom}`,
      );
    }
    const held = this.bank.balance(ctx, this.auth.moduleAddress(WRAP), voucher);
    if (held < amount) {
      throw abciError(
        wrapErrors.insufficientBacking,
        `${voucher} backing ${localDenom}: remaining ${held}, requested ${amount}`,
      );
    }
    const local = [{ denom: localDenom, amount }];
    this.bank.sendCoinsFromAccountToModule(ctx, sender, WRAP, local);
    this.bank.burnCoins(ctx, WRAP, local);
    return backing;
  }

  /**
   * The IBC refund hook of a `MsgWithdraw` whose packet failed (error acknowledgement or timeout):
   * the refunded vouchers go back to the module account as collateral and the local denom is minted
   * to the sender again, so the withdrawal is undone one-for-one.
   */
  onRefund(
    ctx: Context,
    refund: { holder: Uint8Array; receiver: Uint8Array; voucher: string; localDenom: string; amount: bigint },
  ): void {
    const local = [{ denom: refund.localDenom, amount: refund.amount }];
    this.bank.sendCoins(ctx, refund.holder, this.auth.moduleAddress(WRAP), [
      { denom: refund.voucher, amount: refund.amount },
    ]);
    this.bank.mintCoins(ctx, WRAP, local);
    this.bank.sendCoinsFromModuleToAccount(ctx, WRAP, refund.receiver, local);
    ctx.events.emitEvent("wrap_refund", [
      ["receiver", bech32Of(refund.receiver)],
      ["voucher_denom", refund.voucher],
      ["local_denom", refund.localDenom],
      ["amount", refund.amount.toString()],
    ]);
  }

  /** Hands vouchers held by the module account to an account (MsgRedeem). */
  release(ctx: Context, to: Uint8Array, voucher: string, amount: bigint): void {
    this.bank.sendCoinsFromModuleToAccount(ctx, WRAP, to, [{ denom: voucher, amount }]);
  }
}

/** The wrap module: rules from genesis, wrapping on IBC receive, withdraw, redeem, backing. */
export function createWrapModule(
  config: ChainConfig,
  keeper: WrapKeeper,
  auth: AuthKeeper,
  ibc: IbcKeeper,
): Module {
  const base = createRecordsModule({ name: WRAP, records: wrapRecords(config) });
  ibc.setReceiveHook(
    (ctx, packet, voucher) => keeper.onReceive(ctx, packet, voucher),
    (ctx, packet) => keeper.rule(ctx, packet.portId, packet.channelId, packet.denom)?.localDenom,
  );
  ibc.setRefundHook((ctx, refund) => keeper.onRefund(ctx, refund));
  const setRule = (ctx: Context, rule: wrap.WrapRule) =>
    ctx
      .store(WRAP)
      .set(ruleKey(rule.portId, rule.channelId, rule.sourceDenom), toBinary(wrap.WrapRuleSchema, rule));
  return {
    ...base,
    exportGenesis(ctx) {
      return {
        rules: readRecords(ctx, WRAP, "rule/", wrap.WrapRuleSchema).map(({ value }) => ({
          port_id: value.portId,
          channel_id: value.channelId,
          source_denom: value.sourceDenom,
          local_denom: value.localDenom,
        })),
        backings: [],
      };
    },
    msgs: [
      msgHandler({
        typeUrl: "/perpx.wrap.v1.MsgWithdraw",
        schema: () => wrap.MsgWithdrawSchema,
        signers: (msg) => [msg.sender],
        validate(msg) {
          positiveAmount(msg.amount);
          if (msg.timeoutSeconds === 0n)
            throw abciError(wrapErrors.invalidTimeout, "timeout_seconds must be positive");
          if (msg.receiver.trim() === "") throw abciError(wrapErrors.invalidReceiver, "receiver is empty");
          if (msg.voucherDenom === "")
            throw abciError(wrapErrors.voucherDenomRequired, "voucher_denom must name an ibc/<hash> voucher");
        },
        execute(ctx, msg) {
          const sender = accAddressBytes(msg.sender, "invalid sender address");
          const amount = positiveAmount(msg.amount);
          const backing = keeper.unwrap(ctx, sender, msg.localDenom, msg.voucherDenom, amount);
          const sequence = ibc.send(ctx, {
            sourcePort: backing.portId,
            sourceChannel: backing.channelId,
            denom: msg.voucherDenom,
            amount,
            from: auth.moduleAddress(WRAP),
            sender: msg.sender,
            receiver: msg.receiver,
            timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
            timeoutTimestamp: (ctx.block.timeMs / 1000n + msg.timeoutSeconds) * 1_000_000_000n,
            memo: "",
            rateLimitDenom: msg.localDenom,
            refundWrappedAs: msg.localDenom,
          });
          ctx.events.emitEvent("wrap_withdraw", [
            ["sender", msg.sender],
            ["receiver", msg.receiver],
            ["local_denom", msg.localDenom],
            ["voucher_denom", msg.voucherDenom],
            ["amount", amount.toString()],
            ["packet_sequence", sequence.toString()],
            ["channel_id", backing.channelId],
          ]);
          return packAny(
            wrap.MsgWithdrawResponseSchema,
            create(wrap.MsgWithdrawResponseSchema, { sequence, channelId: backing.channelId }),
          );
        },
      }),
      msgHandler({
        typeUrl: "/perpx.wrap.v1.MsgRedeem",
        schema: () => wrap.MsgRedeemSchema,
        signers: (msg) => [msg.sender],
        validate(msg) {
          positiveAmount(msg.amount);
          if (msg.voucherDenom === "")
            throw abciError(wrapErrors.voucherDenomRequired, "voucher_denom must name an ibc/<hash> voucher");
        },
        execute(ctx, msg) {
          const sender = accAddressBytes(msg.sender, "invalid sender address");
          const amount = positiveAmount(msg.amount);
          keeper.unwrap(ctx, sender, msg.localDenom, msg.voucherDenom, amount);
          keeper.release(ctx, sender, msg.voucherDenom, amount);
          ctx.events.emitEvent("wrap_redeem", [
            ["sender", msg.sender],
            ["local_denom", msg.localDenom],
            ["voucher_denom", msg.voucherDenom],
            ["amount", amount.toString()],
          ]);
          return emptyResponse(wrap.MsgRedeemResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.wrap.v1.MsgSetWrapRules",
        schema: () => wrap.MsgSetWrapRulesSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, wrapErrors.invalidAuthority);
          const keys = new Set<string>();
          for (const rule of msg.rules) {
            const key = ruleKey(validateRule(rule).portId, rule.channelId, rule.sourceDenom);
            if (keys.has(key)) throw abciError(wrapErrors.invalidRule, `duplicate rule key ${key}`);
            keys.add(key);
          }
          for (const [key] of [...ctx.store(WRAP).entries("rule/")]) ctx.store(WRAP).delete(key);
          for (const rule of msg.rules) setRule(ctx, rule);
          ctx.events.emitEvent("wrap_rules_set", [["count", String(msg.rules.length)]]);
          return emptyResponse(wrap.MsgSetWrapRulesResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.wrap.v1.MsgSetWrapRule",
        schema: () => wrap.MsgSetWrapRuleSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, wrapErrors.invalidAuthority);
          const rule = validateRule(msg.rule);
          setRule(ctx, rule);
          ctx.events.emitEvent("wrap_rule_set", [
            ["port_id", rule.portId],
            ["channel_id", rule.channelId],
            ["source_denom", rule.sourceDenom],
            ["local_denom", rule.localDenom],
          ]);
          return emptyResponse(wrap.MsgSetWrapRuleResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.wrap.v1.MsgDeleteWrapRule",
        schema: () => wrap.MsgDeleteWrapRuleSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, wrapErrors.invalidAuthority);
          const key = ruleKey(msg.portId, msg.channelId, msg.sourceDenom);
          if (!ctx.store(WRAP).has(key)) throw abciError(wrapErrors.ruleNotFound, key);
          ctx.store(WRAP).delete(key);
          ctx.events.emitEvent("wrap_rule_deleted", [
            ["port_id", msg.portId],
            ["channel_id", msg.channelId],
            ["source_denom", msg.sourceDenom],
          ]);
          return emptyResponse(wrap.MsgDeleteWrapRuleResponseSchema);
        },
      }),
    ],
    queries: {
      "/perpx.wrap.v1.Query/Backing": queryHandler(
        () => wrap.QueryBackingRequestSchema,
        () => wrap.QueryBackingResponseSchema,
        (ctx, req) =>
          create(wrap.QueryBackingResponseSchema, { backings: keeper.backings(ctx, req.localDenom) }),
      ),
      "/perpx.wrap.v1.Query/WrapRules": queryHandler(
        () => wrap.QueryWrapRulesRequestSchema,
        () => wrap.QueryWrapRulesResponseSchema,
        (ctx, req) => {
          const items = readRecords(ctx, WRAP, "rule/", wrap.WrapRuleSchema).map(({ key, value }) => ({
            key: utf8(key),
            value,
          }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(wrap.QueryWrapRulesResponseSchema, { rules: page, pagination });
        },
      ),
      "/perpx.wrap.v1.Query/WrapRule": queryHandler(
        () => wrap.QueryWrapRuleRequestSchema,
        () => wrap.QueryWrapRuleResponseSchema,
        (ctx, req) => {
          const rule = readRecord(
            ctx,
            WRAP,
            ruleKey(req.portId, req.channelId, req.sourceDenom),
            wrap.WrapRuleSchema,
          );
          if (rule === undefined)
            throw notFound(`wrap rule ${req.portId}/${req.channelId}/${req.sourceDenom} not found`);
          return create(wrap.QueryWrapRuleResponseSchema, { rule });
        },
      ),
    },
  };
}
