/**
 * Order validation with the reference chain's clob codes: the stateless checks of `ValidateBasic`
 * ({@link validateOrderBasic}), the block windows of short-term and stateful orders
 * ({@link validateGoodTil}), and the checks against the clob pair ({@link validateAgainstPair}).
 */
import { clob } from "@perpx/proto";
import { abciError } from "../../errors.js";
import { clobErrors } from "./errors.js";

/** Order flag values (chain-protocol.md 1.1). */
export const ORDER_FLAGS = { shortTerm: 0, conditional: 32, longTerm: 64, twap: 128 } as const;

/** Short-term orders may be good until at most this many blocks after the next one (v9.5 value). */
export const SHORT_BLOCK_WINDOW = 20n;

/** Stateful orders may be good until at most 95 days after the previous block's time (seconds). */
export const STATEFUL_ORDER_TIME_WINDOW_SECONDS = 95n * 24n * 3600n;

/** The kind of an order by its flags. */
export type OrderKind = "short-term" | "long-term" | "conditional";

/** The kind of an order's flags; throws clob 3000 for anything else (TWAP is not supported). */
export function orderKind(flags: number): OrderKind {
  if (flags === ORDER_FLAGS.shortTerm) return "short-term";
  if (flags === ORDER_FLAGS.longTerm) return "long-term";
  if (flags === ORDER_FLAGS.conditional) return "conditional";
  throw abciError(
    clobErrors.invalidOrderFlag,
    flags === ORDER_FLAGS.twap ? "TWAP orders are not supported by the devnet" : `order flags ${flags}`,
  );
}

/**
 * Stateless checks of an order (the SDK's `ValidateBasic`): flags, side, size, price, the
 * good-til field of the order's kind, time in force (FOK is deprecated: clob 48, as the real
 * chain answers), reduce-only only on IOC (9003), and the conditional fields (6000/6001).
 */
export function validateOrderBasic(order: clob.Order): void {
  const id = order.orderId;
  if (id?.subaccountId === undefined) throw abciError(clobErrors.invalidPlaceOrder, "order id is missing");
  const kind = orderKind(id.orderFlags);
  if (order.side !== clob.Order_Side.BUY && order.side !== clob.Order_Side.SELL) {
    throw abciError(clobErrors.invalidOrderSide, `invalid order side ${order.side}`);
  }
  if (order.quantums === 0n)
    throw abciError(clobErrors.invalidOrderQuantums, "order size quantums cannot be 0");
  if (order.subticks === 0n) throw abciError(clobErrors.invalidOrderSubticks, "order subticks cannot be 0");
  if (order.timeInForce === clob.Order_TimeInForce.FILL_OR_KILL) {
    throw abciError(clobErrors.deprecatedField, "Fill-or-kill has been deprecated");
  }
  const tif = order.timeInForce;
  if (
    tif !== clob.Order_TimeInForce.UNSPECIFIED &&
    tif !== clob.Order_TimeInForce.IOC &&
    tif !== clob.Order_TimeInForce.POST_ONLY
  ) {
    throw abciError(clobErrors.invalidPlaceOrder, `unknown time in force ${tif}`);
  }
  if (order.reduceOnly && tif !== clob.Order_TimeInForce.IOC) {
    throw abciError(clobErrors.reduceOnlyDisabled, "reduce-only orders must be immediate-or-cancel");
  }
  const goodTil = order.goodTilOneof;
  if (kind === "short-term") {
    if (goodTil.case !== "goodTilBlock" || goodTil.value === 0) {
      throw abciError(clobErrors.invalidOrderGoodTilBlock, "short-term orders need a non-zero GoodTilBlock");
    }
  } else {
    if (goodTil.case !== "goodTilBlockTime" || goodTil.value === 0) {
      throw abciError(clobErrors.invalidGoodTilBlockTime, "stateful orders need a non-zero GoodTilBlockTime");
    }
    if (kind === "long-term" && tif === clob.Order_TimeInForce.IOC) {
      throw abciError(clobErrors.statefulImmediateExecution, "long-term orders cannot be IOC");
    }
  }
  const conditional = kind === "conditional";
  const hasType = order.conditionType !== clob.Order_ConditionType.UNSPECIFIED;
  if (conditional !== hasType) {
    throw abciError(
      clobErrors.invalidConditionType,
      conditional
        ? "conditional orders need a condition type"
        : "only conditional orders have a condition type",
    );
  }
  if (conditional !== (order.conditionalOrderTriggerSubticks !== 0n)) {
    throw abciError(
      clobErrors.invalidTriggerSubticks,
      conditional
        ? "conditional orders need trigger subticks"
        : "only conditional orders have trigger subticks",
    );
  }
}

/** Where the chain is when an order arrives. */
export interface OrderWindow {
  /** The height of the block the order would be placed in (latest committed height + 1). */
  readonly nextHeight: bigint;
  /** The previous block's time, unix seconds. */
  readonly previousBlockTimeSeconds: bigint;
}

/** Checks an order's good-til field against the block windows (clob 10/11, 3003/3004). */
export function validateGoodTil(order: clob.Order, window: OrderWindow): void {
  const goodTil = order.goodTilOneof;
  if (goodTil.case === "goodTilBlock") {
    const gtb = BigInt(goodTil.value);
    if (gtb < window.nextHeight) {
      throw abciError(
        clobErrors.heightExceedsGoodTilBlock,
        `GoodTilBlock ${gtb} is less than the next block height ${window.nextHeight}`,
      );
    }
    if (gtb > window.nextHeight + SHORT_BLOCK_WINDOW) {
      throw abciError(
        clobErrors.goodTilBlockExceedsWindow,
        `GoodTilBlock ${gtb} is greater than ShortBlockWindow ${SHORT_BLOCK_WINDOW} blocks after ${window.nextHeight}`,
      );
    }
  } else if (goodTil.case === "goodTilBlockTime") {
    const gtbt = BigInt(goodTil.value);
    if (gtbt <= window.previousBlockTimeSeconds) {
      throw abciError(
        clobErrors.timeExceedsGoodTilBlockTime,
        `GoodTilBlockTime ${gtbt} is less than or equal to the previous block time ${window.previousBlockTimeSeconds}`,
      );
    }
    if (gtbt > window.previousBlockTimeSeconds + STATEFUL_ORDER_TIME_WINDOW_SECONDS) {
      throw abciError(
        clobErrors.goodTilBlockTimeExceedsWindow,
        `GoodTilBlockTime ${gtbt} is more than 95 days after the previous block time ${window.previousBlockTimeSeconds}`,
      );
    }
  }
}

/**
 * Checks an order against its clob pair: the pair exists (8), the size is a multiple of the step
 * and the price (and trigger) of the tick (12), and the pair's status allows it (34).
 */
export function validateAgainstPair(order: clob.Order, pair: clob.ClobPair | undefined): clob.ClobPair {
  const pairId = order.orderId?.clobPairId ?? 0;
  if (pair === undefined) throw abciError(clobErrors.invalidClob, `clob pair ${pairId} does not exist`);
  if (pair.stepBaseQuantums > 0n && order.quantums % pair.stepBaseQuantums !== 0n) {
    throw abciError(
      clobErrors.invalidPlaceOrder,
      `order quantums ${order.quantums} must be a multiple of the ClobPair's StepBaseQuantums (${pair.stepBaseQuantums})`,
    );
  }
  const tick = BigInt(pair.subticksPerTick);
  if (tick > 0n && order.subticks % tick !== 0n) {
    throw abciError(
      clobErrors.invalidPlaceOrder,
      `order subticks ${order.subticks} must be a multiple of the ClobPair's SubticksPerTick (${tick})`,
    );
  }
  if (tick > 0n && order.conditionalOrderTriggerSubticks % tick !== 0n) {
    throw abciError(
      clobErrors.invalidPlaceOrder,
      `conditional order trigger subticks ${order.conditionalOrderTriggerSubticks} must be a multiple of the ClobPair's SubticksPerTick (${tick})`,
    );
  }
  const status = pair.status;
  const S = clob.ClobPair_Status;
  const postOnly = order.timeInForce === clob.Order_TimeInForce.POST_ONLY;
  const shortTerm = order.orderId?.orderFlags === ORDER_FLAGS.shortTerm;
  const allowed =
    status === S.ACTIVE ||
    (status === S.POST_ONLY && postOnly) ||
    (status === S.INITIALIZING && postOnly && shortTerm);
  if (!allowed) {
    throw abciError(
      clobErrors.conflictsWithStatus,
      `order ${orderLabel(order)} conflicts with clob pair ${pairId} status ${S[status] ?? status}`,
    );
  }
  return pair;
}

/** A short human label of an order id for logs. */
export function orderLabel(order: clob.Order): string {
  const id = order.orderId;
  return `{owner: ${id?.subaccountId?.owner}, number: ${id?.subaccountId?.number}, clientId: ${id?.clientId}, flags: ${id?.orderFlags}, clobPairId: ${id?.clobPairId}}`;
}
