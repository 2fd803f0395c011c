/**
 * The JSON bodies of the market-data routes and channels (`spec/indexer-api.md` 1.8, 1.9, 3.5),
 * built from the read models: numbers as decimal strings, times as ISO-8601, heights as strings.
 */

import type {
  CandleResponseObject,
  OrderbookResponseObject,
  OrderbookResponsePriceLevel,
  OrderbookUpdateContents,
  TradeResponseObject,
  TradeUpdate,
} from "@perpx/core/indexer";
import { iso, scaled, usdc } from "./format.js";
import { candleUuid } from "./ids.js";
import type { CandleRecord } from "./models/candles.js";
import type { MarketDefinition } from "./models/markets.js";
import { priceOf, sizeOf } from "./models/markets.js";
import type { MidPrice } from "./models/mid-prices.js";
import type { Level, LevelChange } from "./models/orderbook.js";
import type { TradeRecord } from "./models/trades.js";
import { deleveragingPrice } from "./pg-numeric.js";

/** A level of the REST book. */
export type LevelBody = OrderbookResponsePriceLevel;

/** `GET /v4/orderbooks/perpetualMarket/:ticker`. */
export type OrderbookBody = OrderbookResponseObject;

/** A trade of `GET /v4/trades/perpetualMarket/:ticker`. */
export type TradeBody = TradeResponseObject;

/** A candle of `GET /v4/candles/perpetualMarkets/:ticker` (`id` left out in channel updates). */
export type CandleBody = Omit<CandleResponseObject, "id"> & { id?: string };

/** The REST book of a market from its uncrossed levels. */
export function orderbookBody(
  market: MarketDefinition,
  book: { bids: Level[]; asks: Level[] },
): OrderbookBody {
  const level = (l: Level): LevelBody => ({
    price: priceOf(market, l.subticks),
    size: sizeOf(market, l.quantums),
  });
  return { bids: book.bids.map(level), asks: book.asks.map(level) };
}

/** The `v4_orderbook` update of one level change: `[price, size]` on its side. */
export function levelUpdateBody(market: MarketDefinition, change: LevelChange): OrderbookUpdateContents {
  return { [change.side]: [[priceOf(market, change.subticks), sizeOf(market, change.quantums)]] };
}

/** A trade as REST shows it. */
export function tradeBody(market: MarketDefinition, trade: TradeRecord): TradeBody {
  return {
    id: trade.id,
    side: trade.side,
    size: sizeOf(market, trade.quantums),
    price:
      trade.type === "DELEVERAGED"
        ? deleveragingPrice(market, trade.quoteQuantums, trade.quantums)
        : priceOf(market, trade.subticks),
    type: trade.type,
    createdAt: iso(trade.createdAt),
    createdAtHeight: trade.createdAtHeight.toString(),
  };
}

/** A trade as the `v4_trades` channel sends it (no height). */
export function tradeUpdateBody(market: MarketDefinition, trade: TradeRecord): TradeUpdate {
  const { createdAtHeight: _height, ...rest } = tradeBody(market, trade);
  return {
    id: rest.id,
    size: rest.size,
    price: rest.price,
    side: rest.side,
    createdAt: rest.createdAt,
    type: rest.type,
  };
}

function mid(market: MarketDefinition, quad: MidPrice | undefined): string | null {
  // A quarter of four times the mid, exactly: 25 × quad at two more decimals.
  return quad === undefined
    ? null
    : scaled(quad * 25n, market.quantumConversionExponent - market.atomicResolution - 8);
}

/** A candle as REST shows it (`withId`) or as the `v4_candles` channel sends it. */
export function candleBody(market: MarketDefinition, candle: CandleRecord, withId: boolean): CandleBody {
  const startedAt = iso(candle.startedAtMs);
  return {
    ...(withId ? { id: candleUuid(market.ticker, candle.resolution, startedAt) } : {}),
    startedAt,
    ticker: market.ticker,
    resolution: candle.resolution,
    low: priceOf(market, candle.low),
    high: priceOf(market, candle.high),
    open: priceOf(market, candle.open),
    close: priceOf(market, candle.close),
    baseTokenVolume: sizeOf(market, candle.baseQuantums),
    usdVolume: usdc(candle.quoteQuantums),
    trades: candle.trades,
    startingOpenInterest: sizeOf(market, candle.startingOpenInterest),
    orderbookMidPriceOpen: mid(market, candle.midOpen),
    orderbookMidPriceClose: mid(market, candle.midClose),
  };
}
