/**
 * Which messages a clob tx may hold, and when it is fee-free (chain-protocol.md 1.6 and 1.8), as
 * the reference chain's clob ante path rules them (`HasClobMsg`, `IsShortTermClobMsgTx`,
 * `ValidateMsgsInClobTx` and the short-term timeout-height check of the clob decorator):
 *
 * - a tx holding a place, a cancel, a batch cancel or a leverage update is a *clob tx*;
 * - a short-term place or cancel, or a batch cancel, must be the only message of its tx;
 * - beside stateful places and cancels (and leverage updates) a clob tx may hold at most one
 *   `MsgCreateTransfer` (to fund an isolated subaccount) and no other message;
 * - a short-term place in a tx with a non-zero `timeout_height` below its good-til-block is refused;
 * - a clob tx takes the clob ante path: no fee is deducted and gas is not limited (a tx whose every
 *   message is short-term also skips the sequence). The rules above are what keeps that path from
 *   carrying anything else for free: a clob tx breaking them is refused (in CheckTx as the chain
 *   does, and in delivery too), so no bank send or other message is ever delivered fee-free.
 *
 * Every refusal is sdk 18 (invalid request) with the reference chain's text.
 */
import type { clob } from "@perpx/proto";
import type { TxPolicy } from "../../kernel/module.js";
import { abciError, sdkErrors } from "../../lib/errors.js";
import {
  BATCH_CANCEL_URL as BATCH,
  CANCEL_ORDER_URL as CANCEL,
  UPDATE_LEVERAGE_URL as LEVERAGE,
  PLACE_ORDER_URL as PLACE,
  CREATE_TRANSFER_URL as TRANSFER,
} from "../msg-type-urls.js";

/** The messages that make a tx a clob tx (the reference chain's `HasClobMsg`). */
const CLOB_MESSAGES: ReadonlySet<string> = new Set([PLACE, CANCEL, BATCH, LEVERAGE]);

/** One message of a tx: its type URL and decoded value. */
export interface TxMessage {
  readonly typeUrl: string;
  readonly msg: unknown;
}

/** The texts of the sdk 18 refusals, as the reference chain words them. */
export const CLOB_TX_RULE_TEXTS = {
  shortTermAlone:
    "a transaction containing short term MsgCancelOrder or MsgPlaceOrder may not contain more than one message",
  oneTransfer: "a transaction containing stateful orders can only be accompanied by 1 transfer msg",
  noOtherMessage: "a transaction containing stateful orders cannot be accompanied by non transfer msgs",
  timeoutHeight:
    "timeout height (if non-zero) may not be less than `goodTilBlock` for a short-term place order",
} as const;

/**
 * True for a short-term place or cancel, or a batch cancel (batch cancels are short-term only). An
 * absent order id reads as flags 0 (short-term), as the chain's non-nullable `OrderId` does.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 *
 * const longTerm = create(clob.MsgPlaceOrderSchema, { order: { orderId: { orderFlags: 64 } } });
 * isShortTermMessage("/perpx.clob.v1.MsgBatchCancel", create(clob.MsgBatchCancelSchema)); // true
 * isShortTermMessage("/perpx.clob.v1.MsgPlaceOrder", longTerm); // false
 * ```
 */
export function isShortTermMessage(typeUrl: string, msg: unknown): boolean {
  if (typeUrl === BATCH) return true;
  if (typeUrl === PLACE) return ((msg as clob.MsgPlaceOrder).order?.orderId?.orderFlags ?? 0) === 0;
  if (typeUrl === CANCEL) return ((msg as clob.MsgCancelOrder).orderId?.orderFlags ?? 0) === 0;
  return false;
}

/**
 * True when a tx holds a clob message (place, cancel, batch cancel, leverage update).
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 *
 * isClobTx([{ typeUrl: "/perpx.clob.v1.MsgUpdateLeverage", msg: create(clob.MsgUpdateLeverageSchema) }]); // true
 * isClobTx([{ typeUrl: "/cosmos.bank.v1beta1.MsgSend", msg: {} }]); // false
 * ```
 */
export function isClobTx(msgs: readonly TxMessage[]): boolean {
  return msgs.some((m) => CLOB_MESSAGES.has(m.typeUrl));
}

/** The first rule of 1.8 a clob tx's messages break, or undefined when they keep them all. */
function brokenRule(msgs: readonly TxMessage[]): string | undefined {
  if (msgs.length > 1 && msgs.some((m) => isShortTermMessage(m.typeUrl, m.msg))) {
    return CLOB_TX_RULE_TEXTS.shortTermAlone;
  }
  if (msgs.filter((m) => m.typeUrl === TRANSFER).length > 1) return CLOB_TX_RULE_TEXTS.oneTransfer;
  if (msgs.some((m) => !CLOB_MESSAGES.has(m.typeUrl) && m.typeUrl !== TRANSFER)) {
    return CLOB_TX_RULE_TEXTS.noOtherMessage;
  }
  return undefined;
}

/**
 * Checks the messages and timeout height of a clob tx (a no-op for other txs). In a simulation only
 * the short-term rule applies, as on the reference chain (whose clob decorator, holding the other
 * checks, skips simulations).
 *
 * @throws AbciError sdk 18 with the reference chain's text when a rule is broken.
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 *
 * const statefulPlace = {
 *   typeUrl: "/perpx.clob.v1.MsgPlaceOrder",
 *   msg: create(clob.MsgPlaceOrderSchema, { order: { orderId: { orderFlags: 64 } } }),
 * };
 * const bankSend = { typeUrl: "/cosmos.bank.v1beta1.MsgSend", msg: {} };
 * checkClobTx([statefulPlace], 0n, false); // undefined: the rules hold
 * checkClobTx([statefulPlace, bankSend], 0n, false); // throws AbciError: sdk 18, no fee-free bank send
 * checkClobTx([statefulPlace, bankSend], 0n, true); // undefined: a simulation checks only the short-term rule
 * ```
 *
 * A short-term place may not outlive the tx's timeout height:
 *
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 *
 * const place = create(clob.MsgPlaceOrderSchema, {
 *   order: { orderId: { orderFlags: 0 }, goodTilOneof: { case: "goodTilBlock", value: 120 } },
 * });
 * checkClobTx([{ typeUrl: "/perpx.clob.v1.MsgPlaceOrder", msg: place }], 110n, false); // throws AbciError
 * checkClobTx([{ typeUrl: "/perpx.clob.v1.MsgPlaceOrder", msg: place }], 120n, false); // undefined
 * ```
 */
export function checkClobTx(msgs: readonly TxMessage[], timeoutHeight: bigint, simulate: boolean): void {
  if (!isClobTx(msgs)) return;
  const broken = brokenRule(msgs);
  if (broken === CLOB_TX_RULE_TEXTS.shortTermAlone || (broken !== undefined && !simulate)) {
    throw abciError(sdkErrors.invalidRequest, broken);
  }
  if (simulate || timeoutHeight === 0n) return;
  for (const m of msgs) {
    if (m.typeUrl !== PLACE || !isShortTermMessage(m.typeUrl, m.msg)) continue;
    const goodTil = (m.msg as clob.MsgPlaceOrder).order?.goodTilOneof;
    const gtb = goodTil?.case === "goodTilBlock" ? BigInt(goodTil.value) : 0n;
    if (timeoutHeight < gtb) throw abciError(sdkErrors.invalidRequest, CLOB_TX_RULE_TEXTS.timeoutHeight);
  }
}

/**
 * The tx policy of a clob tx (the reference chain's clob ante path): no fee and no gas limit, and no
 * sequence when every message is short-term; undefined (the defaults: fees, gas, sequence) for any
 * other tx. Whether the clob tx keeps the rules is {@link checkClobTx}'s to say.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 *
 * const shortTermPlace = create(clob.MsgPlaceOrderSchema, { order: { orderId: { orderFlags: 0 } } });
 * clobTxPolicy([{ typeUrl: "/perpx.clob.v1.MsgPlaceOrder", msg: shortTermPlace }]);
 * // { chargeFees: false, checkSequence: false, meterGas: false }
 * clobTxPolicy([{ typeUrl: "/cosmos.bank.v1beta1.MsgSend", msg: {} }]); // undefined
 * ```
 */
export function clobTxPolicy(msgs: readonly TxMessage[]): Partial<TxPolicy> | undefined {
  if (!isClobTx(msgs)) return undefined;
  const shortTerm = msgs.every((m) => isShortTermMessage(m.typeUrl, m.msg));
  return shortTerm
    ? { chargeFees: false, checkSequence: false, meterGas: false }
    : { chargeFees: false, meterGas: false };
}
