/**
 * The candles read model: for every market and every resolution, UTC-aligned buckets of the
 * market's trades (open, high, low, close, volumes, count), the open interest at the candle's
 * start and the order book mid at its open and latest update. A period without trades gets an
 * empty candle carrying the previous close, as soon as a block falls in it.
 */

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

/** One candle, in the chain's integers (prices in subticks, twice the mid for the mids). */
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
  readonly midSumOpen: bigint | undefined;
  midSumClose: bigint | undefined;
}

/** What a market looks like when a candle changes: its open interest and book (best bid + ask). */
export interface MarketMoment {
  readonly openInterest: bigint;
  readonly midSum: bigint | undefined;
}

function bucket(timeMs: number, resolution: CandleResolution): number {
  const length = CANDLE_RESOLUTIONS[resolution];
  return Math.floor(timeMs / length) * length;
}

/** The candles model (see the module comment). */
export class CandlesModel {
  private readonly series = new Map<string, CandleRecord[]>();

  private list(clobPairId: number, resolution: CandleResolution): CandleRecord[] {
    const key = `${clobPairId}/${resolution}`;
    let list = this.series.get(key);
    if (list === undefined) {
      list = [];
      this.series.set(key, list);
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
        candle = {
          clobPairId,
          resolution,
          startedAtMs: start,
          open: fill.subticks,
          high: fill.subticks,
          low: fill.subticks,
          close: fill.subticks,
          baseQuantums: 0n,
          quoteQuantums: 0n,
          trades: 0,
          startingOpenInterest: moment.openInterest,
          midSumOpen: moment.midSum,
          midSumClose: moment.midSum,
        };
        list.push(candle);
      }
      if (fill.subticks > candle.high) candle.high = fill.subticks;
      if (fill.subticks < candle.low) candle.low = fill.subticks;
      candle.close = fill.subticks;
      candle.baseQuantums += fill.quantums;
      candle.quoteQuantums += fill.quoteQuantums;
      candle.trades += 1;
      candle.midSumClose = moment.midSum;
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
      const list = this.series.get(`${clobPairId}/${resolution}`);
      const last = list?.[list.length - 1];
      if (list === undefined || last === undefined) continue;
      const start = bucket(timeMs, resolution);
      if (last.startedAtMs >= start) continue;
      last.midSumClose = moment.midSum;
      changed.push(last);
      const empty: CandleRecord = {
        clobPairId,
        resolution,
        startedAtMs: start,
        open: last.close,
        high: last.close,
        low: last.close,
        close: last.close,
        baseQuantums: 0n,
        quoteQuantums: 0n,
        trades: 0,
        startingOpenInterest: moment.openInterest,
        midSumOpen: moment.midSum,
        midSumClose: moment.midSum,
      };
      list.push(empty);
      changed.push(empty);
    }
    return changed;
  }

  /** A series' candles, oldest first. */
  candles(clobPairId: number, resolution: CandleResolution): readonly CandleRecord[] {
    return this.series.get(`${clobPairId}/${resolution}`) ?? [];
  }
}
