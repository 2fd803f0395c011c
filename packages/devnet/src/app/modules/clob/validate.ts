/**
 * Order validation with the reference chain's clob codes: the stateless checks of `ValidateBasic`
 * ({@link validateOrderBasic}), the block windows of short-term and stateful orders
 * ({@link validateGoodTil}), and the checks against the clob pair ({@link validateAgainstPair}).
 */
import { clob } from "@perpx/proto";
import { accAddressBytes } from "../../lib/addresses.js";
import { abciError } from "../../lib/errors.js";
import { validateSubaccountId } from "../subaccounts/keeper.js";
import { clobErrors } from "./errors.js";

/** Order flag values (chain-protocol.md 1.1). */
export const ORDER_FLAGS = { shortTerm: 0, conditional: 32, longTerm: 64, twap: 128 } as const;

/**
 * Short-term orders may be good until at most this many blocks after the next one (the reference
 * chain's `ShortBlockWindow`, 40 since the v9.5 line; chain-protocol.md 1.6).
 */
export const SHORT_BLOCK_WINDOW = 40n;

/** Most cancels in one `MsgBatchCancel` (the reference chain's `MaxMsgBatchCancelBatchSize`). */
export const MAX_BATCH_CANCEL = 100;

/** Stateful orders may be good until at most 95 days after the previous block's time (seconds). */
export const STATEFUL_ORDER_TIME_WINDOW_SECONDS = 95n * 24n * 3600n;

/** The kind of an order by its flags. */
export type OrderKind = "short-term" | "long-term" | "conditional" | "twap";

/** The kind of an order's flags; throws clob 3000 for anything else (TWAP suborders are the chain's own). */
export function orderKind(flags: number): OrderKind {
  if (flags === ORDER_FLAGS.shortTerm) return "short-term";
  if (flags === ORDER_FLAGS.longTerm) return "long-term";
  if (flags === ORDER_FLAGS.conditional) return "conditional";
  if (flags === ORDER_FLAGS.twap) return "twap";
  throw abciError(clobErrors.invalidOrderFlag, `order flags ${flags}`);
}

/** TWAP bounds (the reference chain's): interval 30..3,600 s, duration 300..86,400 s, tolerance < 1,000,000 ppm. */
export const TWAP_LIMITS = {
  minInterval: 30,
  maxInterval: 3_600,
  minDuration: 300,
  maxDuration: 86_400,
  maxPriceTolerance: 1_000_000,
} as const;

/** The TWAP checks of `ValidateBasic` (clob 12 with the reference chain's texts). */
function validateTwap(order: clob.Order): void {
  const p = order.twapParameters;
  const invalid = (text: string) => abciError(clobErrors.invalidPlaceOrder, text);
  if (p === undefined) throw invalid("TWAP order must have a TWAP config");
  const t = TWAP_LIMITS;
  if (p.interval < t.minInterval || p.interval > t.maxInterval) {
    throw invalid(
      `TWAP order interval must be in the range [${t.minInterval} seconds, ${t.maxInterval} seconds]`,
    );
  }
  if (p.duration < t.minDuration || p.duration > t.maxDuration) {
    throw invalid(
      `TWAP order duration must be in the range [${t.minDuration} seconds, ${t.maxDuration} seconds]`,
    );
  }
  if (p.duration % p.interval !== 0) throw invalid("TWAP order duration must be a multiple of the interval");
  if (p.priceTolerance >= t.maxPriceTolerance) {
    throw invalid(`TWAP order price tolerance must be in the range [0, ${t.maxPriceTolerance})`);
  }
}

/** The largest builder fee, ppm (the reference chain's `MaxBuilderCodeFeePpm`). */
const MAX_BUILDER_FEE_PPM = 10_000;

/** True when `text` is a bech32 account address. */
function isAccAddress(text: string): boolean {
  try {
    accAddressBytes(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stateless checks of an order, in the order and with the codes of the reference chain's
 * `MsgPlaceOrder.ValidateBasic`: fill-or-kill is deprecated (48), the subaccount id (subaccounts
 * 201/200), side (3), time in force (44), condition type (6000), size (4), order router address
 * (11000), the good-til field of the order's kind (5/3001) or its flags (3000), no IOC long-term
 * order (3002), reduce-only only on IOC (9003), price (6), the conditional fields (6000/6001) and
 * the builder code (50), and a TWAP order's parameters (12).
 *
 * @throws AbciError with the first failing check's code.
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 *
 * const order = create(clob.OrderSchema, {
 *   orderId: { subaccountId: { owner: "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9", number: 0 } },
 *   side: clob.Order_Side.BUY,
 *   quantums: 1_000_000n,
 *   subticks: 100_000n,
 *   goodTilOneof: { case: "goodTilBlock", value: 20 },
 * });
 * validateOrderBasic(order); // undefined: a valid short-term buy
 * validateOrderBasic({ ...order, timeInForce: 7 as clob.Order_TimeInForce }); // throws AbciError: clob 44, invalid time in force
 * validateOrderBasic({ ...order, goodTilOneof: { case: undefined } }); // throws AbciError: clob 5, no good-til-block
 * ```
 */
export function validateOrderBasic(order: clob.Order): void {
  const TIF = clob.Order_TimeInForce;
  const tif = order.timeInForce;
  if (tif === TIF.FILL_OR_KILL)
    throw abciError(clobErrors.deprecatedField, "Fill-or-kill has been deprecated");
  const id = order.orderId;
  validateSubaccountId(id?.subaccountId ?? { owner: "", number: 0 });
  if (clob.Order_Side[order.side] === undefined) {
    throw abciError(clobErrors.invalidOrderSide, `invalid order side (${order.side})`);
  }
  if (TIF[tif] === undefined)
    throw abciError(clobErrors.invalidTimeInForce, `invalid time in force (${tif})`);
  if (clob.Order_ConditionType[order.conditionType] === undefined) {
    throw abciError(clobErrors.invalidConditionType, `invalid condition type (${order.conditionType})`);
  }
  if (order.side === clob.Order_Side.UNSPECIFIED) {
    throw abciError(clobErrors.invalidOrderSide, "UNSPECIFIED is not a valid order side");
  }
  if (order.quantums === 0n)
    throw abciError(clobErrors.invalidOrderQuantums, "order size quantums cannot be 0");
  if (order.orderRouterAddress !== "" && !isAccAddress(order.orderRouterAddress)) {
    throw abciError(
      clobErrors.invalidOrderRouterAddress,
      `order router address '${order.orderRouterAddress}' must be a valid bech32 address`,
    );
  }
  const flags = id?.orderFlags ?? 0;
  const goodTil = order.goodTilOneof;
  if (flags === ORDER_FLAGS.shortTerm) {
    if (goodTil.case !== "goodTilBlock" || goodTil.value === 0) {
      throw abciError(clobErrors.invalidOrderGoodTilBlock, "order goodTilBlock cannot be 0");
    }
  } else if (
    flags === ORDER_FLAGS.longTerm ||
    flags === ORDER_FLAGS.conditional ||
    flags === ORDER_FLAGS.twap
  ) {
    if (goodTil.case !== "goodTilBlockTime" || goodTil.value === 0) {
      throw abciError(clobErrors.invalidGoodTilBlockTime, "stateful order goodTilBlockTime cannot be 0");
    }
  } else {
    throw abciError(clobErrors.invalidOrderFlag, `invalid order flag ${flags}`);
  }
  const ioc = tif === TIF.IOC;
  if (flags === ORDER_FLAGS.longTerm && ioc) throw abciError(clobErrors.statefulImmediateExecution);
  if (order.reduceOnly && !ioc) {
    throw abciError(clobErrors.reduceOnlyDisabled, "reduce only orders must be short term IOC orders");
  }
  if (order.subticks === 0n && flags !== ORDER_FLAGS.twap) {
    throw abciError(clobErrors.invalidOrderSubticks, "order subticks cannot be 0 for this order type");
  }
  checkConditionalFields(order, flags === ORDER_FLAGS.conditional);
  const builder = order.builderCodeParameters;
  if (builder !== undefined) {
    if (!isAccAddress(builder.builderAddress)) {
      throw abciError(
        clobErrors.invalidBuilderCode,
        `builder code address '${builder.builderAddress}' must be a valid bech32 address`,
      );
    }
    if (builder.feePpm <= 0 || builder.feePpm > MAX_BUILDER_FEE_PPM) {
      throw abciError(
        clobErrors.invalidBuilderCode,
        `builder code fee ppm '${builder.feePpm}' must be in the range (0, ${MAX_BUILDER_FEE_PPM}]`,
      );
    }
  }
  if (orderKind(flags) === "twap") validateTwap(order);
}

function checkConditionalFields(order: clob.Order, conditional: boolean): void {
  const untyped = order.conditionType === clob.Order_ConditionType.UNSPECIFIED;
  const untriggered = order.conditionalOrderTriggerSubticks === 0n;
  if (conditional && untyped)
    throw abciError(clobErrors.invalidConditionType, "condition type cannot be unspecified");
  if (conditional && untriggered) {
    throw abciError(clobErrors.invalidTriggerSubticks, "conditional order trigger subticks cannot be 0");
  }
  if (!conditional && !untyped) {
    throw abciError(clobErrors.invalidConditionType, "condition type specified for non-conditional order");
  }
  if (!conditional && !untriggered) {
    throw abciError(
      clobErrors.invalidTriggerSubticks,
      "conditional order trigger subticks greater than 0 for non-conditional order",
    );
  }
}

/**
 * Stateless checks of a batch cancel, as the reference chain's `MsgBatchCancel.ValidateBasic`:
 * the subaccount id (subaccounts 201/200), then clob 45 for no batch, two batches of one clob
 * pair, a batch without client ids, a client id twice in a batch, or more than
 * {@link MAX_BATCH_CANCEL} cancels. (Its good-til-block is checked against the window later: 10/11.)
 *
 * @throws AbciError with the first failing check's code.
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 *
 * const subaccountId = { owner: "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9", number: 0 };
 * const batch = (clientIds: number[]) =>
 *   create(clob.MsgBatchCancelSchema, { subaccountId, shortTermCancels: [{ clobPairId: 0, clientIds }], goodTilBlock: 20 });
 * validateBatchCancelBasic(batch([1, 2])); // undefined
 * validateBatchCancelBasic(batch([1, 1])); // throws AbciError: clob 45, a client id twice
 * validateBatchCancelBasic(create(clob.MsgBatchCancelSchema, { subaccountId })); // throws AbciError: clob 45, no batch
 * ```
 */
export function validateBatchCancelBasic(msg: clob.MsgBatchCancel): void {
  validateSubaccountId(msg.subaccountId ?? { owner: "", number: 0 });
  const invalid = (detail: string) => abciError(clobErrors.invalidBatchCancel, detail);
  if (msg.shortTermCancels.length === 0) throw invalid("Batch cancel cannot have zero orders specified.");
  const pairs = new Set<number>();
  let total = 0;
  for (const batch of msg.shortTermCancels) {
    if (pairs.has(batch.clobPairId)) {
      throw invalid(
        `Batch cancel cannot have 2 order batches with the same clob pair id: ${batch.clobPairId}`,
      );
    }
    pairs.add(batch.clobPairId);
    if (batch.clientIds.length === 0) throw invalid("Order Batch cannot have zero client ids.");
    total += batch.clientIds.length;
    const seen = new Set<number>();
    for (const clientId of batch.clientIds) {
      if (seen.has(clientId)) {
        throw invalid(`Batch Cancel Clob pair id ${batch.clobPairId} has duplicate client ids: ${clientId}`);
      }
      seen.add(clientId);
    }
  }
  if (total > MAX_BATCH_CANCEL) {
    throw invalid(`Batch cancel cannot have over ${MAX_BATCH_CANCEL} orders. Order count: ${total}`);
  }
}

/**
 * Stateless checks of a cancel, as the reference chain's `MsgCancelOrder.ValidateBasic`: the
 * subaccount id (subaccounts 201/200), the order flags (3000), then a non-zero good-til-block-time
 * for a stateful order (3001) or good-til-block for a short-term one (5).
 *
 * @throws AbciError with the first failing check's code.
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 *
 * const orderId = { subaccountId: { owner: "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9", number: 0 }, clientId: 7 };
 * validateCancelBasic(create(clob.MsgCancelOrderSchema, { orderId, goodTilOneof: { case: "goodTilBlock", value: 20 } })); // undefined
 * validateCancelBasic(create(clob.MsgCancelOrderSchema, { orderId })); // throws AbciError: clob 5, a short-term cancel without a good-til-block
 * ```
 */
export function validateCancelBasic(msg: clob.MsgCancelOrder): void {
  const id = msg.orderId;
  validateSubaccountId(id?.subaccountId ?? { owner: "", number: 0 });
  const flags = id?.orderFlags ?? 0;
  const stateful =
    flags === ORDER_FLAGS.longTerm || flags === ORDER_FLAGS.conditional || flags === ORDER_FLAGS.twap;
  if (flags !== ORDER_FLAGS.shortTerm && !stateful) {
    throw abciError(clobErrors.invalidOrderFlag, `orderId: ${flags} is not a valid order flag`);
  }
  const goodTil = msg.goodTilOneof;
  if (stateful && (goodTil.case !== "goodTilBlockTime" || goodTil.value === 0)) {
    throw abciError(
      clobErrors.invalidGoodTilBlockTime,
      `stateful cancellation goodTilBlockTime cannot be 0, ${goOrderId(id)}`,
    );
  }
  if (!stateful && (goodTil.case !== "goodTilBlock" || goodTil.value === 0)) {
    throw abciError(
      clobErrors.invalidOrderGoodTilBlock,
      `cancellation goodTilBlock cannot be 0, orderId ${goOrderId(id)}`,
    );
  }
}

/**
 * Checks a leverage update as the reference chain's `ValidateUpdateLeverageMsg`: a subaccount id
 * (clob 11001 when absent, else subaccounts 201/200), at least one entry, each with a custom
 * initial margin in (0, 1,000,000] ppm and a clob pair named once (11002) that exists (8).
 *
 * @throws AbciError with the first failing check's code.
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { clob } from "@perpx/proto";
 *
 * const msg = create(clob.MsgUpdateLeverageSchema, {
 *   subaccountId: { owner: "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9", number: 0 },
 *   clobPairLeverage: [{ clobPairId: 0, customImfPpm: 200_000 }],
 * });
 * const pairs = new Set([0, 1]);
 * validateLeverageUpdate(msg, (id) => pairs.has(id)); // undefined: 5x on pair 0
 * validateLeverageUpdate(msg, () => false); // throws AbciError: clob 8, no such clob pair
 * ```
 */
export function validateLeverageUpdate(
  msg: clob.MsgUpdateLeverage,
  pairExists: (id: number) => boolean,
): void {
  if (msg.subaccountId === undefined) {
    throw abciError(clobErrors.invalidAddress, "subaccount ID cannot be nil");
  }
  validateSubaccountId(msg.subaccountId);
  if (msg.clobPairLeverage.length === 0) {
    throw abciError(clobErrors.invalidLeverage, "clob pair leverage entries cannot be empty");
  }
  const seen = new Set<number>();
  for (const entry of msg.clobPairLeverage) {
    if (entry.customImfPpm === 0 || entry.customImfPpm > 1_000_000) {
      throw abciError(
        clobErrors.invalidLeverage,
        `imf ppm for clob pair ${entry.clobPairId} must be between (0, 1,000,000]`,
      );
    }
    if (seen.has(entry.clobPairId)) {
      throw abciError(clobErrors.invalidLeverage, `duplicate clob pair ID ${entry.clobPairId}`);
    }
    if (!pairExists(entry.clobPairId)) {
      throw abciError(clobErrors.invalidClob, `clob pair ID ${entry.clobPairId} does not exist`);
    }
    seen.add(entry.clobPairId);
  }
}

/** Where the chain is when an order arrives. */
export interface OrderWindow {
  /** The height of the block the order would be placed in (latest committed height + 1). */
  readonly nextHeight: bigint;
  /** The previous block's time, unix seconds. */
  readonly previousBlockTimeSeconds: bigint;
}

/**
 * Checks an order's good-til field against the block windows (clob 10/11, 3003/3004), with the
 * reference keeper's texts (`validateGoodTilBlock`, `PerformStatefulOrderValidation`; a stateful
 * cancel's past good-til-block-time is the bare error, as `PerformOrderCancellationStatefulValidation`
 * returns it). Only the field is read, so a cancel's or a rate limit's good-til-block is checked
 * without building an order.
 *
 * @param order - what holds the good-til field (an order, a cancel).
 * @param window - where the chain is.
 * @param statefulCancel - the field is a stateful cancel's.
 * @throws AbciError 10 / 11 (good-til-block), 3003 / 3004 (good-til-block-time).
 * @example
 * ```ts
 * const window = { nextHeight: 10n, previousBlockTimeSeconds: 1_000n };
 * validateGoodTil({ goodTilOneof: { case: "goodTilBlock", value: 12 } }, window); // undefined
 * validateGoodTil({ goodTilOneof: { case: "goodTilBlock", value: 9 } }, window);
 * // throws AbciError: clob 10, "GoodTilBlock 9 is less than the current blockHeight 10: ..."
 * ```
 */
export function validateGoodTil(
  order: Pick<clob.Order, "goodTilOneof">,
  window: OrderWindow,
  statefulCancel = false,
): void {
  const goodTil = order.goodTilOneof;
  if (goodTil.case === "goodTilBlock") {
    const gtb = BigInt(goodTil.value);
    if (gtb < window.nextHeight) {
      throw abciError(
        clobErrors.heightExceedsGoodTilBlock,
        `GoodTilBlock ${gtb} is less than the current blockHeight ${window.nextHeight}`,
      );
    }
    if (gtb > window.nextHeight + SHORT_BLOCK_WINDOW) {
      throw abciError(
        clobErrors.goodTilBlockExceedsWindow,
        `The GoodTilBlock ${gtb} exceeds the current blockHeight ${window.nextHeight} plus ShortBlockWindow ${SHORT_BLOCK_WINDOW}`,
      );
    }
  } else if (goodTil.case === "goodTilBlockTime") {
    const gtbt = BigInt(goodTil.value);
    if (gtbt <= window.previousBlockTimeSeconds) {
      if (statefulCancel) throw abciError(clobErrors.timeExceedsGoodTilBlockTime);
      throw abciError(
        clobErrors.timeExceedsGoodTilBlockTime,
        `GoodTilBlockTime ${gtbt} is less than the previous blockTime ${window.previousBlockTimeSeconds}`,
      );
    }
    const end = window.previousBlockTimeSeconds + STATEFUL_ORDER_TIME_WINDOW_SECONDS;
    if (gtbt > end) {
      throw abciError(
        clobErrors.goodTilBlockTimeExceedsWindow,
        `GoodTilBlockTime ${gtbt} exceeds the previous blockTime plus StatefulOrderTimeWindow ${end}`,
      );
    }
  }
}

/**
 * Checks an order against its clob pair, in the order and with the texts of the reference keeper's
 * `PerformStatefulOrderValidation`: the pair exists (8), the price is a multiple of the tick, then
 * the size of the step (12), and the pair's status allows it (34). A conditional order's trigger
 * is checked later, by {@link validateTrigger}.
 */
export function validateAgainstPair(order: clob.Order, pair: clob.ClobPair | undefined): clob.ClobPair {
  const pairId = order.orderId?.clobPairId ?? 0;
  if (pair === undefined) throw abciError(clobErrors.invalidClob, `Clob ${pairId} is not a valid clob`);
  const tick = BigInt(pair.subticksPerTick);
  if (tick > 0n && order.subticks % tick !== 0n) {
    throw abciError(
      clobErrors.invalidPlaceOrder,
      `Order subticks ${order.subticks} must be a multiple of the ClobPair's SubticksPerTick ${tick}`,
    );
  }
  if (pair.stepBaseQuantums > 0n && order.quantums % pair.stepBaseQuantums !== 0n) {
    throw abciError(
      clobErrors.invalidPlaceOrder,
      `Order Quantums ${order.quantums} must be a multiple of the ClobPair's StepBaseQuantums ${pair.stepBaseQuantums}`,
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

/**
 * Checks a conditional order's trigger against the tick (clob 12), after the good-til checks as the
 * reference keeper does. Its text names the pair's step where it says SubticksPerTick, as the
 * reference's does.
 */
export function validateTrigger(order: clob.Order, pair: clob.ClobPair): void {
  const tick = BigInt(pair.subticksPerTick);
  if (tick > 0n && order.conditionalOrderTriggerSubticks % tick !== 0n) {
    throw abciError(
      clobErrors.invalidPlaceOrder,
      `Conditional order trigger subticks ${order.conditionalOrderTriggerSubticks} must be a multiple of the ClobPair's SubticksPerTick ${pair.stepBaseQuantums}`,
    );
  }
}

/**
 * An order id as Go's `%+v` prints the reference chain's `OrderId` value in its logs.
 *
 * @param id - the order id.
 * @returns e.g. `{SubaccountId:{Owner:perpx1... Number:0} ClientId:7 OrderFlags:64 ClobPairId:0}`.
 */
export function goOrderId(id: clob.OrderId | undefined): string {
  return `{SubaccountId:{Owner:${id?.subaccountId?.owner ?? ""} Number:${id?.subaccountId?.number ?? 0}} ClientId:${id?.clientId ?? 0} OrderFlags:${id?.orderFlags ?? 0} ClobPairId:${id?.clobPairId ?? 0}}`;
}

/** A short human label of an order id for logs. */
export function orderLabel(order: clob.Order): string {
  const id = order.orderId;
  return `{owner: ${id?.subaccountId?.owner}, number: ${id?.subaccountId?.number}, clientId: ${id?.clientId}, flags: ${id?.orderFlags}, clobPairId: ${id?.clobPairId}}`;
}
