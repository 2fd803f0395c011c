/**
 * The clob's end of block: expiry of short-term orders and tombstones (good-til-block passed) and
 * stateful orders (good-til-block-time passed), the TWAP suborders due (`twap.ts`), conditional order triggers from the oracle price
 * and the block's clamped traded prices, and the bookkeeping of the previous block's time and the
 * rate-limit counters. (Funding runs in `perpetuals` on epochs: `funding.ts`, `funding-book.ts`.)
 */
import { clob } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import { encodeU64, utf8 } from "../../lib/codec.js";
import { CLOB_EVENTS, type ClobKeepers, Engine, orderAttributes } from "./engine.js";
import { removeStateful } from "./operations.js";
import {
  CLOB,
  getDone,
  getOrder,
  getPair,
  goodTil,
  keys,
  orderKeyAfter,
  setOrder,
  tradePrices,
} from "./state.js";
import { placeDueSuborders } from "./twap.js";

/** The oracle price of a clob pair's perpetual, in subticks (undefined when it has none). */
export function oracleSubticks(ctx: Context, keepers: ClobKeepers, pair: clob.ClobPair): bigint | undefined {
  if (pair.metadata.case !== "perpetualClobMetadata") return undefined;
  const params = keepers.perpetuals.findParams(ctx, pair.metadata.value.perpetualId);
  if (params === undefined) return undefined;
  const price = keepers.prices.marketPrice(ctx, params.marketId);
  if (price === undefined || price.price === 0n) return undefined;
  const exponent = price.exponent - pair.quantumConversionExponent + params.atomicResolution + 6;
  return exponent >= 0 ? price.price * 10n ** BigInt(exponent) : price.price / 10n ** BigInt(-exponent);
}

/** Whether a conditional order's trigger fires at an oracle price (chain-protocol.md 1.2). */
export function triggers(order: clob.Order, oracle: bigint): boolean {
  const trigger = order.conditionalOrderTriggerSubticks;
  const buy = order.side === clob.Order_Side.BUY;
  const stopLoss = order.conditionType === clob.Order_ConditionType.STOP_LOSS;
  const atOrAbove = oracle >= trigger;
  const atOrBelow = oracle <= trigger;
  return stopLoss === buy ? atOrAbove : atOrBelow;
}

function expire(ctx: Context, keepers: ClobKeepers): void {
  const engine = new Engine(ctx, keepers);
  const store = engine.store;
  const height = ctx.block.height;
  for (const [storeKey] of [
    ...store.entries(keys.blockExpiryPrefix, { end: keys.blockExpiryEnd(height + 1n) }),
  ]) {
    const key = orderKeyAfter(storeKey, 3);
    store.delete(storeKey);
    const gtb = BigInt(storeKey.split("/")[2] as string);
    const stored = getOrder(store, key);
    if (stored !== undefined && goodTil(stored.order) === gtb) engine.removeFromMemclob(stored, "expired");
    const done = getDone(store, key);
    if (done !== undefined && done.gtb <= gtb) store.delete(keys.done(key));
  }
  const seconds = ctx.block.timeMs / 1000n;
  for (const [storeKey] of [...store.entries(keys.timeExpiryPrefix, { end: keys.timeExpiryEnd(seconds) })]) {
    const key = orderKeyAfter(storeKey, 3);
    store.delete(storeKey);
    const stored = getOrder(store, key);
    if (stored !== undefined && goodTil(stored.order) < seconds) {
      removeStateful(ctx, engine, stored, "expired");
    }
  }
}

/** Drops the recorded fill amounts of short-term orders whose good-til-block has passed. */
function pruneFillAmounts(ctx: Context): void {
  const store = ctx.store(CLOB);
  const end = keys.fillPruneEnd(ctx.block.height);
  for (const [storeKey] of [...store.entries(keys.fillPrunePrefix, { end })]) {
    store.delete(storeKey);
    store.delete(keys.fillAmount(orderKeyAfter(storeKey, 2)));
  }
}

/** Bounds of a traded price for triggers: the oracle ± min price change × this multiplier. */
const CONDITIONAL_ORDER_TRIGGER_MULTIPLIER = 5n;

/**
 * The prices a pair's conditional orders may trigger at in this block: the oracle price, then the
 * block's lowest and highest traded prices clamped to the oracle ± the market's min price change
 * (ppm) × {@link CONDITIONAL_ORDER_TRIGGER_MULTIPLIER}, as the reference chain does. Empty without
 * an oracle price.
 */
function triggerPrices(ctx: Context, keepers: ClobKeepers, pair: clob.ClobPair): bigint[] {
  const oracle = oracleSubticks(ctx, keepers, pair);
  if (oracle === undefined) return [];
  const traded = tradePrices(ctx.store(CLOB), pair.id);
  if (traded === undefined || pair.metadata.case !== "perpetualClobMetadata") return [oracle];
  const perpetual = keepers.perpetuals.perpetual(ctx, pair.metadata.value.perpetualId);
  const ppm = BigInt(keepers.prices.marketParam(ctx, perpetual.params.marketId)?.minPriceChangePpm ?? 0);
  const range = (oracle * ppm * CONDITIONAL_ORDER_TRIGGER_MULTIPLIER) / 1_000_000n;
  const clamp = (price: bigint) =>
    price < oracle - range ? oracle - range : price > oracle + range ? oracle + range : price;
  return [oracle, ...traded.map(clamp)];
}

/**
 * Conditional orders whose trigger fires at the oracle price or at the block's clamped traded
 * prices: marked triggered (with an event), they enter the book after this block commits, so their
 * fills land in the next block.
 */
function triggerConditionals(ctx: Context, keepers: ClobKeepers): void {
  const store = ctx.store(CLOB);
  const prices = new Map<number, bigint[]>();
  for (const [storeKey] of [...store.entries(keys.triggerPrefix)]) {
    const pairId = Number(storeKey.split("/")[1]);
    const key = orderKeyAfter(storeKey, 2);
    const stored = getOrder(store, key);
    const pair = getPair(store, pairId);
    if (stored === undefined || pair === undefined) {
      store.delete(storeKey);
      continue;
    }
    if (!prices.has(pairId)) prices.set(pairId, triggerPrices(ctx, keepers, pair));
    const candidates = prices.get(pairId) ?? [];
    const oracle = candidates[0];
    if (oracle === undefined || !candidates.some((price) => triggers(stored.order, price))) continue;
    store.delete(storeKey);
    setOrder(store, key, { ...stored, triggered: true });
    store.set(keys.newOrder(stored.seq), utf8(key));
    ctx.events.indexer({ kind: "conditional_order_triggered", order: stored.order });
    ctx.events.emitEvent(CLOB_EVENTS.trigger, [
      ...orderAttributes(stored.order),
      ["trigger_subticks", stored.order.conditionalOrderTriggerSubticks.toString()],
      ["oracle_subticks", oracle.toString()],
    ]);
  }
}

/** The clob's end-block work (see the module comment). */
export function endBlock(ctx: Context, keepers: ClobKeepers): void {
  expire(ctx, keepers);
  placeDueSuborders(ctx, keepers);
  triggerConditionals(ctx, keepers);
  pruneFillAmounts(ctx);
  for (const [key] of [...ctx.store(CLOB).entries(keys.tradePricesPrefix)]) ctx.store(CLOB).delete(key);
  ctx.store(CLOB).set(keys.lastTime, encodeU64(ctx.block.timeMs));
}
