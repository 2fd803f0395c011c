/**
 * Stateful orders (long-term 64, conditional 32) in state (chain-protocol.md 1.11): CheckTx and
 * DeliverTx check them fully (an existing order id is clob 3005, never a replacement; the equity
 * tier 10001; collateral at full size and the order's price with the maker fee 3007), then store
 * them with a stateful-order event and no fills. A long-term order stored by a block enters the
 * book after that block commits (`memclob.ts`); a conditional one waits for its trigger.
 */
import { clob } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import { utf8 } from "../../lib/codec.js";
import { abciError } from "../../lib/errors.js";
import { CLOB_EVENTS, type ClobKeepers, Engine, orderAttributes, refOf } from "./engine.js";
import { clobErrors } from "./errors.js";
import { checkEquityTier } from "./limits.js";
import { removeStateful } from "./operations.js";
import {
  expiryKey,
  getOrder,
  goodTil,
  isShortTermOrderKey,
  keys,
  nextPriority,
  orderKey,
  setOrder,
  sideOf,
} from "./state.js";
import { goOrderId, ORDER_FLAGS, orderLabel } from "./validate.js";

/**
 * Checks and stores a stateful order that passed the stateless, pair and window checks.
 *
 * @throws AbciError 3005, 10001 or 3007 (see the module comment).
 */
export function placeStateful(
  ctx: Context,
  keepers: ClobKeepers,
  order: clob.Order,
  pair: clob.ClobPair,
): void {
  const engine = new Engine(ctx, keepers);
  const store = engine.store;
  const key = orderKey(order.orderId);
  if (getOrder(store, key) !== undefined) {
    throw abciError(clobErrors.statefulOrderExists, `order ${orderLabel(order)} already exists`);
  }
  const ref = refOf(order);
  let open = 0;
  for (const [storeKey] of store.entries(keys.subaccountOrders(ref.owner, ref.number))) {
    if (!isShortTermOrderKey(storeKey.slice(keys.orderPrefix.length))) open++;
  }
  checkEquityTier(store, keepers.subaccounts.netCollateral(ctx, ref), open);
  keepers.revshare.routerShare(ctx, order.orderRouterAddress);
  engine.checkStatefulCollateral(order, pair);
  const priority = nextPriority(store, false);
  const conditional = order.orderId?.orderFlags === ORDER_FLAGS.conditional;
  setOrder(store, key, {
    order,
    ...priority,
    height: ctx.block.height,
    txIndex: 0,
    filled: 0n,
    triggered: false,
  });
  store.set(expiryKey(order, key), new Uint8Array(0));
  if (conditional) store.set(keys.trigger(pair.id, key), new Uint8Array(0));
  else if (ctx.mode === "deliver") store.set(keys.newOrder(priority.seq), utf8(key));
  ctx.events.indexer({ kind: "stateful_order_placed", order });
  ctx.events.emitEvent(CLOB_EVENTS.place, [
    ...orderAttributes(order),
    ["side", sideOf(order)],
    ["quantums", order.quantums.toString()],
    ["subticks", order.subticks.toString()],
    ["time_in_force", clob.Order_TimeInForce[order.timeInForce] ?? String(order.timeInForce)],
    ["reduce_only", String(order.reduceOnly)],
    ["good_til", goodTil(order).toString()],
    ...(conditional
      ? ([
          ["condition_type", clob.Order_ConditionType[order.conditionType] ?? ""],
          ["trigger_subticks", order.conditionalOrderTriggerSubticks.toString()],
        ] as [string, string][])
      : []),
  ]);
}

/**
 * Cancels a stateful order: CheckTx only takes it out of its pending state (a second cancel is
 * 3006 there too); delivery removes it from state and from the book.
 *
 * @throws AbciError 3006 when there is no such order.
 */
export function cancelStateful(ctx: Context, keepers: ClobKeepers, orderId: clob.OrderId | undefined): void {
  const engine = new Engine(ctx, keepers);
  const key = orderKey(orderId);
  const stored = getOrder(engine.store, key);
  if (stored === undefined) {
    throw abciError(
      clobErrors.statefulOrderDoesNotExist,
      `Order Id to cancel does not exist. OrderId : ${goOrderId(orderId)}`,
    );
  }
  if (ctx.mode === "deliver") removeStateful(ctx, engine, stored, "user_canceled");
  else engine.store.delete(keys.order(key));
}
