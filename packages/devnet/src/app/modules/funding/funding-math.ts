/**
 * The arithmetic of the real chain's funding (x/perpetuals): premiums combined by median (votes
 * into a sample) or mean (samples into a rate) after padding with zeros, the clamp
 * `factor × (IMF − MMF)`, and the funding index delta of an 8-hour rate over a tick.
 */
import type { perpetuals } from "@perpx/proto";

/** Funding rates are 8-hour rates: the index delta of a tick is prorated over this many seconds. */
export const FUNDING_RATE_PERIOD_SECONDS = 8n * 3600n;

/**
 * The median of integers; of an even count, the mean of the middle two rounded away from zero
 * (the real chain's `lib.Median`).
 *
 * @throws RangeError for an empty list.
 * @example
 * ```ts
 * medianAwayFromZero([1n, 2n]); // 2n
 * medianAwayFromZero([-1n, -2n]); // -2n
 * ```
 */
export function medianAwayFromZero(values: readonly bigint[]): bigint {
  if (values.length === 0) throw new RangeError("the median of no values");
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mid = Math.floor(sorted.length / 2);
  const y = sorted[mid] as bigint;
  if (sorted.length % 2 === 1) return y;
  const x = sorted[mid - 1] as bigint;
  const sum = x + y;
  // Half of an odd sum, away from zero.
  return sum % 2n === 0n ? sum / 2n : sum > 0n ? sum / 2n + 1n : sum / 2n - 1n;
}

/**
 * The mean of integers, truncated toward zero (the real chain's `lib.AvgInt32`).
 *
 * @throws RangeError for an empty list.
 * @example
 * ```ts
 * meanTowardZero([10n, 0n, 0n]); // 3n
 * ```
 */
export function meanTowardZero(values: readonly bigint[]): bigint {
  if (values.length === 0) throw new RangeError("the mean of no values");
  return values.reduce((a, b) => a + b, 0n) / BigInt(values.length);
}

/**
 * A market's recorded premiums padded with zeros to `max(rounds, minimum)` values: only non-zero
 * premiums are stored, and `rounds` counts every round (votes: blocks; samples: sample epochs).
 *
 * @example
 * ```ts
 * padWithZeros([5n], 2, 4); // [5n, 0n, 0n, 0n]
 * ```
 */
export function padWithZeros(premiums: readonly bigint[], rounds: number, minimum: number): bigint[] {
  const length = Math.max(rounds, minimum);
  return [...premiums, ...Array.from({ length: Math.max(0, length - premiums.length) }, () => 0n)];
}

/**
 * A liquidity tier's maintenance margin ppm: `IMF × maintenance fraction / 1e6`, rounded down.
 *
 * @example
 * ```ts
 * maintenanceMarginPpm({ initialMarginPpm: 50_000, maintenanceFractionPpm: 600_000 }); // 30_000n
 * ```
 */
export function maintenanceMarginPpm(
  tier: Pick<perpetuals.LiquidityTier, "initialMarginPpm" | "maintenanceFractionPpm">,
): bigint {
  return (BigInt(tier.initialMarginPpm) * BigInt(tier.maintenanceFractionPpm)) / 1_000_000n;
}

/**
 * The largest absolute rate (or premium vote) of a tier: `factor × (IMF − MMF) / 1e6`, rounded
 * down (the funding rate clamp factor is 6,000,000 ppm: 6 × (IMF − MMF); the premium vote clamp
 * factor 60,000,000 ppm).
 *
 * @example
 * ```ts
 * maxAbsClampPpm({ initialMarginPpm: 50_000, maintenanceFractionPpm: 600_000 }, 6_000_000); // 120_000n
 * ```
 */
export function maxAbsClampPpm(
  tier: Pick<perpetuals.LiquidityTier, "initialMarginPpm" | "maintenanceFractionPpm">,
  clampFactorPpm: number,
): bigint {
  const spread = BigInt(tier.initialMarginPpm) - maintenanceMarginPpm(tier);
  return (BigInt(clampFactorPpm) * spread) / 1_000_000n;
}

/** `value` clamped to `[-bound, bound]`. */
export function clampAbs(value: bigint, bound: bigint): bigint {
  return value > bound ? bound : value < -bound ? -bound : value;
}

/**
 * The funding index delta (1e-6 quote quantums per base quantum) of an 8-hour rate over
 * `seconds`: `seconds × rate` converted from base to quote quantums at the oracle price, then
 * divided by 8 hours, each step truncated toward zero (the real chain's `GetFundingIndexDelta`).
 *
 * @example
 * ```ts
 * // BTC (atomic resolution -10) at $65,000 (price 6_500_000_000, exponent -5), 100 ppm for an hour:
 * fundingIndexDelta(100n, 3600n, -10, 6_500_000_000n, -5); // 81n
 * ```
 */
export function fundingIndexDelta(
  ratePpm: bigint,
  seconds: bigint,
  atomicResolution: number,
  price: bigint,
  priceExponent: number,
): bigint {
  const base = seconds * ratePpm * price;
  const exponent = priceExponent + atomicResolution + 6;
  const quote = exponent >= 0 ? base * 10n ** BigInt(exponent) : base / 10n ** BigInt(-exponent);
  return quote / FUNDING_RATE_PERIOD_SECONDS;
}
