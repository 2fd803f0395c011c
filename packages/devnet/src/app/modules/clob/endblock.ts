/**
 * The clob's end of block: expiry of short-term orders and tombstones (good-til-block passed) and
 * stateful orders (good-til-block-time passed), conditional order triggers from the oracle price, funding
 * (a premium sample per block, paid every {@link FUNDING_INTERVAL_MS} of block time), and the
 * bookkeeping of the previous block's time and the rate-limit counters.
 */
import { clob } from "@perpx/proto";
import { BinaryReader, BinaryWriter, decodeU64, encodeU64, utf8 } from "../../codec.js";
import type { Context } from "../../module.js";
import { OrderBook } from "./book.js";
import { CLOB_EVENTS, type ClobKeepers, Engine, orderAttributes } from "./engine.js";
import { removeStateful } from "./operations.js";
import {
  allPairs,
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

/** Funding is paid once per hour of block time. */
export const FUNDING_INTERVAL_MS = 3_600_000n;
/** Funding rates are 8-hour rates. */
const FUNDING_RATE_PERIOD_MS = 8n * 3_600_000n;
/** A premium sample is clamped to ±1% (ppm). */
const MAX_PREMIUM_PPM = 10_000n;

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

/** A perpetual's premium record: the sum of its samples and the blocks it missed (no oracle price). */
function readPremium(bytes: Uint8Array | undefined): { sum: bigint; missed: bigint } {
  if (bytes === undefined) return { sum: 0n, missed: 0n };
  const r = new BinaryReader(bytes);
  return { sum: r.svarint(), missed: r.uvarint() };
}

/** A premium sample in ppm: the book's mid against the oracle, clamped to ±1% (0 on a one-sided book). */
function premiumPpm(book: OrderBook, pairId: number, oracle: bigint): bigint {
  const bid = book.best(pairId, "buy");
  const ask = bid === undefined ? undefined : book.best(pairId, "sell");
  if (bid === undefined || ask === undefined) return 0n;
  const premium = (((bid.subticks + ask.subticks) / 2n - oracle) * 1_000_000n) / oracle;
  return premium > MAX_PREMIUM_PPM
    ? MAX_PREMIUM_PPM
    : premium < -MAX_PREMIUM_PPM
      ? -MAX_PREMIUM_PPM
      : premium;
}

/**
 * Samples every perpetual's premium (one sample per block) and, once {@link FUNDING_INTERVAL_MS} of
 * block time has passed, pays funding at the mean premium plus the perpetual's default rate.
 *
 * The work per block stays small with hundreds of markets: the number of sampled blocks is one
 * counter for all perpetuals, and a perpetual's record is written only when its sample changes it
 * (a non-zero premium, or a block without an oracle price); most books are empty or one-sided.
 */
function funding(ctx: Context, keepers: ClobKeepers): void {
  const store = ctx.store(CLOB);
  const book = new OrderBook(store);
  const last = store.get(keys.fundingLast);
  const lastMs = last === undefined ? ctx.block.timeMs : decodeU64(last);
  const pay = ctx.block.timeMs - lastMs >= FUNDING_INTERVAL_MS;
  const counted = store.get(keys.fundingBlocks);
  const blocks = (counted === undefined ? 0n : decodeU64(counted)) + 1n;
  for (const pair of allPairs(store)) {
    if (pair.metadata.case !== "perpetualClobMetadata") continue;
    const perpetualId = pair.metadata.value.perpetualId;
    const premiumKey = keys.fundingPremium(perpetualId);
    const stored = store.get(premiumKey);
    const before = readPremium(stored);
    const oracle = oracleSubticks(ctx, keepers, pair);
    if (oracle === undefined || oracle === 0n) {
      if (pay) {
        if (stored !== undefined) store.delete(premiumKey);
      } else {
        store.set(
          premiumKey,
          new BinaryWriter(24)
            .svarint(before.sum)
            .uvarint(before.missed + 1n)
            .finish(),
        );
      }
      continue;
    }
    const sum = before.sum + premiumPpm(book, pair.id, oracle);
    const samples = blocks - before.missed;
    if (!pay) {
      if (sum !== before.sum) {
        store.set(premiumKey, new BinaryWriter(24).svarint(sum).uvarint(before.missed).finish());
      }
      // The predicted rate goes to the indexer when it changes (and at the start of each hour): a
      // book that stays empty or one-sided keeps the default rate, and costs nothing per block.
      const previous = samples - 1n;
      if (blocks === 1n || previous <= 0n || sum / samples !== before.sum / previous) {
        const current = keepers.perpetuals.perpetual(ctx, perpetualId);
        ctx.events.indexer({
          kind: "funding",
          phase: "sample",
          perpetualId,
          ratePpm: sum / samples + BigInt(current.params.defaultFundingPpm),
          oracleSubticks: oracle,
          fundingIndex: current.fundingIndex,
        });
      }
      continue;
    }
    if (stored !== undefined) store.delete(premiumKey);
    const perpetual = keepers.perpetuals.perpetual(ctx, perpetualId);
    const ratePpm = sum / samples + BigInt(perpetual.params.defaultFundingPpm);
    const elapsed = ctx.block.timeMs - lastMs;
    // 1e-6 quote quantums per base quantum: rate × price (quote quantums per base quantum) × 1e6 / 1e6.
    let delta = ratePpm * oracle * elapsed;
    const qce = pair.quantumConversionExponent;
    delta = qce >= 0 ? delta * 10n ** BigInt(qce) : delta / 10n ** BigInt(-qce);
    delta /= FUNDING_RATE_PERIOD_MS;
    keepers.perpetuals.addFundingIndex(ctx, perpetualId, delta);
    ctx.events.indexer({
      kind: "funding",
      phase: "payment",
      perpetualId,
      ratePpm,
      oracleSubticks: oracle,
      fundingIndex: perpetual.fundingIndex + delta,
    });
    ctx.events.emitEvent(CLOB_EVENTS.funding, [
      ["perpetual_id", String(perpetualId)],
      ["clob_pair_id", String(pair.id)],
      ["funding_rate_ppm", ratePpm.toString()],
      ["premium_samples", samples.toString()],
      ["oracle_subticks", oracle.toString()],
      ["funding_index_delta", delta.toString()],
    ]);
  }
  if (pay) {
    store.set(keys.fundingLast, encodeU64(ctx.block.timeMs));
    if (counted !== undefined) store.delete(keys.fundingBlocks);
  } else {
    store.set(keys.fundingBlocks, encodeU64(blocks));
  }
}

/** The clob's end-block work (see the module comment). */
export function endBlock(ctx: Context, keepers: ClobKeepers): void {
  expire(ctx, keepers);
  triggerConditionals(ctx, keepers);
  pruneFillAmounts(ctx);
  for (const [key] of [...ctx.store(CLOB).entries(keys.tradePricesPrefix)]) ctx.store(CLOB).delete(key);
  funding(ctx, keepers);
  ctx.store(CLOB).set(keys.lastTime, encodeU64(ctx.block.timeMs));
}
