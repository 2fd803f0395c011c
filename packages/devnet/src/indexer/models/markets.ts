/**
 * The perpetual markets read model: definitions (liquidity tiers, price markets, perpetuals, clob
 * pairs), oracle prices, open interest, the next funding rate (`next-funding.ts`: refreshed by the
 * market updater's cadence, {@link MarketsModel.runMarketUpdater}), and the 24-hour figures
 * (volume, trades, oracle price change), fed by the block-event stream.
 */
import {
  type OraclePriceUpdate,
  PERPETUAL_MARKET_STATUSES,
  type PerpetualMarketResponseObject,
  type PerpetualMarketStatus,
} from "@perpx/core/indexer";
import type { IndexerEvent, LocatedIndexerEvent } from "../../app/indexer-output/indexer-events.js";
import { iso, ppm, scaled, usdc } from "../format.js";
import { FillWindow } from "./fill-window.js";
import { NextFundingModel } from "./next-funding.js";

const DAY_MS = 86_400_000;
/** The chain's funding rates are per 8 hours; the indexer shows 1-hour rates. */
const RATE_PERIOD_HOURS = 8n;

/** One tradable market: a clob pair with its perpetual and price market. */
export interface MarketDefinition {
  readonly clobPairId: number;
  readonly perpetualId: number;
  readonly ticker: string;
  readonly marketId: number;
  readonly atomicResolution: number;
  readonly quantumConversionExponent: number;
  readonly stepBaseQuantums: bigint;
  readonly subticksPerTick: number;
  readonly status: string;
  readonly marketType: "CROSS" | "ISOLATED";
  readonly liquidityTier: number;
  readonly defaultFundingPpm: number;
}

/** An oracle price as the indexer keeps it. */
export interface OraclePriceRecord {
  readonly marketId: number;
  readonly price: bigint;
  readonly exponent: number;
  readonly effectiveAt: Date;
  readonly effectiveAtHeight: bigint;
}

/** `GET /v4/perpetualMarkets`'s object for one market. */
export type PerpetualMarketBody = PerpetualMarketResponseObject;

/** The oracle price object of the `v4_markets` channel. */
export type OraclePriceBody = OraclePriceUpdate;

interface Tier {
  readonly initialMarginPpm: number;
  readonly maintenanceFractionPpm: number;
  readonly openInterestLowerCap: bigint;
  readonly openInterestUpperCap: bigint;
}

/** The long size of a position's quantums (0 for short or none). */
const long = (q: bigint | undefined): bigint => (q !== undefined && q > 0n ? q : 0n);

interface Sample {
  readonly timeMs: number;
  readonly value: bigint;
}

/** The figures of a market without fills. */
const NO_FILLS = { trades: 0, volume: 0n } as const;

/** The human price of `subticks` in a market. */
export function priceOf(market: MarketDefinition, subticks: bigint): string {
  return scaled(subticks, market.quantumConversionExponent - market.atomicResolution - 6);
}

/** The human size of `quantums` in a market. */
export function sizeOf(market: MarketDefinition, quantums: bigint): string {
  return scaled(quantums, market.atomicResolution);
}

/** The markets model (see the module comment). */
export class MarketsModel {
  private readonly tiers = new Map<number, Tier>();
  private readonly priceMarkets = new Map<number, { pair: string; exponent: number }>();
  private readonly perpetuals = new Map<number, Extract<IndexerEvent, { kind: "perpetual" }>>();
  private readonly pairs = new Map<number, Extract<IndexerEvent, { kind: "clob_pair" }>>();
  private readonly byTicker = new Map<string, MarketDefinition>();
  private readonly byPair = new Map<number, MarketDefinition>();
  private readonly byPerpetual = new Map<number, MarketDefinition>();
  /** {@link markets}, sorted once per change of the definitions. */
  private sorted: MarketDefinition[] | undefined;
  private readonly prices = new Map<number, OraclePriceRecord>();
  private readonly priceHistory = new Map<number, Sample[]>();
  private readonly fills = new Map<number, FillWindow>();
  private readonly openInterest = new Map<number, bigint>();
  /** The open interest of the perpetuals the current block changed, before its first change. */
  private readonly openInterestBeforeBlock = new Map<number, bigint>();
  private readonly positions = new Map<string, Map<number, bigint>>();
  private readonly nextFunding = new NextFundingModel();

  /** Applies one event of the block-event stream. */
  apply(located: LocatedIndexerEvent): void {
    const e = located.event;
    switch (e.kind) {
      case "liquidity_tier":
        this.tiers.set(e.id, e);
        return;
      case "market_create":
        this.priceMarkets.set(e.marketId, { pair: e.pair, exponent: e.exponent });
        return;
      case "perpetual":
        this.perpetuals.set(e.perpetualId, e);
        this.define();
        return;
      case "clob_pair":
        this.pairs.set(e.clobPairId, e);
        this.define();
        return;
      case "oracle_price":
        this.setPrice(e.marketId, e.price, located);
        return;
      case "funding":
        this.nextFunding.apply(e);
        return;
      case "order_fill":
        this.recordFill(e.clobPairId, e.quoteQuantums, located.time.getTime());
        return;
      case "subaccount_update":
        this.updatePositions(e);
        return;
      default:
        return;
    }
  }

  private define(): void {
    for (const pair of this.pairs.values()) {
      const perpetual = this.perpetuals.get(pair.perpetualId);
      if (perpetual === undefined) continue;
      const market: MarketDefinition = {
        clobPairId: pair.clobPairId,
        perpetualId: perpetual.perpetualId,
        ticker: perpetual.ticker,
        marketId: perpetual.marketId,
        atomicResolution: perpetual.atomicResolution,
        quantumConversionExponent: pair.quantumConversionExponent,
        stepBaseQuantums: pair.stepBaseQuantums,
        subticksPerTick: pair.subticksPerTick,
        status: pair.status,
        marketType: perpetual.marketType,
        liquidityTier: perpetual.liquidityTier,
        defaultFundingPpm: perpetual.defaultFundingPpm,
      };
      const previous = this.byPair.get(market.clobPairId);
      if (previous !== undefined && this.byPerpetual.get(previous.perpetualId) === previous)
        this.byPerpetual.delete(previous.perpetualId);
      this.byTicker.set(market.ticker, market);
      this.byPair.set(market.clobPairId, market);
      this.byPerpetual.set(market.perpetualId, market);
      this.sorted = undefined;
    }
  }

  private setPrice(marketId: number, price: bigint, located: LocatedIndexerEvent): void {
    const exponent = this.priceMarkets.get(marketId)?.exponent ?? 0;
    this.prices.set(marketId, {
      marketId,
      price,
      exponent,
      effectiveAt: located.time,
      effectiveAtHeight: located.height,
    });
    const history = this.priceHistory.get(marketId) ?? [];
    history.push({ timeMs: located.time.getTime(), value: price });
    this.priceHistory.set(marketId, history);
  }

  private recordFill(clobPairId: number, quote: bigint, timeMs: number): void {
    let window = this.fills.get(clobPairId);
    if (window === undefined) {
      window = new FillWindow();
      this.fills.set(clobPairId, window);
    }
    window.push({ timeMs, value: quote });
  }

  private updatePositions(e: Extract<IndexerEvent, { kind: "subaccount_update" }>): void {
    const key = `${e.owner}/${e.number}`;
    const before = this.positions.get(key);
    const after = new Map<number, bigint>();
    for (const p of e.perpetualPositions) if (p.quantums !== 0n) after.set(p.perpetualId, p.quantums);
    // The perpetuals held before, then the newly held ones, in that order.
    if (before !== undefined)
      for (const [id, q] of before) this.addOpenInterest(id, long(after.get(id)) - long(q));
    for (const [id, q] of after) if (before?.has(id) !== true) this.addOpenInterest(id, long(q));
    if (after.size === 0) this.positions.delete(key);
    else this.positions.set(key, after);
  }

  private addOpenInterest(perpetualId: number, delta: bigint): void {
    if (delta === 0n) return;
    const before = this.openInterest.get(perpetualId) ?? 0n;
    if (!this.openInterestBeforeBlock.has(perpetualId)) this.openInterestBeforeBlock.set(perpetualId, before);
    this.openInterest.set(perpetualId, before + delta);
  }

  /** Starts a block: {@link openInterestBeforeBlockOf} answers the open interest as it stands now. */
  beginBlock(): void {
    this.openInterestBeforeBlock.clear();
  }

  /**
   * A market's open interest (base quantums) before the current block's events, as ender's
   * candles generator reads it (`getOpenInterestLong` outside the block's transaction: the open
   * long positions committed before the block) for a candle's `startingOpenInterest`.
   */
  openInterestBeforeBlockOf(perpetualId: number): bigint {
    return this.openInterestBeforeBlock.get(perpetualId) ?? this.openInterestOf(perpetualId);
  }

  /**
   * After a block at `nowMs`: the real indexer's market updater, when due, refreshes every market's
   * next funding rate from the premium samples since the last tick (`next-funding.ts`).
   */
  runMarketUpdater(nowMs: number): void {
    this.nextFunding.update(nowMs, this.markets());
  }

  /** Drops 24-hour samples older than the window ending at `nowMs` (keeping one price before it). */
  trim(nowMs: number): void {
    const start = nowMs - DAY_MS;
    for (const window of this.fills.values()) window.trim(start);
    for (const list of this.priceHistory.values()) {
      let cut = 0;
      while (cut + 1 < list.length && (list[cut + 1] as Sample).timeMs <= start) cut++;
      if (cut > 0) list.splice(0, cut);
    }
  }

  /** The market of a ticker. */
  market(ticker: string): MarketDefinition | undefined {
    return this.byTicker.get(ticker);
  }

  /** The market of a clob pair. */
  marketOfPair(clobPairId: number): MarketDefinition | undefined {
    return this.byPair.get(clobPairId);
  }

  /** The market trading a perpetual. */
  marketOfPerpetual(perpetualId: number): MarketDefinition | undefined {
    return this.byPerpetual.get(perpetualId);
  }

  /** Every market, by clob pair id. */
  markets(): MarketDefinition[] {
    this.sorted ??= [...this.byPair.values()].sort((a, b) => a.clobPairId - b.clobPairId);
    return [...this.sorted];
  }

  /** A market's oracle price. */
  oraclePrice(marketId: number): OraclePriceRecord | undefined {
    return this.prices.get(marketId);
  }

  /** A market's open interest in base quantums. */
  openInterestOf(perpetualId: number): bigint {
    return this.openInterest.get(perpetualId) ?? 0n;
  }

  /** The liquidity tier of a market. */
  tierOf(market: MarketDefinition): Tier | undefined {
    return this.tiers.get(market.liquidityTier);
  }

  /** The oracle price object of the `v4_markets` channel. */
  oraclePriceBody(marketId: number): OraclePriceBody | undefined {
    const p = this.prices.get(marketId);
    if (p === undefined) return undefined;
    return {
      oraclePrice: scaled(p.price, p.exponent),
      effectiveAt: iso(p.effectiveAt),
      effectiveAtHeight: p.effectiveAtHeight.toString(),
      marketId,
    };
  }

  /** The REST object of a market at `nowMs` (the latest block time). */
  body(market: MarketDefinition, nowMs: number): PerpetualMarketBody {
    const price = this.prices.get(market.marketId);
    const tier = this.tiers.get(market.liquidityTier);
    const start = nowMs - DAY_MS;
    const { trades, volume } = this.fills.get(market.clobPairId)?.figures(start) ?? NO_FILLS;
    const history = this.priceHistory.get(market.marketId) ?? [];
    // The newest price at or before the window's start (trim keeps one), else the oldest kept.
    let dayAgo = history[0];
    for (let i = history.length - 1; i >= 0; i--) {
      const sample = history[i] as Sample;
      if (sample.timeMs <= start) {
        dayAgo = sample;
        break;
      }
    }
    const change = price === undefined || dayAgo === undefined ? 0n : price.price - dayAgo.value;
    const exponent = price?.exponent ?? 0;
    const imfPpm = BigInt(tier?.initialMarginPpm ?? 0);
    const mmfPpm = imfPpm * BigInt(tier?.maintenanceFractionPpm ?? 0);
    const oi = sizeOf(market, this.openInterestOf(market.perpetualId));
    return {
      clobPairId: market.clobPairId.toString(),
      ticker: market.ticker,
      status: marketStatus(market.status),
      oraclePrice: price === undefined ? "0" : scaled(price.price, exponent),
      priceChange24H: scaled(change, exponent),
      volume24H: usdc(volume),
      trades24H: trades,
      nextFundingRate: this.nextFunding.rate(market.perpetualId),
      initialMarginFraction: ppm(imfPpm),
      maintenanceMarginFraction: scaled(mmfPpm, -12),
      openInterest: oi,
      atomicResolution: market.atomicResolution,
      quantumConversionExponent: market.quantumConversionExponent,
      tickSize: priceOf(market, BigInt(market.subticksPerTick)),
      stepSize: sizeOf(market, market.stepBaseQuantums),
      stepBaseQuantums: Number(market.stepBaseQuantums),
      subticksPerTick: market.subticksPerTick,
      marketType: market.marketType,
      ...(tier === undefined
        ? {}
        : {
            openInterestLowerCap: usdc(tier.openInterestLowerCap),
            openInterestUpperCap: usdc(tier.openInterestUpperCap),
          }),
      baseOpenInterest: oi,
      defaultFundingRate1H: perHour(BigInt(market.defaultFundingPpm)),
    };
  }
}

/** The market status of a clob pair status name (an unspecified one is still initializing). */
function marketStatus(status: string): PerpetualMarketStatus {
  const known = PERPETUAL_MARKET_STATUSES.find((s) => s === status);
  return known ?? "INITIALIZING";
}

/** A rate in ppm per 8 hours as a 1-hour decimal rate. */
function perHour(ratePpm: bigint): string {
  // ratePpm / 8 / 1e6 = ratePpm × 125 / 1e9 exactly.
  return scaled((ratePpm * 1000n) / RATE_PERIOD_HOURS, -9);
}
