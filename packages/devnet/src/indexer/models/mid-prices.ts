/**
 * The order book mid prices the candles carry (`orderbookMidPriceOpen` and `orderbookMidPriceClose`),
 * as the reference indexer keeps them:
 *
 * - roundtable's `cache-orderbook-mid-prices` task samples every market's mid, (best bid + best
 *   ask) / 2 of the uncrossed book, every 10 s, into a sorted set per market scored by the sample's
 *   time in whole seconds, the price being the member (so a price seen again only moves its time);
 *   adding a sample drops the market's samples 60 s old or older; a market without both sides gets
 *   no sample, and its old samples stay;
 * - ender's memory cache reads, every 10 s, the median of each market's (at most 10, oldest first)
 *   samples, undefined for a market without any;
 * - the candles generator puts that median in both fields of a candle it creates, keeps them while
 *   the candle trades, and sets the close of a candle when its period ends.
 *
 * Ours samples and reads the median at the same moments, the blocks 10 s or more of block time
 * after the previous sample (the reference's two loops run on their own timers, each every 10 s).
 * Prices are kept as four times the mid, in subticks, so that a median of two mids stays exact.
 */

/** roundtable's sampling interval and ender's refresh interval (ms). */
export const MID_PRICE_SAMPLE_INTERVAL_MS = 10_000;
/** How long a sample counts (s): adding one drops those at least this old. */
const WINDOW_SECONDS = 60;
/** How many samples (the oldest) the median reads. */
const MEDIAN_SAMPLES = 10;

/** A median mid price: four times the price, in subticks. */
export type MidPrice = bigint;

/** The mid price samples and their cached medians (see the module comment). */
export class MidPricesModel {
  private lastSampleMs: number | undefined;
  /** Per clob pair: twice the mid (best bid + best ask subticks) -> the sample's time in seconds. */
  private readonly samples = new Map<number, Map<bigint, number>>();
  private medians = new Map<number, MidPrice>();

  /**
   * At a block's time: when a sample is due, samples every market's book (`bestSum` gives best bid
   * + best ask of the uncrossed book, undefined without both sides) and refreshes the medians.
   */
  block(
    timeMs: number,
    clobPairIds: Iterable<number>,
    bestSum: (clobPairId: number) => bigint | undefined,
  ): void {
    if (this.lastSampleMs !== undefined && timeMs - this.lastSampleMs < MID_PRICE_SAMPLE_INTERVAL_MS) return;
    this.lastSampleMs = timeMs;
    const seconds = Math.floor(timeMs / 1000);
    const medians = new Map<number, MidPrice>();
    for (const clobPairId of clobPairIds) {
      const sum = bestSum(clobPairId);
      let set = this.samples.get(clobPairId);
      if (sum !== undefined) {
        if (set === undefined) {
          set = new Map();
          this.samples.set(clobPairId, set);
        }
        set.set(sum, seconds);
        for (const [price, at] of set) if (at <= seconds - WINDOW_SECONDS) set.delete(price);
      }
      const median = set === undefined ? undefined : medianOf(set);
      if (median !== undefined) medians.set(clobPairId, median);
    }
    this.medians = medians;
  }

  /** The cached median mid of a market (four times the price, in subticks), if it has samples. */
  median(clobPairId: number): MidPrice | undefined {
    return this.medians.get(clobPairId);
  }
}

/** The median of the oldest {@link MEDIAN_SAMPLES} samples, four times the mid. */
function medianOf(set: ReadonlyMap<bigint, number>): MidPrice | undefined {
  // Oldest first (the sorted set's score order; a market has one sample per second at most).
  const oldest = [...set]
    .sort(([, at], [, bt]) => at - bt)
    .slice(0, MEDIAN_SAMPLES)
    .map(([sum]) => sum)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (oldest.length === 0) return undefined;
  const middle = Math.floor(oldest.length / 2);
  const at = (i: number) => oldest[i] as bigint;
  // Each sample is twice a mid: odd count, 2 × that; even, the two middle ones summed.
  return oldest.length % 2 === 1 ? 2n * at(middle) : at(middle - 1) + at(middle);
}
