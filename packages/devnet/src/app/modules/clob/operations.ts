/**
 * The proposer's operations queue (chain-protocol.md 1.11, point 3). The memclob appends to it as
 * it matches and removes orders (memclob keys `ops/<n>`, so a failed CheckTx leaves nothing);
 * {@link takeOperations} empties it into the `MsgProposedOperations` at the head of the next block,
 * and {@link deliverOperations} is that message's delivery: the short-term placements' signatures
 * are verified again, every fill is settled on the committed subaccounts with its fees and event,
 * fill amounts are recorded (a short-term order's until its good-til-block passes; a fully filled
 * stateful order leaves state), and the stateful
 * orders the proposer removed leave state with their reason.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import { decodeU64, encodeU64 } from "../../codec.js";
import { abciError } from "../../errors.js";
import type { Context } from "../../module.js";
import type { KvStore } from "../../store.js";
import { CLOB_EVENTS, type ClobKeepers, Engine, orderAttributes } from "./engine.js";
import { clobErrors } from "./errors.js";
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

function append(store: KvStore, operation: clob.OperationRaw["operation"]): void {
  const counter = store.get(keys.operationCounter);
  const n = counter === undefined ? 0n : decodeU64(counter);
  store.set(keys.operationCounter, encodeU64(n + 1n));
  store.set(
    keys.operation(n),
    toBinary(clob.OperationRawSchema, create(clob.OperationRawSchema, { operation })),
  );
}

/** Queues a short-term order's signed placement, once per block (a match needs it before). */
export function queuePlacement(store: KvStore, key: string, txBytes: Uint8Array | undefined): void {
  if (txBytes === undefined || store.has(keys.queuedPlacement(key))) return;
  store.set(keys.queuedPlacement(key), new Uint8Array(0));
  append(store, { case: "shortTermOrderPlacement", value: txBytes });
}

/** Queues a match of a taker against makers. */
export function queueMatch(
  store: KvStore,
  takerOrderId: clob.OrderId,
  fills: ReadonlyArray<{ makerId: clob.OrderId; quantums: bigint }>,
): void {
  append(store, {
    case: "match",
    value: create(clob.ClobMatchSchema, {
      match: {
        case: "matchOrders",
        value: create(clob.MatchOrdersSchema, {
          takerOrderId,
          fills: fills.map((f) =>
            create(clob.MakerFillSchema, { makerOrderId: f.makerId, fillAmount: f.quantums }),
          ),
        }),
      },
    }),
  });
}

/** Queues the removal of a stateful order from state. */
export function queueRemoval(
  store: KvStore,
  orderId: clob.OrderId | undefined,
  reason: clob.OrderRemoval_RemovalReason,
): void {
  append(store, {
    case: "orderRemoval",
    value: create(clob.OrderRemovalSchema, { orderId, removalReason: reason }),
  });
}

/** Empties the queue into the message the next block starts with. */
export function takeOperations(store: KvStore): clob.MsgProposedOperations {
  const taken = [...store.entries(keys.operationsPrefix)];
  for (const [key] of taken) store.delete(key);
  for (const [key] of [...store.entries(keys.queuedPlacementPrefix)]) store.delete(key);
  store.delete(keys.operationCounter);
  return create(clob.MsgProposedOperationsSchema, {
    operationsQueue: taken.map(([, value]) => fromBinary(clob.OperationRawSchema, value)),
  });
}

/** Decodes a short-term placement's tx and verifies its signature; answers its order. */
export type PlacementVerifier = (txBytes: Uint8Array) => clob.Order;

function invalid(detail: string): never {
  throw abciError(clobErrors.invalidMsgProposedOperations, detail);
}

/** Records a short-term order's fill amount in state, until its good-til-block passes. */
function recordShortTermFill(store: KvStore, order: clob.Order, filled: bigint): void {
  setFillAmount(store, orderKey(order.orderId), filled, BigInt(order.goodTilOneof.value ?? 0));
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
 * block can cause) is skipped.
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
  ): { order: clob.Order; stored?: StoredOrder; filled: bigint } => {
    const key = orderKey(id);
    if ((id?.orderFlags ?? 0) === ORDER_FLAGS.shortTerm) {
      const entry = placed.get(key);
      if (entry === undefined) invalid(`short-term order ${key} was not placed in the operations queue`);
      return entry;
    }
    const stored = getOrder(store, key);
    if (stored === undefined) invalid(`stateful order ${key} does not exist`);
    return { order: stored.order, stored, filled: stored.filled };
  };
  for (const { operation } of msg.operationsQueue) {
    if (operation.case === "shortTermOrderPlacement") {
      const order = verify(operation.value);
      const key = orderKey(order.orderId);
      placed.set(key, { order, filled: placed.get(key)?.filled ?? getFillAmount(store, key) });
    } else if (operation.case === "match") {
      const match = operation.value.match;
      if (match.case !== "matchOrders") invalid("only order matches are supported");
      const taker = orderOf(match.value.takerOrderId);
      const pair = getPair(store, taker.order.orderId?.clobPairId ?? 0);
      if (pair === undefined) invalid(`clob pair ${taker.order.orderId?.clobPairId} does not exist`);
      let takerFilled = taker.filled;
      for (const fill of match.value.fills) {
        const maker = orderOf(fill.makerOrderId);
        const makerFilled = maker.filled + fill.fillAmount;
        if (engine.settle(pair, taker.order, maker.order, fill.fillAmount, makerFilled) !== "ok") continue;
        recordTradePrice(store, pair.id, maker.order.subticks);
        takerFilled += fill.fillAmount;
        if (maker.stored === undefined) {
          placed.set(orderKey(maker.order.orderId), { order: maker.order, filled: makerFilled });
          recordShortTermFill(store, maker.order, makerFilled);
        } else {
          recordStatefulFill(ctx, store, maker.stored, makerFilled);
        }
      }
      if (taker.stored === undefined) {
        placed.set(orderKey(taker.order.orderId), { order: taker.order, filled: takerFilled });
        recordShortTermFill(store, taker.order, takerFilled);
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
}
