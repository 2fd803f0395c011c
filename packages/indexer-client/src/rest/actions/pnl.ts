/**
 * PnL, trading rewards, funding payments and trade history (`spec/indexer-api.md` 1.6, 1.7 and 1.10).
 */
import {
  type FundingPaymentsResponse,
  type HistoricalBlockTradingRewardsResponse,
  type HistoricalPnlResponse,
  type HistoricalTradingRewardAggregationsResponse,
  type PnlResponse,
  TRADING_REWARD_AGGREGATION_PERIODS,
  type TradeHistoryResponse,
  type TradingRewardAggregationPeriod,
} from "@perpx/core/indexer";
import { InvalidArgumentError } from "@perpx/errors";
import type { IndexerConnection } from "../connection.js";
import type { CallOptions } from "../deadline.js";
import {
  afterQuery,
  type CreatedBeforeParams,
  type CreatedOnOrAfterParams,
  callOf,
  type LimitParams,
  listQuery,
  type PageParams,
  type ParentSubaccountParams,
  parentQuery,
  type SubaccountParams,
  subaccountQuery,
} from "../params.js";
import { pathSegment } from "../query.js";
import {
  checkAddress,
  checkBoolean,
  checkHeight,
  checkLimit,
  checkOneOf,
  checkTicker,
  checkTime,
  type HeightInput,
  type TimeInput,
} from "../validate.js";
import { type MarketFilter, marketQuery } from "./fills.js";

/**
 * Params of {@link getHistoricalPnl}.
 *
 * @example
 * ```ts
 * const params: GetHistoricalPnlParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0, createdOnOrAfterHeight: 100 };
 * ```
 */
export interface GetHistoricalPnlParams
  extends SubaccountParams,
    PageParams,
    CreatedBeforeParams,
    CreatedOnOrAfterParams {}

/**
 * A subaccount's PnL ticks, newest first (`GET /v4/historical-pnl`).
 *
 * @param client - the indexer client.
 * @param params - the subaccount, bounds and paging.
 * @returns `{ historicalPnl }`.
 * @throws IndexerNotFoundError when the subaccount does not exist.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/historical-pnl": { historicalPnl: [] } }) });
 * (await getHistoricalPnl(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })).historicalPnl; // []
 * ```
 */
export async function getHistoricalPnl(
  client: IndexerConnection,
  params: GetHistoricalPnlParams,
): Promise<HistoricalPnlResponse> {
  const query = { ...subaccountQuery(client, params), ...listQuery(params), ...afterQuery(params) };
  return (await client.get("/v4/historical-pnl", query, callOf(params), "object")) as HistoricalPnlResponse;
}

/**
 * Params of {@link getParentHistoricalPnl} (no paging on this route).
 *
 * @example
 * ```ts
 * const params: GetParentHistoricalPnlParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 };
 * ```
 */
export interface GetParentHistoricalPnlParams
  extends ParentSubaccountParams,
    LimitParams,
    CreatedBeforeParams,
    CreatedOnOrAfterParams {}

/**
 * A parent subaccount's PnL, children summed per hour (`GET /v4/historical-pnl/parentSubaccountNumber`).
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount and bounds.
 * @returns `{ historicalPnl }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/historical-pnl/parentSubaccountNumber": { historicalPnl: [] } }) });
 * (await getParentHistoricalPnl(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 })).historicalPnl; // []
 * ```
 */
export async function getParentHistoricalPnl(
  client: IndexerConnection,
  params: GetParentHistoricalPnlParams,
): Promise<HistoricalPnlResponse> {
  const { limit, createdBeforeOrAtHeight, createdBeforeOrAt } = listQuery(params);
  const query = {
    ...parentQuery(client, params),
    limit,
    createdBeforeOrAtHeight,
    createdBeforeOrAt,
    ...afterQuery(params),
  };
  const path = "/v4/historical-pnl/parentSubaccountNumber";
  return (await client.get(path, query, callOf(params), "object")) as HistoricalPnlResponse;
}

/**
 * Params of {@link getPnl}.
 *
 * @example
 * ```ts
 * const params: GetPnlParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0, daily: true };
 * ```
 */
export interface GetPnlParams
  extends SubaccountParams,
    PageParams,
    CreatedBeforeParams,
    CreatedOnOrAfterParams {
  /** One tick per day instead of per hour. @default false */
  readonly daily?: boolean;
}

/**
 * A subaccount's PnL on the newer route (`GET /v4/pnl`).
 *
 * @param client - the indexer client.
 * @param params - the subaccount, bounds, paging and `daily`.
 * @returns `{ pnl }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/pnl": { pnl: [] } }) });
 * (await getPnl(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })).pnl; // []
 * ```
 */
export async function getPnl(client: IndexerConnection, params: GetPnlParams): Promise<PnlResponse> {
  const query = {
    ...subaccountQuery(client, params),
    ...listQuery(params),
    ...afterQuery(params),
    daily: checkBoolean("daily", params.daily),
  };
  return (await client.get("/v4/pnl", query, callOf(params), "object")) as PnlResponse;
}

/**
 * Params of {@link getParentPnl}.
 *
 * @example
 * ```ts
 * const params: GetParentPnlParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 };
 * ```
 */
export interface GetParentPnlParams
  extends ParentSubaccountParams,
    PageParams,
    CreatedBeforeParams,
    CreatedOnOrAfterParams {
  /** One tick per day instead of per hour. @default false */
  readonly daily?: boolean;
}

/**
 * A parent subaccount's PnL on the newer route (`GET /v4/pnl/parentSubaccountNumber`).
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount, bounds, paging and `daily`.
 * @returns `{ pnl }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/pnl/parentSubaccountNumber": { pnl: [] } }) });
 * (await getParentPnl(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 })).pnl; // []
 * ```
 */
export async function getParentPnl(
  client: IndexerConnection,
  params: GetParentPnlParams,
): Promise<PnlResponse> {
  const query = {
    ...parentQuery(client, params),
    ...listQuery(params),
    ...afterQuery(params),
    daily: checkBoolean("daily", params.daily),
  };
  return (await client.get("/v4/pnl/parentSubaccountNumber", query, callOf(params), "object")) as PnlResponse;
}

/**
 * The bounds of the trading reward lists.
 *
 * @example
 * ```ts
 * const bounds: TradingRewardBounds = { limit: 30, startingBeforeOrAtHeight: 5000 };
 * ```
 */
export interface TradingRewardBounds extends LimitParams {
  /** Only periods or blocks starting at or before this time. @default undefined */
  readonly startingBeforeOrAt?: TimeInput;
  /** Only periods or blocks starting at or before this height. @default undefined */
  readonly startingBeforeOrAtHeight?: HeightInput;
}

function rewardQuery(params: TradingRewardBounds) {
  return {
    limit: checkLimit(params.limit),
    startingBeforeOrAt: checkTime("startingBeforeOrAt", params.startingBeforeOrAt),
    startingBeforeOrAtHeight: checkHeight("startingBeforeOrAtHeight", params.startingBeforeOrAtHeight),
  };
}

/**
 * Params of {@link getHistoricalTradingRewardAggregations}.
 *
 * @example
 * ```ts
 * const params: GetHistoricalTradingRewardAggregationsParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", period: "DAILY" };
 * ```
 */
export interface GetHistoricalTradingRewardAggregationsParams extends CallOptions, TradingRewardBounds {
  /** The owner. */
  readonly address: string;
  /** The aggregation period. */
  readonly period: TradingRewardAggregationPeriod;
}

/**
 * An address's trading rewards per period, newest first
 * (`GET /v4/historicalTradingRewardAggregations/:address`).
 *
 * @param client - the indexer client.
 * @param params - the address, period and bounds.
 * @returns `{ rewards }`.
 * @example
 * ```ts
 * const address = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ [`/v4/historicalTradingRewardAggregations/${address}`]: { rewards: [] } }) });
 * (await getHistoricalTradingRewardAggregations(client, { address, period: "DAILY" })).rewards; // []
 * ```
 */
export async function getHistoricalTradingRewardAggregations(
  client: IndexerConnection,
  params: GetHistoricalTradingRewardAggregationsParams,
): Promise<HistoricalTradingRewardAggregationsResponse> {
  const address = checkAddress("address", params.address, client.addressPrefix);
  const period = checkOneOf("period", params.period, TRADING_REWARD_AGGREGATION_PERIODS);
  if (period === undefined)
    throw new InvalidArgumentError("period", "is required (DAILY, WEEKLY or MONTHLY)");
  const path = `/v4/historicalTradingRewardAggregations/${pathSegment(address)}`;
  return (await client.get(
    path,
    { period, ...rewardQuery(params) },
    callOf(params),
    "object",
  )) as HistoricalTradingRewardAggregationsResponse;
}

/**
 * Params of {@link getHistoricalBlockTradingRewards}.
 *
 * @example
 * ```ts
 * const params: GetHistoricalBlockTradingRewardsParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", limit: 10 };
 * ```
 */
export interface GetHistoricalBlockTradingRewardsParams extends CallOptions, TradingRewardBounds {
  /** The owner. */
  readonly address: string;
}

/**
 * An address's trading rewards per block, newest first (`GET /v4/historicalBlockTradingRewards/:address`).
 *
 * @param client - the indexer client.
 * @param params - the address and bounds.
 * @returns `{ rewards }`.
 * @example
 * ```ts
 * const address = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ [`/v4/historicalBlockTradingRewards/${address}`]: { rewards: [] } }) });
 * (await getHistoricalBlockTradingRewards(client, { address })).rewards; // []
 * ```
 */
export async function getHistoricalBlockTradingRewards(
  client: IndexerConnection,
  params: GetHistoricalBlockTradingRewardsParams,
): Promise<HistoricalBlockTradingRewardsResponse> {
  const address = checkAddress("address", params.address, client.addressPrefix);
  const path = `/v4/historicalBlockTradingRewards/${pathSegment(address)}`;
  return (await client.get(
    path,
    rewardQuery(params),
    callOf(params),
    "object",
  )) as HistoricalBlockTradingRewardsResponse;
}

/**
 * Filters of the funding payment lists.
 *
 * @example
 * ```ts
 * const filters: FundingPaymentFilters = { ticker: "BTC-USD", showZeroPayments: true };
 * ```
 */
export interface FundingPaymentFilters extends PageParams {
  /** Only this market. @default undefined */
  readonly ticker?: string;
  /** Only payments at or after this time. @default undefined */
  readonly createdOnOrAfter?: TimeInput;
  /**
   * Include zero payments. `false` sends nothing: the server includes zero payments whenever the
   * parameter is present, whatever its value. @default false (the server's default)
   */
  readonly showZeroPayments?: boolean;
}

function fundingQuery(params: FundingPaymentFilters) {
  const { limit, page } = listQuery(params);
  return {
    limit,
    page,
    ticker: params.ticker === undefined ? undefined : checkTicker("ticker", params.ticker),
    createdOnOrAfter: checkTime("createdOnOrAfter", params.createdOnOrAfter),
    showZeroPayments: checkBoolean("showZeroPayments", params.showZeroPayments) === true ? true : undefined,
  };
}

/**
 * Params of {@link getFundingPayments}.
 *
 * @example
 * ```ts
 * const params: GetFundingPaymentsParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 };
 * ```
 */
export interface GetFundingPaymentsParams extends SubaccountParams, FundingPaymentFilters {}

/**
 * A subaccount's funding payments, newest first (`GET /v4/fundingPayments`). Note that each
 * payment's `subaccountNumber` is a string.
 *
 * @param client - the indexer client.
 * @param params - the subaccount and filters.
 * @returns `{ fundingPayments }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fundingPayments": { fundingPayments: [] } }) });
 * (await getFundingPayments(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })).fundingPayments; // []
 * ```
 */
export async function getFundingPayments(
  client: IndexerConnection,
  params: GetFundingPaymentsParams,
): Promise<FundingPaymentsResponse> {
  const query = { ...subaccountQuery(client, params), ...fundingQuery(params) };
  return (await client.get(
    "/v4/fundingPayments",
    query,
    callOf(params),
    "object",
  )) as FundingPaymentsResponse;
}

/**
 * Params of {@link getParentFundingPayments}.
 *
 * @example
 * ```ts
 * const params: GetParentFundingPaymentsParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 };
 * ```
 */
export interface GetParentFundingPaymentsParams extends ParentSubaccountParams, FundingPaymentFilters {}

/**
 * A parent subaccount's funding payments (`GET /v4/fundingPayments/parentSubaccount`: this route
 * alone says `parentSubaccount`).
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount and filters.
 * @returns `{ fundingPayments }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fundingPayments/parentSubaccount": { fundingPayments: [] } }) });
 * (await getParentFundingPayments(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 })).fundingPayments; // []
 * ```
 */
export async function getParentFundingPayments(
  client: IndexerConnection,
  params: GetParentFundingPaymentsParams,
): Promise<FundingPaymentsResponse> {
  const query = { ...parentQuery(client, params), ...fundingQuery(params) };
  const path = "/v4/fundingPayments/parentSubaccount";
  return (await client.get(path, query, callOf(params), "object")) as FundingPaymentsResponse;
}

/**
 * Params of {@link getTradeHistory}.
 *
 * @example
 * ```ts
 * const params: GetTradeHistoryParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0, market: "BTC-USD" };
 * ```
 */
export interface GetTradeHistoryParams extends SubaccountParams, MarketFilter, PageParams {}

/**
 * How each fill changed a subaccount's positions (`GET /v4/tradeHistory`).
 *
 * @param client - the indexer client.
 * @param params - the subaccount, market and paging.
 * @returns `{ tradeHistory }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/tradeHistory": { tradeHistory: [] } }) });
 * (await getTradeHistory(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })).tradeHistory; // []
 * ```
 */
export async function getTradeHistory(
  client: IndexerConnection,
  params: GetTradeHistoryParams,
): Promise<TradeHistoryResponse> {
  const { limit, page } = listQuery(params);
  const query = { ...subaccountQuery(client, params), ...marketQuery(params), limit, page };
  return (await client.get("/v4/tradeHistory", query, callOf(params), "object")) as TradeHistoryResponse;
}

/**
 * Params of {@link getParentTradeHistory}.
 *
 * @example
 * ```ts
 * const params: GetParentTradeHistoryParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 };
 * ```
 */
export interface GetParentTradeHistoryParams extends ParentSubaccountParams, MarketFilter, PageParams {}

/**
 * The trade history of every child of a parent subaccount (`GET /v4/tradeHistory/parentSubaccountNumber`).
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount, market and paging.
 * @returns `{ tradeHistory }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/tradeHistory/parentSubaccountNumber": { tradeHistory: [] } }) });
 * (await getParentTradeHistory(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 })).tradeHistory; // []
 * ```
 */
export async function getParentTradeHistory(
  client: IndexerConnection,
  params: GetParentTradeHistoryParams,
): Promise<TradeHistoryResponse> {
  const { limit, page } = listQuery(params);
  const query = { ...parentQuery(client, params), ...marketQuery(params), limit, page };
  const path = "/v4/tradeHistory/parentSubaccountNumber";
  return (await client.get(path, query, callOf(params), "object")) as TradeHistoryResponse;
}
