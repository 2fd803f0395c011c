/**
 * The candles read model: for every market and every resolution, UTC-aligned buckets of the
 * market's trades (open, high, low, close, volumes, count) and the open interest at the candle's
 * start. A period without trades gets an empty candle carrying the previous close, as soon as a
 * block falls in it; the first trades of a period replace an empty candle's prices, as the
 * reference's candles generator does.
 *
 * The order book mids are the reference's: a candle is created with the cached median mid
 * (`MidPricesModel`) as both its open and close mid, keeps them while it trades, and gets its
 * close mid when its period ends and the next candle is created.
 */

import type { MidPrice } from "./mid-prices.js";

/** The candle resolutions and their lengths in ms. */
export const CANDLE_RESOLUTIONS = {
  "1MIN": 60_000,
  "5MINS": 300_000,
  "15MINS": 900_000,
  "30MINS": 1_800_000,
  "1HOUR": 3_600_000,
  "4HOURS": 14_400_000,
  "1DAY": 86_400_000,
} as const;

/** A candle resolution (`1MIN` ... `1DAY`). */
export type CandleResolution = keyof typeof CANDLE_RESOLUTIONS;

/** The resolutions in the reference's order. */
export const RESOLUTIONS = Object.keys(CANDLE_RESOLUTIONS) as CandleResolution[];

/** One candle, in the chain's integers (prices in subticks, four times the mid for the mids). */
export interface CandleRecord {
  readonly clobPairId: number;
  readonly resolution: CandleResolution;
  readonly startedAtMs: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  baseQuantums: bigint;
  quoteQuantums: bigint;
  trades: number;
  readonly startingOpenInterest: bigint;
  readonly midOpen: MidPrice | undefined;
  midClose: MidPrice | undefined;
}

/** What a market looks like when a candle changes: its open interest and cached median mid. */
export interface MarketMoment {
  readonly openInterest: bigint;
  readonly mid: MidPrice | undefined;
}

function bucket(timeMs: number, resolution: CandleResolution): number {
  const length = CANDLE_RESOLUTIONS[resolution];
  return Math.floor(timeMs / length) * length;
}

/** The candles model (see the module comment). */
export class CandlesModel {
  /** The series by clob pair, then resolution (no key string per trade and resolution). */
  private readonly series = new Map<number, Map<CandleResolution, CandleRecord[]>>();

  private find(clobPairId: number, resolution: CandleResolution): CandleRecord[] | undefined {
    return this.series.get(clobPairId)?.get(resolution);
  }

  private list(clobPairId: number, resolution: CandleResolution): CandleRecord[] {
    let pair = this.series.get(clobPairId);
    if (pair === undefined) {
      pair = new Map();
      this.series.set(clobPairId, pair);
    }
    let list = pair.get(resolution);
    if (list === undefined) {
      list = [];
      pair.set(resolution, list);
    }
    return list;
  }

  /** Adds a trade to every resolution's candle; returns the candles it changed. */
  trade(
    clobPairId: number,
    timeMs: number,
    fill: { subticks: bigint; quantums: bigint; quoteQuantums: bigint },
    moment: MarketMoment,
  ): CandleRecord[] {
    const changed: CandleRecord[] = [];
    for (const resolution of RESOLUTIONS) {
      const list = this.list(clobPairId, resolution);
      const start = bucket(timeMs, resolution);
      let candle = list[list.length - 1];
      if (candle === undefined || candle.startedAtMs < start) {
        if (candle !== undefined) {
          // The period ended: the previous candle's close mid, as the next one opens.
          candle.midClose = moment.mid;
          changed.push(candle);
        }
        candle = newCandle(clobPairId, resolution, start, fill.subticks, moment);
        list.push(candle);
      } else if (candle.trades === 0) {
        // An empty candle takes its prices from its first trades.
        candle.open = fill.subticks;
        candle.high = fill.subticks;
        candle.low = fill.subticks;
      }
      if (fill.subticks > candle.high) candle.high = fill.subticks;
      if (fill.subticks < candle.low) candle.low = fill.subticks;
      candle.close = fill.subticks;
      candle.baseQuantums += fill.quantums;
      candle.quoteQuantums += fill.quoteQuantums;
      candle.trades += 1;
      changed.push(candle);
    }
    return changed;
  }

  /**
   * At a block's time: every series that has candles gets an empty candle for the current period
   * when it has none yet (the previous one's mid close updated first). Returns the candles changed.
   */
  tick(clobPairId: number, timeMs: number, moment: MarketMoment): CandleRecord[] {
    const changed: CandleRecord[] = [];
    for (const resolution of RESOLUTIONS) {
      const list = this.find(clobPairId, resolution);
      const last = list?.[list.length - 1];
      if (list === undefined || last === undefined) continue;
      const start = bucket(timeMs, resolution);
      if (last.startedAtMs >= start) continue;
      last.midClose = moment.mid;
      changed.push(last);
      const empty = newCandle(clobPairId, resolution, start, last.close, moment);
      list.push(empty);
      changed.push(empty);
    }
    return changed;
  }

  /** A series' candles, oldest first. */
  candles(clobPairId: number, resolution: CandleResolution): readonly CandleRecord[] {
    return this.find(clobPairId, resolution) ?? [];
  }
}

/** A candle opening at `start` at `price`, its open and close mids the cached median. */
function newCandle(
  clobPairId: number,
  resolution: CandleResolution,
  start: number,
  price: bigint,
  moment: MarketMoment,
): CandleRecord {
  return {
    clobPairId,
    resolution,
    startedAtMs: start,
    open: price,
    high: price,
    low: price,
    close: price,
    baseQuantums: 0n,
    quoteQuantums: 0n,
    trades: 0,
    startingOpenInterest: moment.openInterest,
    midOpen: moment.mid,
    midClose: moment.mid,
  };
}
