import { clob } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import type { KvStore } from "../../kernel/store.js";
import { abciError } from "../../lib/errors.js";
import { deliverDeleveraging } from "./deleveraging.js";
import { CLOB_EVENTS, type ClobKeepers, Engine, orderAttributes } from "./engine.js";
import { clobErrors } from "./errors.js";
import { deliverLiquidation } from "./liquidation.js";
import {
  bookSlot,
  CLOB,
  expiryKey,
  getFillAmount,
  getOrder,
  getPair,
  keys,
  orderKey,
  recordTradePrice,
  type StoredOrder,
  setFillAmount,
  setOrder,
} from "./state.js";
import { emitOrderStream } from "./stream.js";
import { ORDER_FLAGS } from "./validate.js";

/** Decodes a short-term placement's tx and verifies its signature; answers its order. */
export type PlacementVerifier = (txBytes: Uint8Array) => clob.Order;

function invalid(detail: string): never {
  throw abciError(clobErrors.invalidMsgProposedOperations, detail);
}

/** Records a short-term order's fill amount under its order `key`, until its good-til-block passes. */
function recordShortTermFill(store: KvStore, key: string, order: clob.Order, filled: bigint): void {
  setFillAmount(store, key, filled, BigInt(order.goodTilOneof.value ?? 0));
}

/** Records a stateful order's new fill amount; a fully filled one leaves state. */
function recordStatefulFill(ctx: Context, store: KvStore, stored: StoredOrder, filled: bigint): void {
  const key = orderKey(stored.order.orderId);
  if (filled >= stored.order.quantums) {
    store.delete(keys.order(key));
    store.delete(expiryKey(stored.order, key));
    ctx.events.emitEvent(CLOB_EVENTS.cancel, [
      ...orderAttributes(stored.order),
      ["reason", "fully_filled"],
      ["remaining_quantums", "0"],
    ]);
    ctx.events.indexer({ kind: "stateful_order_removed", order: stored.order, reason: "fully_filled" });
  } else {
    setOrder(store, key, { ...stored, filled });
  }
}

const REMOVAL_REASON_NAMES: Record<number, string> = {
  [clob.OrderRemoval_RemovalReason.UNDERCOLLATERALIZED]: "undercollateralized",
  [clob.OrderRemoval_RemovalReason.INVALID_REDUCE_ONLY]: "reduce_only",
  [clob.OrderRemoval_RemovalReason.POST_ONLY_WOULD_CROSS_MAKER_ORDER]: "post_only_would_cross",
  [clob.OrderRemoval_RemovalReason.INVALID_SELF_TRADE]: "self_trade",
  [clob.OrderRemoval_RemovalReason.CONDITIONAL_IOC_WOULD_REST_ON_BOOK]: "conditional_ioc_would_rest",
  [clob.OrderRemoval_RemovalReason.FULLY_FILLED]: "fully_filled",
};

/**
 * Delivers a `MsgProposedOperations` (see the module comment). A fill whose collateral check
 * fails on the committed state (which only a devnet control operation between CheckTx and the
 * block can cause) is skipped. Liquidation and deleveraging matches are delivered by
 * `liquidation.ts` and `deleveraging.ts`.
 *
 * @throws AbciError 4000 for an operation that refers to an order the queue or state does not hold.
 */
export function deliverOperations(
  ctx: Context,
  keepers: ClobKeepers,
  msg: clob.MsgProposedOperations,
  verify: PlacementVerifier,
): void {
  const engine = new Engine(ctx, keepers);
  const store = ctx.store(CLOB);
  const placed = new Map<string, { order: clob.Order; filled: bigint }>();
  const orderOf = (
    id: clob.OrderId | undefined,
  ): { key: string; order: clob.Order; stored?: StoredOrder; filled: bigint } => {
    const key = orderKey(id);
    if ((id?.orderFlags ?? 0) === ORDER_FLAGS.shortTerm) {
      const entry = placed.get(key);
      if (entry === undefined) invalid(`short-term order ${key} was not placed in the operations queue`);
      return { key, order: entry.order, filled: entry.filled };
    }
    const stored = getOrder(store, key);
    if (stored === undefined) invalid(`stateful order ${key} does not exist`);
    return { key, order: stored.order, stored, filled: stored.filled };
  };
  // The block's traded price range of each pair, recorded once after the queue (only the end
  // block reads it): the same range as one record per fill.
  const traded = new Map<number, { min: bigint; max: bigint }>();
  for (const { operation } of msg.operationsQueue) {
    if (operation.case === "shortTermOrderPlacement") {
      const order = verify(operation.value);
      const key = orderKey(order.orderId);
      placed.set(key, { order, filled: placed.get(key)?.filled ?? getFillAmount(store, key) });
    } else if (operation.case === "match") {
      const match = operation.value.match;
      if (match.case === "matchPerpetualLiquidation") {
        deliverLiquidation(ctx, keepers, match.value, orderOf, (maker, makerFilled) => {
          const stored = getOrder(store, orderKey(maker.orderId));
          if ((maker.orderId?.orderFlags ?? 0) === ORDER_FLAGS.shortTerm || stored === undefined) {
            const key = orderKey(maker.orderId);
            placed.set(key, { order: maker, filled: makerFilled });
            recordShortTermFill(store, key, maker, makerFilled);
          } else {
            recordStatefulFill(ctx, store, stored, makerFilled);
          }
        });
        continue;
      }
      if (match.case === "matchPerpetualDeleveraging") {
        deliverDeleveraging(ctx, keepers, match.value);
        continue;
      }
      if (match.case !== "matchOrders") invalid("a match must be of orders, a liquidation or a deleveraging");
      const taker = orderOf(match.value.takerOrderId);
      const pair = getPair(store, taker.order.orderId?.clobPairId ?? 0);
      if (pair === undefined) invalid(`clob pair ${taker.order.orderId?.clobPairId} does not exist`);
      let takerFilled = taker.filled;
      for (const fill of match.value.fills) {
        const maker = orderOf(fill.makerOrderId);
        const makerFilled = maker.filled + fill.fillAmount;
        if (
          engine.settle(
            pair,
            taker.order,
            maker.order,
            fill.fillAmount,
            makerFilled,
            takerFilled + fill.fillAmount,
          ) !== "ok"
        )
          continue;
        widen(traded, pair.id, maker.order.subticks);
        takerFilled += fill.fillAmount;
        if (maker.stored === undefined) {
          placed.set(maker.key, { order: maker.order, filled: makerFilled });
          recordShortTermFill(store, maker.key, maker.order, makerFilled);
        } else {
          recordStatefulFill(ctx, store, maker.stored, makerFilled);
        }
      }
      if (taker.stored === undefined) {
        placed.set(taker.key, { order: taker.order, filled: takerFilled });
        recordShortTermFill(store, taker.key, taker.order, takerFilled);
      } else {
        recordStatefulFill(ctx, store, taker.stored, takerFilled);
      }
    } else if (operation.case === "orderRemoval") {
      const removal = operation.value;
      const key = orderKey(removal.orderId);
      const stored = getOrder(store, key);
      if (stored === undefined || (removal.orderId?.orderFlags ?? 0) === ORDER_FLAGS.shortTerm) {
        invalid(`order removal of ${key}: no such stateful order`);
      }
      removeStateful(ctx, engine, stored, REMOVAL_REASON_NAMES[removal.removalReason] ?? "unspecified");
    }
  }
  for (const [pairId, { min, max }] of traded) {
    recordTradePrice(store, pairId, min);
    if (max !== min) recordTradePrice(store, pairId, max);
  }
}

/** Widens the price range of `pairId` in `ranges` with one fill's price. */
function widen(ranges: Map<number, { min: bigint; max: bigint }>, pairId: number, subticks: bigint): void {
  const range = ranges.get(pairId);
  if (range === undefined) ranges.set(pairId, { min: subticks, max: subticks });
  else if (subticks < range.min) range.min = subticks;
  else if (subticks > range.max) range.max = subticks;
}

/**
 * Removes a stateful order from state and from the book, with its event (`order_expire` for an
 * expiry, else `order_cancel` with the reason) and, when it was in the book, its stream message.
 */
export function removeStateful(ctx: Context, engine: Engine, stored: StoredOrder, reason: string): void {
  const order = stored.order;
  const key = orderKey(order.orderId);
  const store = engine.store;
  store.delete(keys.order(key));
  store.delete(expiryKey(order, key));
  store.delete(keys.trigger(order.orderId?.clobPairId ?? 0, key));
  if (engine.book.remove(order.orderId?.clobPairId ?? 0, bookSlot(stored))) {
    emitOrderStream(store, {
      kind: "remove",
      orderId: order.orderId as clob.OrderId,
      reason: reason === "expired" ? "expired" : "user_canceled",
    });
  }
  ctx.events.emitEvent(reason === "expired" ? CLOB_EVENTS.expire : CLOB_EVENTS.cancel, [
    ...orderAttributes(order),
    ["reason", reason],
    ["remaining_quantums", (order.quantums - stored.filled).toString()],
  ]);
  ctx.events.indexer({ kind: "stateful_order_removed", order, reason });
}
