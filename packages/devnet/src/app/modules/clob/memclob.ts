/**
 * The memclob's entry points (chain-protocol.md 1.11): short-term place, cancel and batch cancel
 * as CheckTx runs them (the answer is final: placed, matched and rested, or refused with its code),
 * the stateful orders a committed block stored or triggered entering the book after it, and the
 * book rebuilt from state after a restart.
 *
 * Rules: a short-term cancel succeeds when the order is unknown or gone and leaves a tombstone until
 * its good-til-block (placing that id again before then is clob 7; a second cancel with a lower or
 * equal good-til-block is clob 9); a batch cancel naming an unknown pair is clob 27, one that
 * does counts unknown ids as succeeded and fails (46) only when none succeeds; a replacement (same order id) needs a higher good-til-block and the same
 * side, time in force and reduce-only flag, else clob 20.
 */
import { create } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import type { OrderRemovalReason } from "../../contract.js";
import type { Context, QueryContext } from "../../kernel/module.js";
import { fromUtf8 } from "../../lib/codec.js";
import { abciError, toAbciError } from "../../lib/errors.js";
import { OrderBook } from "./book.js";
import { type ClobKeepers, Engine, refOf } from "./engine.js";
import { clobErrors } from "./errors.js";
import { inBranch } from "./kv.js";
import { queueRemoval } from "./operations-queue.js";
import {
  CLOB,
  getDone,
  getOrder,
  getPair,
  goodTil,
  isShortTermOrderKey,
  keys,
  markDone,
  nextPriority,
  orderKey,
  sideOf,
} from "./state.js";
import { emitOrderStream } from "./stream.js";
import { ORDER_FLAGS, orderLabel } from "./validate.js";

/**
 * Places a short-term order that passed the stateless, pair and window checks: tombstones and
 * replacement rules, then matching (see the module comment).
 *
 * @throws AbciError 7 / 24 (spent order id), 20 (invalid replacement), and the matching errors.
 */
export function placeShortTerm(
  ctx: Context,
  keepers: ClobKeepers,
  order: clob.Order,
  pair: clob.ClobPair,
  txBytes: Uint8Array | undefined,
): void {
  const engine = new Engine(ctx, keepers);
  const store = engine.store;
  const key = orderKey(order.orderId);
  const done = getDone(store, key);
  let filled = 0n;
  if (done?.reason === "cancelled" && done.gtb >= goodTil(order)) {
    throw abciError(
      clobErrors.orderIsCanceled,
      `order ${orderLabel(order)} was cancelled with GoodTilBlock ${done.gtb}`,
    );
  }
  if (done?.reason === "filled") {
    throw abciError(clobErrors.orderFullyFilled, `order ${orderLabel(order)} is fully filled`);
  }
  if (done?.reason === "partly-filled") {
    if (order.timeInForce === clob.Order_TimeInForce.IOC) {
      throw abciError(
        clobErrors.immediateExecutionAlreadyFilled,
        `order ${orderLabel(order)} already filled ${done.filled} of ${order.quantums}`,
      );
    }
    filled = done.filled;
  }
  const existing = getOrder(store, key);
  if (existing !== undefined) {
    const old = existing.order;
    // The reference memclob's `validateReplacement` texts.
    const why =
      goodTil(order) <= goodTil(old)
        ? "New order cannot reduce the GoodTilBlock or GoodTilBlockTime of existing order"
        : order.side !== old.side
          ? "New order cannot change the Side of the existing order"
          : order.timeInForce !== old.timeInForce
            ? "New order cannot change the TimeInForce of the existing order"
            : order.reduceOnly !== old.reduceOnly
              ? "New order cannot change the ReduceOnly field of the existing order"
              : undefined;
    if (why !== undefined) throw abciError(clobErrors.invalidReplacement, why);
    filled = existing.filled;
    engine.book.remove(pair.id, {
      side: sideOf(old),
      subticks: old.subticks,
      seq: existing.seq,
      tie: existing.tie,
    });
    store.delete(keys.order(key));
    store.delete(keys.blockExpiry(goodTil(old), key));
    emitOrderStream(store, { kind: "replace", oldOrder: old, order });
  } else {
    emitOrderStream(store, { kind: "place", order });
  }
  engine.place(order, key, pair, nextPriority(store, true), filled, txBytes);
}

/**
 * Cancels a short-term order in the memclob: removes it when its good-til-block is not above the
 * cancel's, and leaves a tombstone until the cancel's good-til-block.
 *
 * @throws AbciError 9 when a cancel with a greater or equal good-til-block is already there.
 */
export function cancelShortTerm(
  ctx: Context,
  keepers: ClobKeepers,
  orderId: clob.OrderId | undefined,
  goodTilBlock: bigint,
): void {
  const engine = new Engine(ctx, keepers);
  const store = engine.store;
  const key = orderKey(orderId);
  const done = getDone(store, key);
  if (done !== undefined && done.reason === "cancelled" && done.gtb >= goodTilBlock) {
    // Unwrapped, as the reference memclob's `CancelOrder` returns it.
    throw abciError(clobErrors.memClobCancelAlreadyExists);
  }
  const existing = getOrder(store, key);
  if (existing !== undefined && goodTil(existing.order) <= goodTilBlock) {
    engine.removeFromMemclob(existing, "user_canceled");
  }
  if (done === undefined || done.gtb < goodTilBlock) markDone(store, key, goodTilBlock, "cancelled");
}

/** Cancels many short-term orders of one subaccount; unknown ids count as cancelled. */
export function batchCancelShortTerm(
  ctx: Context,
  keepers: ClobKeepers,
  msg: clob.MsgBatchCancel,
): clob.MsgBatchCancelResponse {
  // The reference keeper's `BatchCancelShortTermOrder`: every pair must exist (clob 27) before any cancel.
  const store = ctx.store(CLOB);
  for (const batch of msg.shortTermCancels) {
    if (getPair(store, batch.clobPairId) === undefined) {
      throw abciError(clobErrors.invalidClobPairParameter, `Invalid clob pair id ${batch.clobPairId}`);
    }
  }
  const succeeded: clob.OrderBatch[] = [];
  const failed: clob.OrderBatch[] = [];
  for (const batch of msg.shortTermCancels) {
    const ok: number[] = [];
    const ko: number[] = [];
    for (const clientId of batch.clientIds) {
      const orderId = create(clob.OrderIdSchema, {
        subaccountId: msg.subaccountId,
        clientId,
        orderFlags: ORDER_FLAGS.shortTerm,
        clobPairId: batch.clobPairId,
      });
      const error = inBranch(ctx, (branch) =>
        cancelShortTerm(branch, keepers, orderId, BigInt(msg.goodTilBlock)),
      );
      (error === undefined ? ok : ko).push(clientId);
    }
    if (ok.length > 0)
      succeeded.push(create(clob.OrderBatchSchema, { clobPairId: batch.clobPairId, clientIds: ok }));
    if (ko.length > 0)
      failed.push(create(clob.OrderBatchSchema, { clobPairId: batch.clobPairId, clientIds: ko }));
  }
  if (succeeded.length === 0) {
    // Go's `%+v` of the failed client ids ([]uint32): "[1 2]".
    const ids = failed.flatMap((batch) => batch.clientIds).join(" ");
    throw abciError(clobErrors.batchCancelFailed, `No successful cancellations. Failures: [${ids}]`);
  }
  return create(clob.MsgBatchCancelResponseSchema, {
    shortTermSucceeded: succeeded,
    shortTermFailed: failed,
  });
}

/** The memclob removal reason of a stateful order that cannot enter the book. */
function removalOf(error: unknown): OrderRemovalReason {
  const code = toAbciError(error).abciCode;
  if (code === clobErrors.postOnlyWouldCross.code) return "post_only_would_cross";
  if (code === clobErrors.reduceOnlyWouldIncrease.code) return "reduce_only";
  return "undercollateralized";
}

const PROPOSED: Record<string, clob.OrderRemoval_RemovalReason> = {
  post_only_would_cross: clob.OrderRemoval_RemovalReason.POST_ONLY_WOULD_CROSS_MAKER_ORDER,
  reduce_only: clob.OrderRemoval_RemovalReason.INVALID_REDUCE_ONLY,
  undercollateralized: clob.OrderRemoval_RemovalReason.UNDERCOLLATERALIZED,
};

/**
 * After a block commits (on the CheckTx state): puts the stateful orders it stored or triggered
 * into the book, matching them; their fills and removals go to the next block's operations. One
 * that cannot enter (a post-only order that would cross, a reduce-only one that would not reduce)
 * is queued for removal from state with its reason.
 */
export function placeNewStatefulOrders(ctx: Context, keepers: ClobKeepers): void {
  const store = ctx.store(CLOB);
  const fresh = [...store.entries(keys.newOrderPrefix)];
  for (const [newKey, value] of fresh) {
    store.delete(newKey);
    const key = fromUtf8(value);
    const stored = getOrder(store, key);
    if (stored === undefined) continue;
    const pair = getPair(store, stored.order.orderId?.clobPairId ?? 0);
    if (pair === undefined) continue;
    emitOrderStream(store, { kind: "place", order: stored.order });
    const error = inBranch(ctx, (branch) => {
      const priority = { seq: stored.seq, tie: 0n };
      new Engine(branch, keepers).place(stored.order, key, pair, priority, stored.filled);
    });
    if (error !== undefined) {
      const reason = removalOf(error);
      queueRemoval(store, stored.order.orderId, PROPOSED[reason] as clob.OrderRemoval_RemovalReason);
      emitOrderStream(store, { kind: "remove", orderId: stored.order.orderId as clob.OrderId, reason });
    }
  }
}

/** Rebuilds the book from the stateful orders in state (after a restart; short-term orders are gone). */
export function rebuildBook(ctx: QueryContext): void {
  const store = ctx.store(CLOB);
  const book = new OrderBook(store);
  for (const [storeKey] of [...store.entries(keys.orderPrefix)]) {
    const key = storeKey.slice(keys.orderPrefix.length);
    if (isShortTermOrderKey(key)) continue;
    const stored = getOrder(store, key);
    if (stored === undefined) continue;
    const order = stored.order;
    if (order.orderId?.orderFlags === ORDER_FLAGS.conditional && !stored.triggered) continue;
    const ref = refOf(order);
    book.insert(order.orderId?.clobPairId ?? 0, {
      key,
      side: sideOf(order),
      subticks: order.subticks,
      seq: stored.seq,
      tie: stored.tie,
      remaining: order.quantums - stored.filled,
      owner: ref.owner,
      number: ref.number,
    });
  }
}
