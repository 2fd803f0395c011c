/**
 * PnL, trading rewards, funding payments and trade history (`spec/indexer-api.md` 1.6, 1.7 and 1.10).
 */
import type { FundingPaymentsResponse, HistoricalPnlResponse } from "@perpx/core/indexer";
import { call, type RouteAction } from "../call.js";
import type { GetFundingPaymentsParams, GetHistoricalPnlParams } from "../params.js";

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
