/**
 * PnL, trading rewards, funding payments and trade history (`spec/indexer-api.md` 1.6, 1.7 and 1.10).
 */
import type {
  FundingPaymentsResponse,
  HistoricalBlockTradingRewardsResponse,
  HistoricalPnlResponse,
  HistoricalTradingRewardAggregationsResponse,
  PnlResponse,
  TradeHistoryResponse,
} from "@perpx/core/indexer";
import { call, type RouteAction } from "../call.js";
import type {
  GetFundingPaymentsParams,
  GetHistoricalBlockTradingRewardsParams,
  GetHistoricalPnlParams,
  GetHistoricalTradingRewardAggregationsParams,
  GetParentFundingPaymentsParams,
  GetParentHistoricalPnlParams,
  GetParentPnlParams,
  GetParentTradeHistoryParams,
  GetPnlParams,
  GetTradeHistoryParams,
} from "../params.js";

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
 * (await getHistoricalPnl(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).historicalPnl; // []
 * ```
 */
export const getHistoricalPnl: RouteAction<GetHistoricalPnlParams, HistoricalPnlResponse> =
  call("getHistoricalPnl");

/**
 * A parent subaccount's PnL, children summed per hour (`GET /v4/historical-pnl/parentSubaccountNumber`).
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount and bounds.
 * @returns `{ historicalPnl }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/historical-pnl/parentSubaccountNumber": { historicalPnl: [] } }) });
 * (await getParentHistoricalPnl(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).historicalPnl; // []
 * ```
 */
export const getParentHistoricalPnl: RouteAction<GetParentHistoricalPnlParams, HistoricalPnlResponse> =
  call("getParentHistoricalPnl");

/**
 * A subaccount's PnL on the newer route (`GET /v4/pnl`).
 *
 * @param client - the indexer client.
 * @param params - the subaccount, bounds, paging and `daily`.
 * @returns `{ pnl }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/pnl": { pnl: [] } }) });
 * (await getPnl(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).pnl; // []
 * ```
 */
export const getPnl: RouteAction<GetPnlParams, PnlResponse> = call("getPnl");

/**
 * A parent subaccount's PnL on the newer route (`GET /v4/pnl/parentSubaccountNumber`).
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount, bounds, paging and `daily`.
 * @returns `{ pnl }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/pnl/parentSubaccountNumber": { pnl: [] } }) });
 * (await getParentPnl(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).pnl; // []
 * ```
 */
export const getParentPnl: RouteAction<GetParentPnlParams, PnlResponse> = call("getParentPnl");

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
export const getHistoricalTradingRewardAggregations: RouteAction<
  GetHistoricalTradingRewardAggregationsParams,
  HistoricalTradingRewardAggregationsResponse
> = call("getHistoricalTradingRewardAggregations");

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
export const getHistoricalBlockTradingRewards: RouteAction<
  GetHistoricalBlockTradingRewardsParams,
  HistoricalBlockTradingRewardsResponse
> = call("getHistoricalBlockTradingRewards");

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
 * (await getFundingPayments(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).fundingPayments; // []
 * ```
 */
export const getFundingPayments: RouteAction<GetFundingPaymentsParams, FundingPaymentsResponse> =
  call("getFundingPayments");

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
 * (await getParentFundingPayments(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).fundingPayments; // []
 * ```
 */
export const getParentFundingPayments: RouteAction<GetParentFundingPaymentsParams, FundingPaymentsResponse> =
  call("getParentFundingPayments");

/**
 * How each fill changed a subaccount's positions (`GET /v4/tradeHistory`).
 *
 * @param client - the indexer client.
 * @param params - the subaccount, market and paging.
 * @returns `{ tradeHistory }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/tradeHistory": { tradeHistory: [] } }) });
 * (await getTradeHistory(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).tradeHistory; // []
 * ```
 */
export const getTradeHistory: RouteAction<GetTradeHistoryParams, TradeHistoryResponse> =
  call("getTradeHistory");

/**
 * The trade history of every child of a parent subaccount (`GET /v4/tradeHistory/parentSubaccountNumber`).
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount, market and paging.
 * @returns `{ tradeHistory }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/tradeHistory/parentSubaccountNumber": { tradeHistory: [] } }) });
 * (await getParentTradeHistory(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).tradeHistory; // []
 * ```
 */
export const getParentTradeHistory: RouteAction<GetParentTradeHistoryParams, TradeHistoryResponse> =
  call("getParentTradeHistory");
