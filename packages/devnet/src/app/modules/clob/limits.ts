/**
 * Block rate limits (`BlockRateLimitConfiguration`, per account, every limit applied: clob 5001)
 * and equity tier limits on open stateful orders (clob 10001).
 */
import { fromBinary } from "@bufbuild/protobuf";
import { clob, decodeSerializableInt } from "@perpx/proto";
import { decodeU64, encodeU64 } from "../../codec.js";
import { abciError } from "../../errors.js";
import { fromBinaryCached } from "../../proto-cache.js";
import type { KvStore } from "../../store.js";
import { clobErrors } from "./errors.js";
import { keys } from "./state.js";

/** What a rate limit counts. */
export type RateKind = "short" | "stateful" | "leverage";

/** Counters older than this many blocks are pruned (the largest `num_blocks` allowed). */
export const RATE_LIMIT_HISTORY = 10_000n;

/** The rate-limit configuration in the store (empty when absent). */
export function rateLimitConfig(store: KvStore): clob.BlockRateLimitConfiguration {
  const bytes = store.get(keys.blockRateLimitConfig);
  return fromBinaryCached(clob.BlockRateLimitConfigurationSchema, bytes ?? new Uint8Array(0));
}

function limitsOf(config: clob.BlockRateLimitConfiguration, kind: RateKind): clob.MaxPerNBlocksRateLimit[] {
  if (kind === "short") {
    return [
      ...config.maxShortTermOrdersAndCancelsPerNBlocks,
      ...config.maxShortTermOrdersPerNBlocks,
      ...config.maxShortTermOrderCancellationsPerNBlocks,
    ];
  }
  return kind === "stateful" ? config.maxStatefulOrdersPerNBlocks : config.maxLeverageUpdatesPerNBlocks;
}

function counterKey(height: bigint, kind: RateKind, address: string): string {
  return keys.rateLimit(height, kind, address);
}

/**
 * Counts one more `kind` operation of `address` in block `height` and throws clob 5001 when any
 * limit (at most `limit` in the last `num_blocks` blocks, this one included) would be exceeded.
 */
export function consumeRateLimit(store: KvStore, kind: RateKind, address: string, height: bigint): void {
  const limits = limitsOf(rateLimitConfig(store), kind);
  const counts = new Map<bigint, bigint>();
  const countAt = (h: bigint): bigint => {
    let c = counts.get(h);
    if (c === undefined) {
      const bytes = store.get(counterKey(h, kind, address));
      c = bytes === undefined ? 0n : decodeU64(bytes);
      counts.set(h, c);
    }
    return c;
  };
  for (const limit of limits) {
    let total = 1n;
    for (let h = height; h > height - BigInt(limit.numBlocks) && h > 0n; h--) total += countAt(h);
    if (total > BigInt(limit.limit)) {
      throw abciError(
        clobErrors.blockRateLimitExceeded,
        `${kind === "short" ? "short-term orders and cancels" : kind === "stateful" ? "stateful orders" : "leverage updates"} of ${address}: more than ${limit.limit} per ${limit.numBlocks} blocks`,
      );
    }
  }
  store.set(counterKey(height, kind, address), encodeU64(countAt(height) + 1n));
}

/** Deletes counters older than the rate-limit history. */
export function pruneRateLimits(store: KvStore, height: bigint): void {
  if (height <= RATE_LIMIT_HISTORY) return;
  const end = keys.rateLimitEnd(height - RATE_LIMIT_HISTORY);
  for (const [key] of [...store.entries(keys.rateLimitPrefix, { end })]) store.delete(key);
}

/** The equity tier configuration in the store (empty when absent). */
export function equityTierConfig(store: KvStore): clob.EquityTierLimitConfiguration {
  const bytes = store.get(keys.equityTierConfig);
  return fromBinary(clob.EquityTierLimitConfigurationSchema, bytes ?? new Uint8Array(0));
}

/**
 * Checks the stateful equity tier: the highest tier whose threshold the net collateral meets sets
 * the most open stateful orders; placing one more than that fails with clob 10001.
 */
export function checkEquityTier(store: KvStore, netCollateral: bigint, openStateful: number): void {
  const tiers = equityTierConfig(store).statefulOrderEquityTiers;
  if (tiers.length === 0) return;
  let limit: number | undefined;
  let required = 0n;
  for (const tier of tiers) {
    const threshold = decodeSerializableInt(tier.usdTncRequired);
    if (netCollateral >= threshold && (limit === undefined || threshold >= required)) {
      limit = tier.limit;
      required = threshold;
    }
  }
  if (limit === undefined || openStateful >= limit) {
    throw abciError(
      clobErrors.equityTierLimit,
      `opening order would exceed equity tier limit of ${limit ?? 0} (open stateful orders: ${openStateful}, net collateral: ${netCollateral})`,
    );
  }
}
