/**
 * TWAP orders (order flag 128), as the real chain's clob runs them: the placement stores the order
 * with its remaining legs (`duration / interval`) and quantums, and a suborder trigger at the
 * block's time. At each block's end, every due trigger generates a suborder (flag 256, same
 * subaccount, client id and pair; good-til-block-time the block time + 3 s; no time in force):
 * its price is the TWAP's limit, or for a market TWAP (subticks 0) the oracle price moved by the
 * price tolerance against the trader and rounded to a tick (up for a buy, down for a sell); its
 * size is `min(ceil(remaining / remaining legs), 3 × ceil(quantums / legs))` rounded down to the
 * pair's step. The suborder is placed as a stateful order (checked, stored, in the book after
 * the block commits) and the next trigger set an interval later; a suborder that cannot be placed
 * removes the TWAP. Suborder fills lower the TWAP's remaining quantums; once no legs or quantums
 * remain, the next trigger deletes it. A cancel of the TWAP's id deletes it.
 *
 * Store (slice `clob/`): see `twap-state.ts`.
 */
import { create } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import { abciError } from "../../lib/errors.js";
import { padKey } from "../records.js";
import { CLOB_EVENTS, type ClobKeepers, Engine, orderAttributes } from "./engine.js";
import { clobErrors } from "./errors.js";
import { oracleSubticksFraction } from "./funding-book.js";
import { CLOB, getPair, orderKey, orderKeyAfter } from "./state.js";
import { placeStateful } from "./stateful.js";
import {
  encodeTwap,
  getTwap,
  TWAP_SUBORDER_FLAGS,
  type TwapPlacement,
  triggerKey,
  twapKey,
  withFlags,
} from "./twap-state.js";
import { goOrderId, ORDER_FLAGS, orderLabel } from "./validate.js";

/** A suborder is good for this many seconds after the block that placed it. */
export const TWAP_SUBORDER_GOOD_TIL_SECONDS = 3;
/** A suborder catches up at most this many times the original size per leg. */
const MAX_CATCHUP_MULTIPLE = 3n;

/** The legs of a TWAP order: duration / interval. */
export function totalLegs(order: clob.Order): number {
  const p = order.twapParameters;
  return p === undefined || p.interval === 0 ? 0 : Math.floor(p.duration / p.interval);
}

/**
 * Checks and stores a TWAP order and its first suborder trigger (at this block's time), with the
 * placement event. The collateral check is the stateful one at full size, at the order's price or
 * for a market TWAP the oracle price.
 *
 * @throws AbciError 3005 when a TWAP order of that id exists, revshare 8 for a router without a
 * share, 3007 without the collateral.
 */
export function placeTwap(ctx: Context, keepers: ClobKeepers, order: clob.Order, pair: clob.ClobPair): void {
  const key = orderKey(order.orderId);
  const store = ctx.store(CLOB);
  if (store.get(twapKey(key)) !== undefined) {
    throw abciError(clobErrors.statefulOrderExists, `order ${orderLabel(order)} already exists`);
  }
  keepers.revshare.routerShare(ctx, order.orderRouterAddress);
  const oracle = oracleSubticksFraction(ctx, keepers, pair);
  const subticks =
    order.subticks !== 0n ? order.subticks : oracle === undefined ? 0n : oracle.num / oracle.den;
  new Engine(ctx, keepers).checkStatefulCollateral(create(clob.OrderSchema, { ...order, subticks }), pair);
  store.set(
    twapKey(key),
    encodeTwap({ order, remainingLegs: totalLegs(order), remainingQuantums: order.quantums }),
  );
  const suborderKey = orderKey(withFlags(order.orderId, TWAP_SUBORDER_FLAGS));
  store.set(triggerKey(ctx.block.timeMs / 1000n, suborderKey), new Uint8Array(0));
  ctx.events.indexer({ kind: "stateful_order_placed", order });
  ctx.events.emitEvent(CLOB_EVENTS.place, [
    ...orderAttributes(order),
    ["quantums", order.quantums.toString()],
    ["subticks", order.subticks.toString()],
    ["twap_duration", String(order.twapParameters?.duration ?? 0)],
    ["twap_interval", String(order.twapParameters?.interval ?? 0)],
    ["twap_price_tolerance", String(order.twapParameters?.priceTolerance ?? 0)],
  ]);
}

/**
 * Cancels a TWAP order (its pending trigger finds nothing and is dropped).
 *
 * @throws AbciError 3006 when there is none of that id.
 */
export function cancelTwap(ctx: Context, orderId: clob.OrderId | undefined): void {
  const key = orderKey(orderId);
  const found = getTwap(ctx, key);
  if (found === undefined)
    throw abciError(
      clobErrors.statefulOrderDoesNotExist,
      `Order Id to cancel does not exist. OrderId : ${goOrderId(orderId)}`,
    );
  ctx.store(CLOB).delete(twapKey(key));
  if (ctx.mode !== "deliver") return;
  ctx.events.emitEvent(CLOB_EVENTS.cancel, [
    ...orderAttributes(found.order),
    ["reason", "user_canceled"],
    ["remaining_quantums", found.remainingQuantums.toString()],
  ]);
  ctx.events.indexer({ kind: "stateful_order_removed", order: found.order, reason: "user_canceled" });
}

/** Rounds `num / den` to a multiple of `step`, up or down. */
function roundToMultiple(num: bigint, den: bigint, step: bigint, up: boolean): bigint {
  const unit = den * step;
  const whole = num / unit;
  return (up && num % unit !== 0n ? whole + 1n : whole) * step;
}

/** The size of the next suborder (see the module comment); 0 when nothing is left to place. */
export function suborderQuantums(p: TwapPlacement, stepBaseQuantums: bigint): bigint {
  const legs = BigInt(totalLegs(p.order));
  if (legs === 0n || p.remainingLegs === 0) return 0n;
  const ceil = (a: bigint, b: bigint) => (a + b - 1n) / b;
  const perLeg = ceil(p.order.quantums, legs);
  const catchUp = ceil(p.remainingQuantums, BigInt(p.remainingLegs));
  const size = catchUp < perLeg * MAX_CATCHUP_MULTIPLE ? catchUp : perLeg * MAX_CATCHUP_MULTIPLE;
  const step = stepBaseQuantums > 0n ? stepBaseQuantums : 1n;
  return (size / step) * step;
}

function suborderSubticks(
  ctx: Context,
  keepers: ClobKeepers,
  p: TwapPlacement,
  pair: clob.ClobPair,
): bigint | undefined {
  if (p.order.subticks !== 0n) return p.order.subticks;
  const oracle = oracleSubticksFraction(ctx, keepers, pair);
  if (oracle === undefined) return undefined;
  const buy = p.order.side === clob.Order_Side.BUY;
  const tolerance = BigInt(p.order.twapParameters?.priceTolerance ?? 0);
  const ppm = buy ? 1_000_000n + tolerance : 1_000_000n - tolerance;
  return roundToMultiple(oracle.num * ppm, oracle.den * 1_000_000n, BigInt(pair.subticksPerTick), buy);
}

function removeTwap(ctx: Context, p: TwapPlacement, reason: string): void {
  ctx.store(CLOB).delete(twapKey(orderKey(p.order.orderId)));
  ctx.events.indexer({ kind: "stateful_order_removed", order: p.order, reason });
  ctx.events.emitEvent(CLOB_EVENTS.cancel, [
    ...orderAttributes(p.order),
    ["reason", reason],
    ["remaining_quantums", p.remainingQuantums.toString()],
  ]);
}

/** Generates and places the suborders due at this block's time (see the module comment). */
export function placeDueSuborders(ctx: Context, keepers: ClobKeepers): void {
  const store = ctx.store(CLOB);
  const now = ctx.block.timeMs / 1000n;
  const due = [...store.entries("twaptrig/", { end: triggerKey(now + 1n, "") })].map(([k]) => k);
  for (const storeKey of due) {
    store.delete(storeKey);
    const suborderKey = orderKeyAfter(storeKey, 2);
    const parentKey = suborderKey.replace(
      `/${padKey(TWAP_SUBORDER_FLAGS, 10)}/`,
      `/${padKey(ORDER_FLAGS.twap, 10)}/`,
    );
    const parent = getTwap(ctx, parentKey);
    if (parent === undefined) continue;
    const pair = getPair(store, parent.order.orderId?.clobPairId ?? 0);
    const quantums = pair === undefined ? 0n : suborderQuantums(parent, pair.stepBaseQuantums);
    if (pair === undefined || parent.remainingQuantums === 0n || quantums === 0n) {
      store.delete(twapKey(parentKey));
      ctx.events.emitEvent(CLOB_EVENTS.cancel, [
        ...orderAttributes(parent.order),
        ["reason", "twap_completed"],
        ["remaining_quantums", parent.remainingQuantums.toString()],
      ]);
      continue;
    }
    const subticks = suborderSubticks(ctx, keepers, parent, pair);
    const next = { ...parent, remainingLegs: parent.remainingLegs - 1 };
    store.set(twapKey(parentKey), encodeTwap(next));
    const nextTrigger = triggerKey(now + BigInt(parent.order.twapParameters?.interval ?? 0), suborderKey);
    store.set(nextTrigger, new Uint8Array(0));
    const suborder = create(clob.OrderSchema, {
      orderId: withFlags(parent.order.orderId, TWAP_SUBORDER_FLAGS),
      side: parent.order.side,
      quantums,
      subticks: subticks ?? 0n,
      reduceOnly: parent.order.reduceOnly,
      clientMetadata: parent.order.clientMetadata,
      goodTilOneof: { case: "goodTilBlockTime", value: Number(now) + TWAP_SUBORDER_GOOD_TIL_SECONDS },
    });
    try {
      if (subticks === undefined || subticks === 0n) {
        throw abciError(clobErrors.invalidOrderSubticks, "no oracle price for a market TWAP suborder");
      }
      placeStateful(ctx, keepers, suborder, pair);
    } catch (error) {
      if (!(error instanceof Error) || error.name !== "AbciError") throw error;
      store.delete(nextTrigger);
      removeTwap(
        ctx,
        next,
        error.message.includes("ollateral") ? "undercollateralized" : "twap_suborder_failed",
      );
    }
  }
}
