/**
 * Markets: perpetual markets, order books, trades, candles, funding and sparklines
 * (`spec/indexer-api.md` 1.8).
 */
import {
  CANDLE_RESOLUTIONS,
  type CandleResolution,
  type CandlesResponse,
  type HistoricalFundingResponse,
  type OrderbookResponseObject,
  type PerpetualMarketsResponse,
  SPARKLINE_TIME_PERIODS,
  type SparklinesResponse,
  type SparklineTimePeriod,
  type TradesResponse,
} from "@perpx/core/indexer";
import { InvalidArgumentError } from "@perpx/errors";
import type { IndexerConnection } from "../connection.js";
import type { CallOptions } from "../deadline.js";
import { type CreatedBeforeParams, callOf, type LimitParams, listQuery, type PageParams } from "../params.js";
import { pathSegment } from "../query.js";
import {
  checkHeight,
  checkLimit,
  checkOneOf,
  checkTicker,
  checkTime,
  type HeightInput,
  type TimeInput,
} from "../validate.js";

/**
 * Params of {@link getPerpetualMarkets}.
 *
 * @example
 * ```ts
 * const params: GetPerpetualMarketsParams = { ticker: "BTC-USD" };
 * ```
 */
export interface GetPerpetualMarketsParams extends CallOptions, LimitParams {
  /** Only this market (an unknown ticker is a 400). @default undefined (every market) */
  readonly ticker?: string;
}

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
export async function getPerpetualMarkets(
  client: IndexerConnection,
  params: GetPerpetualMarketsParams = {},
): Promise<PerpetualMarketsResponse> {
  const query = {
    ticker: params.ticker === undefined ? undefined : checkTicker("ticker", params.ticker),
    limit: checkLimit(params.limit),
  };
  return (await client.get(
    "/v4/perpetualMarkets",
    query,
    callOf(params),
    "object",
  )) as PerpetualMarketsResponse;
}

/**
 * Params of {@link getOrderbook}.
 *
 * @example
 * ```ts
 * const params: GetOrderbookParams = { ticker: "BTC-USD" };
 * ```
 */
export interface GetOrderbookParams extends CallOptions {
  /** The market. */
  readonly ticker: string;
}

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
export async function getOrderbook(
  client: IndexerConnection,
  params: GetOrderbookParams,
): Promise<OrderbookResponseObject> {
  const ticker = checkTicker("ticker", params.ticker);
  const path = `/v4/orderbooks/perpetualMarket/${pathSegment(ticker)}`;
  return (await client.get(path, {}, callOf(params), "object")) as OrderbookResponseObject;
}

/**
 * Params of {@link getTrades}.
 *
 * @example
 * ```ts
 * const params: GetTradesParams = { ticker: "BTC-USD", limit: 100 };
 * ```
 */
export interface GetTradesParams extends CallOptions, PageParams, CreatedBeforeParams {
  /** The market. */
  readonly ticker: string;
}

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
export async function getTrades(client: IndexerConnection, params: GetTradesParams): Promise<TradesResponse> {
  const ticker = checkTicker("ticker", params.ticker);
  const path = `/v4/trades/perpetualMarket/${pathSegment(ticker)}`;
  return (await client.get(path, listQuery(params), callOf(params), "object")) as TradesResponse;
}

/**
 * Params of {@link getCandles}.
 *
 * @example
 * ```ts
 * const params: GetCandlesParams = { ticker: "BTC-USD", resolution: "1MIN", fromISO: "2026-01-01T00:00:00.000Z" };
 * ```
 */
export interface GetCandlesParams extends CallOptions, LimitParams {
  /** The market. */
  readonly ticker: string;
  /** The candle resolution. */
  readonly resolution: CandleResolution;
  /** Only candles starting at or after this time (inclusive). @default undefined */
  readonly fromISO?: TimeInput;
  /** Only candles starting before this time (exclusive). @default undefined */
  readonly toISO?: TimeInput;
}

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
export async function getCandles(
  client: IndexerConnection,
  params: GetCandlesParams,
): Promise<CandlesResponse> {
  const ticker = checkTicker("ticker", params.ticker);
  const resolution = checkOneOf("resolution", params.resolution, CANDLE_RESOLUTIONS);
  if (resolution === undefined) throw new InvalidArgumentError("resolution", "is required");
  const query = {
    resolution,
    limit: checkLimit(params.limit),
    fromISO: checkTime("fromISO", params.fromISO),
    toISO: checkTime("toISO", params.toISO),
  };
  const path = `/v4/candles/perpetualMarkets/${pathSegment(ticker)}`;
  return (await client.get(path, query, callOf(params), "object")) as CandlesResponse;
}

/**
 * Params of {@link getHistoricalFunding}.
 *
 * @example
 * ```ts
 * const params: GetHistoricalFundingParams = { ticker: "BTC-USD", effectiveBeforeOrAtHeight: 5000 };
 * ```
 */
export interface GetHistoricalFundingParams extends CallOptions, LimitParams {
  /** The market. */
  readonly ticker: string;
  /** Only rates effective at or before this height. @default undefined */
  readonly effectiveBeforeOrAtHeight?: HeightInput;
  /** Only rates effective at or before this time. @default undefined */
  readonly effectiveBeforeOrAt?: TimeInput;
}

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
export async function getHistoricalFunding(
  client: IndexerConnection,
  params: GetHistoricalFundingParams,
): Promise<HistoricalFundingResponse> {
  const ticker = checkTicker("ticker", params.ticker);
  const query = {
    limit: checkLimit(params.limit),
    effectiveBeforeOrAtHeight: checkHeight("effectiveBeforeOrAtHeight", params.effectiveBeforeOrAtHeight),
    effectiveBeforeOrAt: checkTime("effectiveBeforeOrAt", params.effectiveBeforeOrAt),
  };
  const path = `/v4/historicalFunding/${pathSegment(ticker)}`;
  return (await client.get(path, query, callOf(params), "object")) as HistoricalFundingResponse;
}

/**
 * Params of {@link getSparklines}.
 *
 * @example
 * ```ts
 * const params: GetSparklinesParams = { timePeriod: "SEVEN_DAYS" };
 * ```
 */
export interface GetSparklinesParams extends CallOptions {
  /** `ONE_DAY` (hourly closes) or `SEVEN_DAYS` (4-hourly closes). */
  readonly timePeriod: SparklineTimePeriod;
}

/**
 * Recent candle closes of every market, newest first (`GET /v4/sparklines`).
 *
 * @param client - the indexer client.
 * @param params - the period.
 * @returns closes by ticker.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/sparklines": { "BTC-USD": ["65010", "65000"] } }) });
 * (await getSparklines(client, { timePeriod: "ONE_DAY" }))["BTC-USD"]; // ["65010", "65000"]
 * ```
 */
export async function getSparklines(
  client: IndexerConnection,
  params: GetSparklinesParams,
): Promise<SparklinesResponse> {
  const timePeriod = checkOneOf("timePeriod", params.timePeriod, SPARKLINE_TIME_PERIODS);
  if (timePeriod === undefined)
    throw new InvalidArgumentError("timePeriod", "is required (ONE_DAY or SEVEN_DAYS)");
  return (await client.get("/v4/sparklines", { timePeriod }, callOf(params), "object")) as SparklinesResponse;
}
