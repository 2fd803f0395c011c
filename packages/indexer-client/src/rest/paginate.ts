/**
 * Every list of the route table as an async iterator, as one table of rows over `walkBackOf` and
 * `pagesOf`.
 */
import type { FillResponseObject, TradeResponseObject, TransferResponseObject } from "@perpx/core/indexer";
import { getPerpetualPositions } from "./actions/accounts.js";
import { getFills, getTransfers } from "./actions/fills.js";
import { getTrades } from "./actions/markets.js";
import { getFundingPayments, getHistoricalPnl } from "./actions/pnl.js";
import { restActions } from "./actions/tail.js";
import { pagesOf, walkBackOf } from "./iterate.js";

const { getParentFills, getParentTransfers, getPnl, getTradeHistory } = restActions;

const byId = <Row extends { readonly id: string; readonly createdAtHeight: string }>() => ({
  heightOf: (row: Row) => row.createdAtHeight,
  keyOf: (row: Row) => row.id,
});

/**
 * Every list of the route table as an async iterator, each `iterate(client, params)` with the params
 * of its call (without `page`; the `...Pages` ones take `firstPage`, 1 by default) and a method of
 * every client built by `createIndexerClient`. The rows, newest first, walking back by height:
 * `iterateFills`, `iterateTransfers`, `iterateTrades`, `iterateHistoricalPnl`, `iteratePnl`,
 * `iteratePerpetualPositions`. The answers page by page, oldest first as the server pages:
 * `iterateFillPages`, `iterateParentFillPages`, `iterateTransferPages`,
 * `iterateParentTransferPages`, `iterateTradePages`, `iterateHistoricalPnlPages`,
 * `iterateFundingPaymentPages`, `iterateTradeHistoryPages`. Each step fetches when needed and throws
 * the REST call's typed errors.
 *
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fills": { fills: [], pageSize: 10, offset: 0, totalResults: 0 } }) });
 * const owner = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
 * for await (const fill of restIterators.iterateFills(client, { owner, number: 0 })) fill.id;
 * for await (const page of restIterators.iterateFillPages(client, { owner, number: 0, limit: 10 })) page.totalResults;
 * ```
 */
export const restIterators = {
  iterateFills: walkBackOf(getFills, { rowsOf: (answer) => answer.fills, ...byId<FillResponseObject>() }),
  iterateFillPages: pagesOf(getFills, (a) => a.fills),
  iterateParentFillPages: pagesOf(getParentFills, (a) => a.fills),
  iterateTransfers: walkBackOf(getTransfers, {
    rowsOf: (answer) => answer.transfers,
    ...byId<TransferResponseObject>(),
  }),
  iterateTransferPages: pagesOf(getTransfers, (a) => a.transfers),
  iterateParentTransferPages: pagesOf(getParentTransfers, (a) => a.transfers),
  iterateTrades: walkBackOf(getTrades, { rowsOf: (answer) => answer.trades, ...byId<TradeResponseObject>() }),
  iterateTradePages: pagesOf(getTrades, (a) => a.trades),
  iterateHistoricalPnl: walkBackOf(getHistoricalPnl, {
    rowsOf: (answer) => answer.historicalPnl,
    heightOf: (tick) => tick.blockHeight,
    keyOf: (tick) => `${tick.createdAt}/${tick.blockTime}`,
  }),
  iterateHistoricalPnlPages: pagesOf(getHistoricalPnl, (a) => a.historicalPnl),
  iteratePnl: walkBackOf(getPnl, {
    rowsOf: (answer) => answer.pnl,
    heightOf: (tick) => tick.createdAtHeight,
    keyOf: (tick) => tick.createdAt,
  }),
  iteratePerpetualPositions: walkBackOf(getPerpetualPositions, {
    rowsOf: (answer) => answer.positions,
    heightOf: (position) => position.createdAtHeight,
    keyOf: (position) => `${position.market}/${position.createdAt}`,
  }),
  iterateFundingPaymentPages: pagesOf(getFundingPayments, (a) => a.fundingPayments),
  iterateTradeHistoryPages: pagesOf(getTradeHistory, (a) => a.tradeHistory),
} as const;
