/**
 * The clob's block rate limiter as a real node keeps it: in memory, counted at CheckTx only (never
 * at ReCheckTx or delivery), per account and per limit kind, lost on restart. An attempt is counted
 * before it is checked, so a refused attempt (over the limit, or refused by a later check of the
 * same tx) still uses up the account's rate.
 */
import type { clob } from "@perpx/proto";
import { type AbciError, abciError } from "../../lib/errors.js";
import { clobErrors } from "./errors.js";

/** What a limiter counts: short-term places and cancels, stateful places, leverage updates. */
export type RateLimitKind = "shortTerm" | "stateful" | "leverage";

/** The largest `num_blocks` a configuration may hold: no count is kept longer than this. */
export const RATE_LIMIT_HISTORY = 10_000n;

/** The most blocks any limit of a configuration looks back (at least 1, at most the history). */
export function longestWindow(config: clob.BlockRateLimitConfiguration): bigint {
  let longest = 1;
  for (const limit of [
    ...config.maxShortTermOrdersAndCancelsPerNBlocks,
    ...config.maxStatefulOrdersPerNBlocks,
    ...config.maxLeverageUpdatesPerNBlocks,
  ]) {
    longest = Math.max(longest, limit.numBlocks);
  }
  return BigInt(longest) < RATE_LIMIT_HISTORY ? BigInt(longest) : RATE_LIMIT_HISTORY;
}

/** The weight of a `MsgBatchCancel` against the short-term limit (the real chain's fixed 2). */
export const BATCH_CANCEL_WEIGHT = 2n;

/** The configuration field a kind's limits come from, as the real chain names it in its error. */
const CONTEXT: Readonly<Record<RateLimitKind, string>> = {
  shortTerm: "MaxShortTermOrdersAndCancelsPerNBlocks",
  stateful: "MaxStatefulOrdersPerNBlocks",
  leverage: "UpdateLeverage",
};

/**
 * The limits of a kind: short-term places and cancels use `max_short_term_orders_and_cancels` only
 * (the two deprecated lists are not enforced), stateful places `max_stateful_orders`, leverage
 * updates `max_leverage_updates`; sorted by ascending `num_blocks` (the order they are checked in).
 */
export function limitsOfKind(
  config: clob.BlockRateLimitConfiguration,
  kind: RateLimitKind,
): clob.MaxPerNBlocksRateLimit[] {
  const limits =
    kind === "shortTerm"
      ? config.maxShortTermOrdersAndCancelsPerNBlocks
      : kind === "stateful"
        ? config.maxStatefulOrdersPerNBlocks
        : config.maxLeverageUpdatesPerNBlocks;
  return [...limits].sort((a, b) => a.numBlocks - b.numBlocks);
}

/** An in-memory block rate limiter over every kind and account (one per chain application). */
export interface BlockRateLimiter {
  /**
   * Adds `weight` to `key`'s count of `kind` at `height`, then checks every limit over the blocks
   * `(height - num_blocks, height]`: the clob 5001 error of the first one exceeded, or undefined.
   * The count stays even when the answer is an error.
   */
  count(
    kind: RateLimitKind,
    key: string,
    height: bigint,
    weight: bigint,
    limits: readonly clob.MaxPerNBlocksRateLimit[],
  ): AbciError | undefined;
  /**
   * Drops the counts of blocks at or below `height - window` (`window`: the longest a limit looks
   * back, {@link longestWindow}), as the real limiter forgets a block once no limit can see it.
   */
  prune(height: bigint, window?: bigint): void;
  /** The count of `kind` for `key` over the last `numBlocks` blocks up to `height` (tests, queries). */
  total(kind: RateLimitKind, key: string, height: bigint, numBlocks: number): bigint;
}

/** The sum of the counts of `byHeight` over the blocks `(height - numBlocks, height]`. */
function sumOver(byHeight: ReadonlyMap<bigint, bigint>, height: bigint, numBlocks: number): bigint {
  let sum = 0n;
  const from = height - BigInt(numBlocks);
  for (const [h, c] of byHeight) if (h > from && h <= height) sum += c;
  return sum;
}

/** A fresh limiter with no counts. */
export function createBlockRateLimiter(): BlockRateLimiter {
  // kind/key -> height -> count
  const counts = new Map<string, Map<bigint, bigint>>();
  const total = (kind: RateLimitKind, key: string, height: bigint, numBlocks: number): bigint => {
    const byHeight = counts.get(`${kind}/${key}`);
    return byHeight === undefined ? 0n : sumOver(byHeight, height, numBlocks);
  };
  return {
    count(kind, key, height, weight, limits) {
      if (limits.length === 0) return undefined;
      const id = `${kind}/${key}`;
      let byHeight = counts.get(id);
      if (byHeight === undefined) {
        byHeight = new Map();
        counts.set(id, byHeight);
      }
      byHeight.set(height, (byHeight.get(height) ?? 0n) + weight);
      const single = limits.length === 1 && limits[0]?.numBlocks === 1;
      for (const limit of limits) {
        const rate = sumOver(byHeight, height, limit.numBlocks);
        if (rate > BigInt(limit.limit)) {
          return abciError(
            clobErrors.blockRateLimitExceeded,
            `Rate of ${rate} exceeds configured block rate limit of {NumBlocks:${limit.numBlocks} Limit:${limit.limit}} for ${CONTEXT[kind]} and ${single ? "key " : ""}${key}`,
          );
        }
      }
      return undefined;
    },
    prune(height, window = RATE_LIMIT_HISTORY) {
      const oldest = height - window;
      for (const [id, byHeight] of counts) {
        for (const h of byHeight.keys()) if (h <= oldest) byHeight.delete(h);
        if (byHeight.size === 0) counts.delete(id);
      }
    },
    total,
  };
}
