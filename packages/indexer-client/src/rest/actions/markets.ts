/**
 * Markets: perpetual markets, order books, trades, candles, funding and sparklines
 * (`spec/indexer-api.md` 1.8).
 */
import type {
  CandlesResponse,
  HistoricalFundingResponse,
  OrderbookResponseObject,
  PerpetualMarketsResponse,
  TradesResponse,
} from "@perpx/core/indexer";
import { call, type OptionalRouteAction, type RouteAction } from "../call.js";
import type {
  GetCandlesParams,
  GetHistoricalFundingParams,
  GetOrderbookParams,
  GetPerpetualMarketsParams,
  GetTradesParams,
} from "../params.js";

/**
 * The perpetual markets, keyed by ticker (`GET /v4/perpetualMarkets`).
 *
 * @param client - the indexer client.
 * @param params - an optional ticker and limit.
 * @returns `{ markets }`.
 * @throws IndexerValidationError for an unknown ticker.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/perpetualMarkets": { markets: {} } }) });
 * (await getPerpetualMarkets(client)).markets; // {}
 * ```
 */
export const getPerpetualMarkets: OptionalRouteAction<GetPerpetualMarketsParams, PerpetualMarketsResponse> =
  call("getPerpetualMarkets");

/**
 * A market's order book: bids descending, asks ascending, uncrossed, at most 100 levels a side
 * (`GET /v4/orderbooks/perpetualMarket/:ticker`).
 *
 * @param client - the indexer client.
 * @param params - the market.
 * @returns `{ bids, asks }`.
 * @throws IndexerNotFoundError for an unknown ticker.
 * @example
 * ```ts
 * const book = { bids: [{ price: "64999", size: "1" }], asks: [{ price: "65001", size: "2" }] };
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/orderbooks/perpetualMarket/BTC-USD": book }) });
 * (await getOrderbook(client, { ticker: "BTC-USD" })).asks[0]?.price; // "65001"
 * ```
 */
export const getOrderbook: RouteAction<GetOrderbookParams, OrderbookResponseObject> = call("getOrderbook");

/**
 * A market's trades, one per taker fill, newest first (oldest first when `page` is sent)
 * (`GET /v4/trades/perpetualMarket/:ticker`).
 *
 * @param client - the indexer client.
 * @param params - the market and paging.
 * @returns `{ trades }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/trades/perpetualMarket/BTC-USD": { trades: [] } }) });
 * (await getTrades(client, { ticker: "BTC-USD" })).trades; // []
 * ```
 */
export const getTrades: RouteAction<GetTradesParams, TradesResponse> = call("getTrades");

/**
 * A market's candles at one resolution, newest first (`GET /v4/candles/perpetualMarkets/:ticker`).
 *
 * @param client - the indexer client.
 * @param params - the market, resolution and time range.
 * @returns `{ candles }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/candles/perpetualMarkets/BTC-USD": { candles: [] } }) });
 * (await getCandles(client, { ticker: "BTC-USD", resolution: "1HOUR" })).candles; // []
 * ```
 */
export const getCandles: RouteAction<GetCandlesParams, CandlesResponse> = call("getCandles");

/**
 * A market's funding rates, newest first (`GET /v4/historicalFunding/:ticker`).
 *
 * @param client - the indexer client.
 * @param params - the market and bounds.
 * @returns `{ historicalFunding }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/historicalFunding/BTC-USD": { historicalFunding: [] } }) });
 * (await getHistoricalFunding(client, { ticker: "BTC-USD" })).historicalFunding; // []
 * ```
 */
export const getHistoricalFunding: RouteAction<GetHistoricalFundingParams, HistoricalFundingResponse> =
  call("getHistoricalFunding");
