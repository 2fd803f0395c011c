/**
 * Every list of the route table as an async iterator: the rows newest first, walking back by height
 * (the rows' lists), or the answers page by page (`...Pages`, oldest first as the server pages).
 * Each step fetches when needed and throws the REST call's typed errors.
 */
import type { FillResponseObject, TradeResponseObject, TransferResponseObject } from "@perpx/core/indexer";
import { getPerpetualPositions } from "./actions/accounts.js";
import { getFills, getParentFills, getParentTransfers, getTransfers } from "./actions/fills.js";
import { getTrades } from "./actions/markets.js";
import { getFundingPayments, getHistoricalPnl, getPnl, getTradeHistory } from "./actions/pnl.js";
import { pagesOf, walkBackOf } from "./iterate.js";

const byId = <Row extends { readonly id: string; readonly createdAtHeight: string }>() => ({
  heightOf: (row: Row) => row.createdAtHeight,
  keyOf: (row: Row) => row.id,
});

/**
 * A subaccount's fills, all of them, newest first.
 *
 * @param client - the indexer client.
 * @param params - those of `getFills`, without `page`.
 * @returns an async iterator over the fills.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fills": { fills: [] } }) });
 * for await (const fill of iterateFills(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })) fill.id;
 * ```
 */
export const iterateFills = walkBackOf(getFills, {
  rowsOf: (answer) => answer.fills,
  ...byId<FillResponseObject>(),
});

/**
 * A subaccount's fills page by page.
 *
 * @param client - the indexer client.
 * @param params - those of `getFills` without `page`, and `firstPage` (1 by default).
 * @returns an async iterator over the answers.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fills": { fills: [], pageSize: 10, offset: 0, totalResults: 0 } }) });
 * for await (const page of iterateFillPages(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0, limit: 10 })) page.totalResults;
 * ```
 */
export const iterateFillPages = pagesOf(getFills, (a) => a.fills);

/**
 * The fills of a parent subaccount's children, page by page.
 *
 * @param client - the indexer client.
 * @param params - those of `getParentFills` without `page`, and `firstPage`.
 * @returns an async iterator over the answers.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fills/parentSubaccountNumber": { fills: [] } }) });
 * for await (const page of iterateParentFillPages(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })) page.fills;
 * ```
 */
export const iterateParentFillPages = pagesOf(getParentFills, (a) => a.fills);

/**
 * A subaccount's transfers, all of them, newest first.
 *
 * @param client - the indexer client.
 * @param params - those of `getTransfers`, without `page`.
 * @returns an async iterator over the transfers.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/transfers": { transfers: [] } }) });
 * for await (const transfer of iterateTransfers(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })) transfer.size;
 * ```
 */
export const iterateTransfers = walkBackOf(getTransfers, {
  rowsOf: (answer) => answer.transfers,
  ...byId<TransferResponseObject>(),
});

/**
 * A subaccount's transfers page by page.
 *
 * @param client - the indexer client.
 * @param params - those of `getTransfers` without `page`, and `firstPage`.
 * @returns an async iterator over the answers.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/transfers": { transfers: [] } }) });
 * for await (const page of iterateTransferPages(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })) page.transfers;
 * ```
 */
export const iterateTransferPages = pagesOf(getTransfers, (a) => a.transfers);

/**
 * A parent subaccount's transfers page by page.
 *
 * @param client - the indexer client.
 * @param params - those of `getParentTransfers` without `page`, and `firstPage`.
 * @returns an async iterator over the answers.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/transfers/parentSubaccountNumber": { transfers: [] } }) });
 * for await (const page of iterateParentTransferPages(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })) page.transfers;
 * ```
 */
export const iterateParentTransferPages = pagesOf(getParentTransfers, (a) => a.transfers);

/**
 * A market's trades, all of them, newest first.
 *
 * @param client - the indexer client.
 * @param params - those of `getTrades`, without `page`.
 * @returns an async iterator over the trades.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/trades/perpetualMarket/BTC-USD": { trades: [] } }) });
 * for await (const trade of iterateTrades(client, { ticker: "BTC-USD" })) trade.price;
 * ```
 */
export const iterateTrades = walkBackOf(getTrades, {
  rowsOf: (answer) => answer.trades,
  ...byId<TradeResponseObject>(),
});

/**
 * A market's trades page by page.
 *
 * @param client - the indexer client.
 * @param params - those of `getTrades` without `page`, and `firstPage`.
 * @returns an async iterator over the answers.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/trades/perpetualMarket/BTC-USD": { trades: [] } }) });
 * for await (const page of iterateTradePages(client, { ticker: "BTC-USD" })) page.trades;
 * ```
 */
export const iterateTradePages = pagesOf(getTrades, (a) => a.trades);

/**
 * A subaccount's PnL ticks, all of them, newest first.
 *
 * @param client - the indexer client.
 * @param params - those of `getHistoricalPnl`, without `page`.
 * @returns an async iterator over the ticks.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/historical-pnl": { historicalPnl: [] } }) });
 * for await (const tick of iterateHistoricalPnl(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })) tick.equity;
 * ```
 */
export const iterateHistoricalPnl = walkBackOf(getHistoricalPnl, {
  rowsOf: (answer) => answer.historicalPnl,
  heightOf: (tick) => tick.blockHeight,
  keyOf: (tick) => `${tick.createdAt}/${tick.blockTime}`,
});

/**
 * A subaccount's PnL ticks page by page.
 *
 * @param client - the indexer client.
 * @param params - those of `getHistoricalPnl` without `page`, and `firstPage`.
 * @returns an async iterator over the answers.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/historical-pnl": { historicalPnl: [] } }) });
 * for await (const page of iterateHistoricalPnlPages(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })) page.historicalPnl;
 * ```
 */
export const iterateHistoricalPnlPages = pagesOf(getHistoricalPnl, (a) => a.historicalPnl);

/**
 * A subaccount's PnL (newer route), all of it, newest first.
 *
 * @param client - the indexer client.
 * @param params - those of `getPnl`, without `page`.
 * @returns an async iterator over the ticks.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/pnl": { pnl: [] } }) });
 * for await (const tick of iteratePnl(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })) tick.totalPnl;
 * ```
 */
export const iteratePnl = walkBackOf(getPnl, {
  rowsOf: (answer) => answer.pnl,
  heightOf: (tick) => tick.createdAtHeight,
  keyOf: (tick) => tick.createdAt,
});

/**
 * A subaccount's perpetual positions, all of them, newest opening first.
 *
 * @param client - the indexer client.
 * @param params - those of `getPerpetualPositions`.
 * @returns an async iterator over the positions.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/perpetualPositions": { positions: [] } }) });
 * for await (const position of iteratePerpetualPositions(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })) position.market;
 * ```
 */
export const iteratePerpetualPositions = walkBackOf(getPerpetualPositions, {
  rowsOf: (answer) => answer.positions,
  heightOf: (position) => position.createdAtHeight,
  keyOf: (position) => `${position.market}/${position.createdAt}`,
});

/**
 * A subaccount's funding payments page by page.
 *
 * @param client - the indexer client.
 * @param params - those of `getFundingPayments` without `page`, and `firstPage`.
 * @returns an async iterator over the answers.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fundingPayments": { fundingPayments: [] } }) });
 * for await (const page of iterateFundingPaymentPages(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })) page.fundingPayments;
 * ```
 */
export const iterateFundingPaymentPages = pagesOf(getFundingPayments, (a) => a.fundingPayments);

/**
 * A subaccount's trade history page by page.
 *
 * @param client - the indexer client.
 * @param params - those of `getTradeHistory` without `page`, and `firstPage`.
 * @returns an async iterator over the answers.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/tradeHistory": { tradeHistory: [] } }) });
 * for await (const page of iterateTradeHistoryPages(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })) page.tradeHistory;
 * ```
 */
export const iterateTradeHistoryPages = pagesOf(getTradeHistory, (a) => a.tradeHistory);
