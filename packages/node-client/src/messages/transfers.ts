import { create } from "@bufbuild/protobuf";
import { type IntegerInput, InvalidArgumentError, type SubaccountRef, USDC_ASSET_ID } from "@perpx/core";
import { cosmosBank, ibcTransfer, sending, typeUrlOf, wrap } from "@perpx/proto";
import type { TxMessage } from "../tx/encode.js";
import {
  bech32Address,
  checkParams,
  nonEmpty,
  positiveAmount,
  positiveUint64,
  subaccountId,
  uint32,
  uint64,
} from "./validate.js";

/**
 * Parameters of {@link depositToSubaccountMsg}.
 *
 * @example
 * ```ts
 * const params: DepositToSubaccountParams = { sender: wallet.address, recipient: { owner: wallet.address, number: 0 }, quantums: 5_000_000n };
 * ```
 */
export interface DepositToSubaccountParams {
  /** The bank account paying (either address form). */
  sender: string;
  /** The subaccount credited. */
  recipient: SubaccountRef;
  /** Quote quantums (= `uusdc` units for USDC), > 0. */
  quantums: IntegerInput;
  /**
   * The asset; only USDC (0) is supported by the chain.
   * @default 0
   */
  assetId?: number;
}

/**
 * Builds a `MsgDepositToSubaccount`: bank `uusdc` into a subaccount.
 *
 * @param params - the message's fields in chain units (`DepositToSubaccountParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidSubaccountError | InvalidArgumentError} before anything is signed.
 *
 * @example
 * ```ts
 * const msg = depositToSubaccountMsg({ sender: wallet.address, recipient: { owner: wallet.address, number: 0 }, quantums: 5_000_000n });
 * ```
 */
export function depositToSubaccountMsg(
  params: DepositToSubaccountParams,
): TxMessage<typeof sending.MsgDepositToSubaccountSchema> {
  checkParams(params, "depositToSubaccountMsg");
  return {
    typeUrl: typeUrlOf(sending.MsgDepositToSubaccountSchema),
    value: create(sending.MsgDepositToSubaccountSchema, {
      sender: bech32Address(params.sender),
      recipient: subaccountId(params.recipient, "recipient"),
      assetId: uint32(params.assetId ?? USDC_ASSET_ID, "assetId"),
      quantums: positiveUint64(params.quantums, "quantums"),
    }),
  };
}

/**
 * Parameters of {@link withdrawFromSubaccountMsg}.
 *
 * @example
 * ```ts
 * const params: WithdrawFromSubaccountParams = { sender: { owner: wallet.address, number: 0 }, recipient: wallet.address, quantums: 1_000_000n };
 * ```
 */
export interface WithdrawFromSubaccountParams {
  /** The subaccount paying. */
  sender: SubaccountRef;
  /** The bank account credited (either address form). */
  recipient: string;
  /** Quote quantums, > 0. */
  quantums: IntegerInput;
  /**
   * The asset; only USDC (0) is supported by the chain.
   * @default 0
   */
  assetId?: number;
}

/**
 * Builds a `MsgWithdrawFromSubaccount`: subaccount funds back to a bank account.
 *
 * @param params - the message's fields in chain units (`WithdrawFromSubaccountParams`: each field
 *   is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidSubaccountError | InvalidArgumentError} before anything is signed.
 *
 * @example
 * ```ts
 * const msg = withdrawFromSubaccountMsg({ sender: { owner: wallet.address, number: 0 }, recipient: wallet.address, quantums: 1_000_000n });
 * ```
 */
export function withdrawFromSubaccountMsg(
  params: WithdrawFromSubaccountParams,
): TxMessage<typeof sending.MsgWithdrawFromSubaccountSchema> {
  checkParams(params, "withdrawFromSubaccountMsg");
  return {
    typeUrl: typeUrlOf(sending.MsgWithdrawFromSubaccountSchema),
    value: create(sending.MsgWithdrawFromSubaccountSchema, {
      recipient: bech32Address(params.recipient),
      sender: subaccountId(params.sender, "sender"),
      assetId: uint32(params.assetId ?? USDC_ASSET_ID, "assetId"),
      quantums: positiveUint64(params.quantums, "quantums"),
    }),
  };
}

/**
 * Parameters of {@link transferMsg}.
 *
 * @example
 * ```ts
 * const params: TransferParams = { sender: { owner: wallet.address, number: 0 }, recipient: { owner: wallet.address, number: 1 }, quantums: 1_000_000n };
 * ```
 */
export interface TransferParams {
  /** The subaccount paying; its owner signs. */
  sender: SubaccountRef;
  /** The subaccount credited (any owner). */
  recipient: SubaccountRef;
  /** Quote quantums, > 0 (the name deposits and withdrawals use too). */
  quantums: IntegerInput;
  /**
   * The asset; only USDC (0) is supported by the chain.
   * @default 0
   */
  assetId?: number;
}

/**
 * Builds a `MsgCreateTransfer` between two subaccounts.
 *
 * @param params - the message's fields in chain units (`TransferParams`: each field is documented
 *   there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidSubaccountError | InvalidArgumentError} before anything is signed.
 *
 * @example
 * ```ts
 * const msg = transferMsg({ sender: { owner: wallet.address, number: 0 }, recipient: { owner: wallet.address, number: 1 }, quantums: 1_000_000n });
 * msg.value.transfer?.amount; // 1000000n
 * ```
 */
export function transferMsg(params: TransferParams): TxMessage<typeof sending.MsgCreateTransferSchema> {
  checkParams(params, "transferMsg");
  return {
    typeUrl: typeUrlOf(sending.MsgCreateTransferSchema),
    value: create(sending.MsgCreateTransferSchema, {
      transfer: {
        sender: subaccountId(params.sender, "sender"),
        recipient: subaccountId(params.recipient, "recipient"),
        assetId: uint32(params.assetId ?? USDC_ASSET_ID, "assetId"),
        amount: positiveUint64(params.quantums, "quantums"),
      },
    }),
  };
}

/**
 * A coin to send: a denom and a positive integer amount of its base units.
 *
 * @example
 * ```ts
 * const coin: CoinInput = { denom: "aperpx", amount: 10n ** 18n };
 * ```
 */
export interface CoinInput {
  /** The bank denom, e.g. `uusdc` or `aperpx`. */
  denom: string;
  /** Base units, > 0. */
  amount: IntegerInput;
}

/**
 * Validates coins and sorts them by denom, as the chain requires; a denom may appear once.
 *
 * @throws {InvalidArgumentError} for an empty denom, a non-positive amount or a repeated denom.
 */
export function sortedCoins(
  coins: readonly CoinInput[],
  argument: string,
): { denom: string; amount: string }[] {
  const out = coins.map((coin, i) => ({
    denom: nonEmpty(coin.denom, `${argument}[${i}].denom`),
    amount: positiveAmount(coin.amount, `${argument}[${i}].amount`),
  }));
  out.sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0));
  for (let i = 1; i < out.length; i++) {
    if (out[i]!.denom === out[i - 1]!.denom) {
      throw new InvalidArgumentError(argument, `denom ${JSON.stringify(out[i]!.denom)} appears twice`);
    }
  }
  return out;
}

/**
 * Parameters of {@link bankSendMsg}.
 *
 * @example
 * ```ts
 * const to = LocalWallet.generate().address;
 * const params: BankSendParams = { from: wallet.address, to, amount: [{ denom: "uusdc", amount: 1_000_000n }] };
 * ```
 */
export interface BankSendParams {
  /** The paying account (either address form); it signs. */
  from: string;
  /** The receiving account (either address form). */
  to: string;
  /** One or more coins. */
  amount: readonly CoinInput[];
}

/**
 * Builds a bank `MsgSend`.
 *
 * @param params - the message's fields in chain units (`BankSendParams`: each field is documented
 *   there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is signed.
 *
 * @example
 * ```ts
 * const to = LocalWallet.generate().address;
 * const msg = bankSendMsg({ from: wallet.address, to, amount: [{ denom: "uusdc", amount: 1_000_000n }] });
 * msg.typeUrl; // "/cosmos.bank.v1beta1.MsgSend"
 * ```
 */
export function bankSendMsg(params: BankSendParams): TxMessage<typeof cosmosBank.MsgSendSchema> {
  checkParams(params, "bankSendMsg");
  if (!Array.isArray(params.amount) || params.amount.length === 0) {
    throw new InvalidArgumentError("amount", "must hold at least one coin");
  }
  return {
    typeUrl: typeUrlOf(cosmosBank.MsgSendSchema),
    value: create(cosmosBank.MsgSendSchema, {
      fromAddress: bech32Address(params.from),
      toAddress: bech32Address(params.to),
      amount: sortedCoins(params.amount, "amount"),
    }),
  };
}

/**
 * Parameters of {@link wrapWithdrawMsg}.
 *
 * @example
 * ```ts
 * const params: WrapWithdrawParams = {
 *   sender: wallet.address, amount: 1_000_000n, receiver: "noble1...", timeoutSeconds: 600, voucherDenom: "ibc/8E27...",
 * };
 * ```
 */
export interface WrapWithdrawParams {
  /** The account burning the local denom (either address form). */
  sender: string;
  /** Amount in the smallest unit of the local denom, > 0. */
  amount: IntegerInput;
  /** The receiver on the source chain; not validated as a perpx address (its prefix is the other chain's). */
  receiver: string;
  /** Packet timeout relative to the current block time, seconds (> 0). */
  timeoutSeconds: IntegerInput;
  /** The voucher denom to leave by (`ibc/<hash>`); required, never chosen for you. */
  voucherDenom: string;
  /**
   * The local denom burned.
   * @default "uusdc"
   */
  localDenom?: string;
}

/**
 * Builds a wrap `MsgWithdraw`: burns the local denom and sends the backing voucher back over IBC
 * in one step.
 *
 * @param params - the message's fields in chain units (`WrapWithdrawParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is signed.
 *
 * @example
 * ```ts
 * const voucherDenom = "ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B5";
 * const msg = wrapWithdrawMsg({ sender: wallet.address, amount: 1_000_000n, receiver: "noble1...", timeoutSeconds: 600, voucherDenom });
 * msg.value.localDenom; // "uusdc"
 * ```
 */
export function wrapWithdrawMsg(params: WrapWithdrawParams): TxMessage<typeof wrap.MsgWithdrawSchema> {
  checkParams(params, "wrapWithdrawMsg");
  const timeoutSeconds = uint64(params.timeoutSeconds, "timeoutSeconds");
  if (timeoutSeconds === 0n) throw new InvalidArgumentError("timeoutSeconds", "must be greater than zero");
  return {
    typeUrl: typeUrlOf(wrap.MsgWithdrawSchema),
    value: create(wrap.MsgWithdrawSchema, {
      sender: bech32Address(params.sender),
      amount: positiveAmount(params.amount, "amount"),
      receiver: nonEmpty(params.receiver, "receiver"),
      timeoutSeconds,
      voucherDenom: nonEmpty(params.voucherDenom, "voucherDenom"),
      localDenom: params.localDenom ?? "uusdc",
    }),
  };
}

/**
 * Parameters of {@link wrapRedeemMsg}.
 *
 * @example
 * ```ts
 * const params: WrapRedeemParams = { sender: wallet.address, amount: 1_000_000n, voucherDenom: "ibc/8E27..." };
 * ```
 */
export interface WrapRedeemParams {
  /** The account burning the local denom and receiving the voucher (either address form). */
  sender: string;
  /** Amount, > 0. */
  amount: IntegerInput;
  /** The voucher denom to receive; required. */
  voucherDenom: string;
  /**
   * The local denom burned.
   * @default "uusdc"
   */
  localDenom?: string;
}

/**
 * Builds a wrap `MsgRedeem`: burns the local denom and hands the voucher to the sender on this chain.
 *
 * @param params - the message's fields in chain units (`WrapRedeemParams`: each field is documented
 *   there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is signed.
 *
 * @example
 * ```ts
 * const voucherDenom = "ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B5";
 * const msg = wrapRedeemMsg({ sender: wallet.address, amount: 1_000_000n, voucherDenom });
 * msg.value.amount; // "1000000"
 * ```
 */
export function wrapRedeemMsg(params: WrapRedeemParams): TxMessage<typeof wrap.MsgRedeemSchema> {
  checkParams(params, "wrapRedeemMsg");
  return {
    typeUrl: typeUrlOf(wrap.MsgRedeemSchema),
    value: create(wrap.MsgRedeemSchema, {
      sender: bech32Address(params.sender),
      amount: positiveAmount(params.amount, "amount"),
      voucherDenom: nonEmpty(params.voucherDenom, "voucherDenom"),
      localDenom: params.localDenom ?? "uusdc",
    }),
  };
}

/**
 * Parameters of {@link ibcTransferMsg}. At least one timeout must be set.
 *
 * @example
 * ```ts
 * const timeoutTimestampNs = BigInt(Date.now() + 600_000) * 1_000_000n; // in ten minutes
 * const params: IbcTransferParams = {
 *   sender: wallet.address, receiver: "noble1...", sourceChannel: "channel-0",
 *   token: { denom: "uusdc", amount: 1n }, timeoutTimestampNs,
 * };
 * ```
 */
export interface IbcTransferParams {
  /** The sender on this chain (either address form). */
  sender: string;
  /** The receiver on the destination chain (its own address format). */
  receiver: string;
  /** The coin sent. */
  token: CoinInput;
  /** The source channel, `channel-<n>`. */
  sourceChannel: string;
  /**
   * The source port.
   * @default "transfer"
   */
  sourcePort?: string;
  /**
   * Timeout as an absolute time, nanoseconds since the epoch.
   * @default 0n (disabled; then timeoutHeight must be set)
   */
  timeoutTimestampNs?: bigint;
  /**
   * Timeout as a height on the destination chain.
   * @default undefined (disabled)
   */
  timeoutHeight?: { revisionNumber: bigint; revisionHeight: bigint };
  /** @default "" */
  memo?: string;
}

/**
 * Builds an ICS-20 `MsgTransfer`.
 *
 * @param params - the message's fields in chain units (`IbcTransferParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is signed (including when no timeout is set).
 *
 * @example
 * ```ts
 * const msg = ibcTransferMsg({
 *   sender: wallet.address, receiver: "noble1...", sourceChannel: "channel-0",
 *   token: { denom: "uusdc", amount: 1_000_000n },
 *   timeoutTimestampNs: BigInt(Date.now() + 600_000) * 1_000_000n,
 * });
 * ```
 */
export function ibcTransferMsg(params: IbcTransferParams): TxMessage<typeof ibcTransfer.MsgTransferSchema> {
  checkParams(params, "ibcTransferMsg");
  const timeoutTimestamp = params.timeoutTimestampNs ?? 0n;
  const height = params.timeoutHeight;
  if (
    timeoutTimestamp <= 0n &&
    (height === undefined || (height.revisionHeight === 0n && height.revisionNumber === 0n))
  ) {
    throw new InvalidArgumentError("timeoutTimestampNs", "set a timeout timestamp or a timeout height");
  }
  if (!/^channel-\d+$/.test(params.sourceChannel)) {
    throw new InvalidArgumentError(
      "sourceChannel",
      `expected channel-<n>, got ${JSON.stringify(params.sourceChannel)}`,
    );
  }
  return {
    typeUrl: typeUrlOf(ibcTransfer.MsgTransferSchema),
    value: create(ibcTransfer.MsgTransferSchema, {
      sourcePort: params.sourcePort ?? "transfer",
      sourceChannel: params.sourceChannel,
      token: {
        denom: nonEmpty(params.token.denom, "token.denom"),
        amount: positiveAmount(params.token.amount, "token.amount"),
      },
      sender: bech32Address(params.sender),
      receiver: nonEmpty(params.receiver, "receiver"),
      timeoutHeight: height ?? { revisionNumber: 0n, revisionHeight: 0n },
      timeoutTimestamp,
      memo: params.memo ?? "",
    }),
  };
}
