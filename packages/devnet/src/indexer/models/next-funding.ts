/**
 * The next funding rate of each market as the real indexer shows it. Ender keeps every premium
 * sample of a perpetual since the last funding tick (the chain's premium-sample `FundingEvent`,
 * zeros too), each as a 1-hour rate (`sample / 8 × 1e-6`), and forgets them at a funding tick;
 * roundtable's market updater, every 30 seconds, sets a market's `nextFundingRate` to the mean of
 * those samples (unclamped, rounded half away from zero at 20 decimals as big.js divides) plus
 * the market's default 1-hour rate, and leaves it as it was while there are none (after a tick,
 * until the next sample). A new market shows 0. The devnet runs the updater on block time, after
 * the first block at least {@link MARKET_UPDATER_INTERVAL_MS} after its last run, so a replay of
 * the stored blocks gives the same figures.
 */
import type { FundingEvent } from "../../app/indexer-output/indexer-events.js";
import { scaled } from "../format.js";

/** How often the real indexer's market updater runs (roundtable's default loop interval). */
export const MARKET_UPDATER_INTERVAL_MS = 30_000;

/** The decimals of the rates kept (big.js's default division precision). */
const SCALE_DIGITS = 20;
/** 10^20 / (8 hours × 1e6 ppm): a ppm-per-8-hours rate as a 1-hour rate at 20 decimals. */
const PPM_8H_TO_1H_AT_SCALE = 10n ** BigInt(SCALE_DIGITS) / 8_000_000n;

/** `num / den` rounded half away from zero (den > 0). */
function roundHalfAway(num: bigint, den: bigint): bigint {
  const negative = num < 0n;
  const abs = negative ? -num : num;
  const q = (abs * 2n + den) / (2n * den);
  return negative ? -q : q;
}

/**
 * The next funding rate the real indexer computes from samples (ppm per 8 hours) and the default
 * funding (ppm per 8 hours), as a decimal 1-hour rate; undefined without samples.
 *
 * @param samplesPpm - the premium samples since the last funding tick.
 * @param defaultFundingPpm - the perpetual's default funding.
 * @returns the mean of the samples as 1-hour rates plus the default 1-hour rate, or undefined.
 * @example
 * ```ts
 * nextFundingRateOf([1_000n, 0n, 500n], 100); // "0.000075"
 * nextFundingRateOf([1_000n, 0n, 0n], 0); // "0.00004166666666666667"
 * nextFundingRateOf([], 100); // undefined
 * ```
 */
export function nextFundingRateOf(
  samplesPpm: readonly bigint[],
  defaultFundingPpm: number,
): string | undefined {
  if (samplesPpm.length === 0) return undefined;
  const sum = samplesPpm.reduce((a, b) => a + b, 0n);
  const mean = roundHalfAway(sum * PPM_8H_TO_1H_AT_SCALE, BigInt(samplesPpm.length));
  return scaled(mean + BigInt(defaultFundingPpm) * PPM_8H_TO_1H_AT_SCALE, -SCALE_DIGITS);
}

/** A market the updater refreshes: its perpetual and default funding (ppm per 8 hours). */
export interface FundingMarket {
  readonly perpetualId: number;
  readonly defaultFundingPpm: number;
}

/** The next funding rates (see the module comment). */
export class NextFundingModel {
  private readonly samples = new Map<number, bigint[]>();
  private readonly rates = new Map<number, string>();
  private nextRunMs: number | undefined;

  /**
   * Applies a funding event: a sample is kept, a tick forgets the perpetual's samples (a genesis
   * index is neither).
   */
  apply(e: FundingEvent): void {
    if (e.phase === "genesis") return;
    if (e.phase === "payment") {
      this.samples.delete(e.perpetualId);
      return;
    }
    const list = this.samples.get(e.perpetualId);
    if (list === undefined) this.samples.set(e.perpetualId, [e.ratePpm]);
    else list.push(e.ratePpm);
  }

  /**
   * After a block at `nowMs`: runs the market updater over `markets` if it is due; answers whether
   * it ran.
   */
  update(nowMs: number, markets: Iterable<FundingMarket>): boolean {
    if (this.nextRunMs !== undefined && nowMs < this.nextRunMs) return false;
    this.nextRunMs = nowMs + MARKET_UPDATER_INTERVAL_MS;
    for (const market of markets) {
      const rate = nextFundingRateOf(this.samples.get(market.perpetualId) ?? [], market.defaultFundingPpm);
      if (rate !== undefined) this.rates.set(market.perpetualId, rate);
    }
    return true;
  }

  /** A market's `nextFundingRate` as last refreshed ("0" before its first sample). */
  rate(perpetualId: number): string {
    return this.rates.get(perpetualId) ?? "0";
  }
}
