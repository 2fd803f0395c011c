/**
 * The block rate-limit configuration (counted by `rate-limiter.ts`) and equity tier limits on open
 * stateful orders (clob 10001).
 */
import { type clob, decodeSerializableInt } from "@perpx/proto";
import type { KvStore } from "../../kernel/store.js";
import { abciError } from "../../lib/errors.js";
import { wireDecodeCached } from "../../lib/proto-cache.js";
import { wireDecode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import { clobErrors } from "./errors.js";
import { keys } from "./state.js";

/** The rate-limit configuration in the store (empty when absent). */
export function rateLimitConfig(store: KvStore): clob.BlockRateLimitConfiguration {
  const bytes = store.get(keys.blockRateLimitConfig);
  return wireDecodeCached(wire.perpx_clob_v1_BlockRateLimitConfiguration, bytes ?? new Uint8Array(0));
}

/** The equity tier configuration in the store (empty when absent). */
export function equityTierConfig(store: KvStore): clob.EquityTierLimitConfiguration {
  const bytes = store.get(keys.equityTierConfig);
  return wireDecode(wire.perpx_clob_v1_EquityTierLimitConfiguration, bytes ?? new Uint8Array(0));
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
