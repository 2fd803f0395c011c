/**
 * The clob's end of block: expiry of short-term orders (good-til-block passed) and stateful
 * orders (good-til-block-time passed), conditional order triggers from the oracle price, funding
 * (a premium sample per block, paid every {@link FUNDING_INTERVAL_MS} of block time), and the
 * bookkeeping of the previous block's time and the rate-limit counters.
 */
import { clob } from "@perpx/proto";
import { BinaryReader, BinaryWriter, decodeU64, encodeU64 } from "../../codec.js";
import type { Context } from "../../module.js";
import { padKey } from "../records.js";
import { OrderBook } from "./book.js";
import { CLOB_EVENTS, type ClobKeepers, Engine, orderAttributes } from "./engine.js";
import { inBranch } from "./kv.js";
import { pruneRateLimits } from "./limits.js";
import { allPairs, bookSlot, CLOB, getOrder, getPair, goodTil, nextPriority } from "./state.js";

/** Funding is paid once per hour of block time. */
export const FUNDING_INTERVAL_MS = 3_600_000n;
/** Funding rates are 8-hour rates. */
const FUNDING_RATE_PERIOD_MS = 8n * 3_600_000n;
/** A premium sample is clamped to ±1% (ppm). */
const MAX_PREMIUM_PPM = 10_000n;

/** The oracle price of a clob pair's perpetual, in subticks (undefined when it has none). */
export function oracleSubticks(ctx: Context, keepers: ClobKeepers, pair: clob.ClobPair): bigint | undefined {
  if (pair.metadata.case !== "perpetualClobMetadata") return undefined;
  try {
    const perpetual = keepers.perpetuals.perpetual(ctx, pair.metadata.value.perpetualId);
    const price = keepers.prices.oraclePrice(ctx, perpetual.params.marketId);
    const exponent = price.exponent - pair.quantumConversionExponent + perpetual.params.atomicResolution + 6;
    return exponent >= 0 ? price.price * 10n ** BigInt(exponent) : price.price / 10n ** BigInt(-exponent);
  } catch {
    return undefined;
  }
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
  for (const [key] of store.entries("exp/b/", { end: `exp/b/${padKey(height + 1n, 20)}` })) {
    const orderKey = key.split("/").slice(3).join("/");
    store.delete(key);
    const gtb = BigInt(key.split("/")[2] as string);
    const stored = getOrder(store, orderKey);
    if (stored !== undefined && goodTil(stored.order) === gtb) {
      const order = stored.order;
      engine.book.remove(order.orderId?.clobPairId ?? 0, bookSlot(stored));
      store.delete(`order/${orderKey}`);
      ctx.events.emitEvent(CLOB_EVENTS.expire, [
        ...orderAttributes(order),
        ["reason", "expired"],
        ["remaining_quantums", (order.quantums - stored.filled).toString()],
      ]);
    }
    const done = store.get(`done/${orderKey}`);
    if (done !== undefined && new BinaryReader(done).uvarint() <= gtb) store.delete(`done/${orderKey}`);
  }
  const seconds = ctx.block.timeMs / 1000n;
  for (const [key] of store.entries("exp/t/", { end: `exp/t/${padKey(seconds, 20)}` })) {
    const orderKey = key.split("/").slice(3).join("/");
    store.delete(key);
    const stored = getOrder(store, orderKey);
    if (stored !== undefined && goodTil(stored.order) < seconds) {
      const order = stored.order;
      engine.book.remove(order.orderId?.clobPairId ?? 0, bookSlot(stored));
      store.delete(`order/${orderKey}`);
      store.delete(`trig/${padKey(order.orderId?.clobPairId ?? 0, 10)}/${orderKey}`);
      ctx.events.emitEvent(CLOB_EVENTS.expire, [
        ...orderAttributes(order),
        ["reason", "expired"],
        ["remaining_quantums", (order.quantums - stored.filled).toString()],
      ]);
    }
  }
}

function triggerConditionals(ctx: Context, keepers: ClobKeepers): void {
  const store = ctx.store(CLOB);
  const oracles = new Map<number, bigint | undefined>();
  for (const [key] of store.entries("trig/")) {
    const parts = key.split("/");
    const pairId = Number(parts[1]);
    const orderKey = parts.slice(2).join("/");
    const stored = getOrder(store, orderKey);
    const pair = getPair(store, pairId);
    if (stored === undefined || pair === undefined) {
      store.delete(key);
      continue;
    }
    if (!oracles.has(pairId)) oracles.set(pairId, oracleSubticks(ctx, keepers, pair));
    const oracle = oracles.get(pairId);
    if (oracle === undefined || !triggers(stored.order, oracle)) continue;
    store.delete(key);
    ctx.events.emitEvent(CLOB_EVENTS.trigger, [
      ...orderAttributes(stored.order),
      ["trigger_subticks", stored.order.conditionalOrderTriggerSubticks.toString()],
      ["oracle_subticks", oracle.toString()],
    ]);
    const error = inBranch(ctx, (branch) => {
      const engine = new Engine(branch, keepers);
      engine.book.remove(pairId, bookSlot(stored));
      engine.place(stored.order, pair, { txIndex: 0 }, stored.filled, nextPriority(engine.store, false));
    });
    if (error !== undefined) {
      const engine = new Engine(ctx, keepers);
      engine.removeOrder(
        stored,
        CLOB_EVENTS.cancel,
        `trigger_placement_failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

function readSample(bytes: Uint8Array | undefined): { sum: bigint; count: bigint } {
  if (bytes === undefined) return { sum: 0n, count: 0n };
  const r = new BinaryReader(bytes);
  return { sum: r.svarint(), count: r.uvarint() };
}

function funding(ctx: Context, keepers: ClobKeepers): void {
  const store = ctx.store(CLOB);
  const book = new OrderBook(store);
  const last = store.get("funding/last");
  const lastMs = last === undefined ? ctx.block.timeMs : decodeU64(last);
  const pay = ctx.block.timeMs - lastMs >= FUNDING_INTERVAL_MS;
  for (const pair of allPairs(store)) {
    if (pair.metadata.case !== "perpetualClobMetadata") continue;
    const perpetualId = pair.metadata.value.perpetualId;
    const oracle = oracleSubticks(ctx, keepers, pair);
    if (oracle === undefined || oracle === 0n) continue;
    const bid = book.best(pair.id, "buy");
    const ask = book.best(pair.id, "sell");
    let premium = 0n;
    if (bid !== undefined && ask !== undefined) {
      const mid = (bid.subticks + ask.subticks) / 2n;
      premium = ((mid - oracle) * 1_000_000n) / oracle;
      if (premium > MAX_PREMIUM_PPM) premium = MAX_PREMIUM_PPM;
      if (premium < -MAX_PREMIUM_PPM) premium = -MAX_PREMIUM_PPM;
    }
    const sampleKey = `funding/sample/${padKey(perpetualId, 10)}`;
    const sample = readSample(store.get(sampleKey));
    const next = { sum: sample.sum + premium, count: sample.count + 1n };
    if (!pay) {
      store.set(sampleKey, new BinaryWriter(24).svarint(next.sum).uvarint(next.count).finish());
      continue;
    }
    store.delete(sampleKey);
    const perpetual = keepers.perpetuals.perpetual(ctx, perpetualId);
    const ratePpm = next.sum / next.count + BigInt(perpetual.params.defaultFundingPpm);
    const elapsed = ctx.block.timeMs - lastMs;
    // 1e-6 quote quantums per base quantum: rate × price (quote quantums per base quantum) × 1e6 / 1e6.
    let delta = ratePpm * oracle * elapsed;
    const qce = pair.quantumConversionExponent;
    delta = qce >= 0 ? delta * 10n ** BigInt(qce) : delta / 10n ** BigInt(-qce);
    delta /= FUNDING_RATE_PERIOD_MS;
    keepers.perpetuals.addFundingIndex(ctx, perpetualId, delta);
    ctx.events.emitEvent(CLOB_EVENTS.funding, [
      ["perpetual_id", String(perpetualId)],
      ["clob_pair_id", String(pair.id)],
      ["funding_rate_ppm", ratePpm.toString()],
      ["premium_samples", next.count.toString()],
      ["oracle_subticks", oracle.toString()],
      ["funding_index_delta", delta.toString()],
    ]);
  }
  if (pay) store.set("funding/last", encodeU64(ctx.block.timeMs));
}

/** The clob's end-block work (see the module comment). */
export function endBlock(ctx: Context, keepers: ClobKeepers): void {
  expire(ctx, keepers);
  triggerConditionals(ctx, keepers);
  funding(ctx, keepers);
  pruneRateLimits(ctx.store(CLOB), ctx.block.height);
  ctx.store(CLOB).set("last_time", encodeU64(ctx.block.timeMs));
}
