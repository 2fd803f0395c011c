/**
 * Lists as async iterators: page by page (`page` = 1, 2, ...), or walking back in time by
 * `createdBeforeOrAtHeight` until a page comes back shorter than `limit`, without repeating the
 * rows of the boundary height.
 */
import {
  type FillResponseObject,
  type FillsResponse,
  type FundingPaymentsResponse,
  type HistoricalPnlResponse,
  INDEXER_LIMIT_DEFAULT,
  INDEXER_LIMIT_MAX,
  type PageMetadata,
  type ParentSubaccountTransfersResponse,
  type PerpetualPositionResponseObject,
  type PnlResponse,
  type PnlResponseObject,
  type PnlTicksResponseObject,
  type TradeHistoryResponse,
  type TradeResponseObject,
  type TradesResponse,
  type TransferResponseObject,
  type TransfersResponse,
} from "@perpx/core/indexer";
import { InvalidArgumentError } from "@perpx/errors";
import { type GetPerpetualPositionsParams, getPerpetualPositions } from "./actions/accounts.js";
import {
  type GetFillsParams,
  type GetParentFillsParams,
  type GetParentTransfersParams,
  type GetTransfersParams,
  getFills,
  getParentFills,
  getParentTransfers,
  getTransfers,
} from "./actions/fills.js";
import { type GetTradesParams, getTrades } from "./actions/markets.js";
import {
  type GetFundingPaymentsParams,
  type GetHistoricalPnlParams,
  type GetPnlParams,
  type GetTradeHistoryParams,
  getFundingPayments,
  getHistoricalPnl,
  getPnl,
  getTradeHistory,
} from "./actions/pnl.js";
import type { IndexerConnection } from "./connection.js";
import type { HeightInput } from "./validate.js";

type PagedAction<P, R> = (client: IndexerConnection, params: P) => Promise<R>;

/**
 * Params of a page-by-page iteration: the action's params without `page`, plus where to start.
 *
 * @example
 * ```ts
 * const params: PageIterationParams<{ limit?: number; page?: number }> = { limit: 100, firstPage: 3 };
 * ```
 */
export type PageIterationParams<P> = Omit<P, "page"> & {
  /**
   * The first page to fetch.
   * @default 1
   */
  readonly firstPage?: number;
};

/**
 * Walks a paged list: pages `firstPage`, `firstPage + 1`, ... until one is short of `limit`, empty,
 * or reaches `totalResults`.
 *
 * @param action - the list action (it must accept `page`).
 * @param rowsOf - the rows of one answer.
 * @returns a function `(client, params)` giving an async iterator of the answers.
 * @example
 * ```ts
 * const fillPages = pagesOf(getFills, (answer) => answer.fills);
 * ```
 */
export function pagesOf<
  P extends { readonly limit?: number; readonly page?: number },
  R extends PageMetadata,
>(
  action: PagedAction<P, R>,
  rowsOf: (answer: R) => readonly unknown[],
): (client: IndexerConnection, params: PageIterationParams<P>) => AsyncGenerator<R, void, undefined> {
  return async function* pages(client, params) {
    const { firstPage = 1, ...rest } = params;
    if (!Number.isSafeInteger(firstPage) || firstPage < 1) {
      throw new InvalidArgumentError("firstPage", `must be a positive integer, got ${String(firstPage)}`);
    }
    for (let page = firstPage; ; page++) {
      const answer = await action(client, { ...rest, page } as unknown as P);
      yield answer;
      const rows = rowsOf(answer).length;
      const limit = answer.pageSize ?? (rest as { limit?: number }).limit ?? INDEXER_LIMIT_DEFAULT;
      const offset = answer.offset ?? (page - 1) * limit;
      if (rows === 0 || rows < limit) return;
      if (answer.totalResults !== undefined && offset + rows >= answer.totalResults) return;
    }
  };
}

/**
 * How to walk one list back by height: its rows, each row's height, and a key that tells rows apart.
 *
 * @example
 * ```ts
 * const walk: HeightWalk<{ rows: { id: string; height: string }[] }, { id: string; height: string }> = {
 *   rowsOf: (answer) => answer.rows, heightOf: (row) => row.height, keyOf: (row) => row.id,
 * };
 * walk.keyOf({ id: "a", height: "7" }); // "a"
 * ```
 */
export interface HeightWalk<R, Row> {
  /** The rows of one answer, newest first. */
  readonly rowsOf: (answer: R) => readonly Row[];
  /** A row's block height (decimal text). */
  readonly heightOf: (row: Row) => string;
  /** What tells two rows of one height apart. */
  readonly keyOf: (row: Row) => string;
}

/**
 * Walks a list back in time: asks for rows at or before a height, yields them newest first, then
 * asks again at or before the lowest height seen, skipping the rows of that height it already
 * gave, until an answer has fewer rows than `limit`. When one height fills a whole page, that
 * height is asked again with `limit` 1000; only a height holding more than 1000 rows stops the walk
 * (with an error, rather than skip rows).
 *
 * @param action - the list action (it must accept `createdBeforeOrAtHeight`).
 * @param walk - rows, heights and keys of the list.
 * @returns a function `(client, params)` giving an async iterator of rows.
 * @example
 * ```ts
 * const allFills = walkBackOf(getFills, { rowsOf: (a) => a.fills, heightOf: (f) => f.createdAtHeight, keyOf: (f) => f.id });
 * ```
 */
export function walkBackOf<
  P extends { readonly limit?: number; readonly createdBeforeOrAtHeight?: HeightInput },
  R,
  Row,
>(
  action: PagedAction<P, R>,
  walk: HeightWalk<R, Row>,
): (client: IndexerConnection, params: Omit<P, "page">) => AsyncGenerator<Row, void, undefined> {
  return async function* rows(client, params) {
    let limit = params.limit ?? INDEXER_LIMIT_DEFAULT;
    let cursor: HeightInput | undefined = params.createdBeforeOrAtHeight;
    let boundary: string | undefined;
    let seen = new Set<string>();
    for (;;) {
      const answer = await action(client, { ...params, limit, createdBeforeOrAtHeight: cursor } as P);
      const page = walk.rowsOf(answer);
      let fresh = 0;
      for (const row of page) {
        if (walk.heightOf(row) === boundary && seen.has(walk.keyOf(row))) continue;
        fresh++;
        yield row;
      }
      if (page.length < limit) return;
      const lowest = page.reduce(
        (low, row) => (BigInt(walk.heightOf(row)) < BigInt(low) ? walk.heightOf(row) : low),
        walk.heightOf(page[0] as Row),
      );
      if (lowest === boundary && fresh === 0) {
        // One height fills a whole page: ask again for that height with the largest page.
        if (limit < INDEXER_LIMIT_MAX) {
          limit = INDEXER_LIMIT_MAX;
          continue;
        }
        throw new InvalidArgumentError(
          "limit",
          `more than ${INDEXER_LIMIT_MAX} rows share height ${lowest}; the height cursor cannot get past them`,
        );
      }
      if (lowest !== boundary) seen = new Set();
      for (const row of page) if (walk.heightOf(row) === lowest) seen.add(walk.keyOf(row));
      boundary = lowest;
      cursor = lowest;
    }
  };
}

const byId = <Row extends { readonly id: string; readonly createdAtHeight: string }>() => ({
  heightOf: (row: Row) => row.createdAtHeight,
  keyOf: (row: Row) => row.id,
});

/**
 * A subaccount's fills, all of them, newest first, walking back by height.
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - the query of `GetFillsParams` (each field documented there), without `page`; the
 *   iterator pages itself.
 * @returns an async iterator over the items: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fills": { fills: [] } }) });
 * for await (const fill of iterateFills(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })) fill.id;
 * ```
 */
export const iterateFills: (
  client: IndexerConnection,
  params: Omit<GetFillsParams, "page">,
) => AsyncGenerator<FillResponseObject, void, undefined> = walkBackOf(getFills, {
  rowsOf: (answer: FillsResponse) => answer.fills,
  ...byId<FillResponseObject>(),
});

/**
 * A subaccount's fills page by page (`page` = 1, 2, ...; oldest first, as the server pages).
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - the query of `GetFillsParams` (each field documented there), without `page`; the
 *   iterator pages itself.
 * @returns an async iterator over the pages: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fills": { fills: [], pageSize: 10, offset: 0, totalResults: 0 } }) });
 * for await (const page of iterateFillPages(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0, limit: 10 })) page.totalResults;
 * ```
 */
export const iterateFillPages: (
  client: IndexerConnection,
  params: PageIterationParams<GetFillsParams>,
) => AsyncGenerator<FillsResponse, void, undefined> = pagesOf(getFills, (answer) => answer.fills);

/**
 * The fills of a parent subaccount's children, page by page.
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - the query of `GetParentFillsParams` (each field documented there), without
 *   `page`; the iterator pages itself.
 * @returns an async iterator over the pages: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fills/parentSubaccountNumber": { fills: [] } }) });
 * for await (const page of iterateParentFillPages(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 })) page.fills;
 * ```
 */
export const iterateParentFillPages: (
  client: IndexerConnection,
  params: PageIterationParams<GetParentFillsParams>,
) => AsyncGenerator<FillsResponse, void, undefined> = pagesOf(getParentFills, (answer) => answer.fills);

/**
 * A subaccount's transfers, all of them, newest first, walking back by height.
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - the query of `GetTransfersParams` (each field documented there), without `page`;
 *   the iterator pages itself.
 * @returns an async iterator over the items: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/transfers": { transfers: [] } }) });
 * for await (const transfer of iterateTransfers(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })) transfer.size;
 * ```
 */
export const iterateTransfers: (
  client: IndexerConnection,
  params: Omit<GetTransfersParams, "page">,
) => AsyncGenerator<TransferResponseObject, void, undefined> = walkBackOf(getTransfers, {
  rowsOf: (answer: TransfersResponse) => answer.transfers,
  ...byId<TransferResponseObject>(),
});

/**
 * A subaccount's transfers page by page.
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - the query of `GetTransfersParams` (each field documented there), without `page`;
 *   the iterator pages itself.
 * @returns an async iterator over the pages: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/transfers": { transfers: [] } }) });
 * for await (const page of iterateTransferPages(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })) page.transfers;
 * ```
 */
export const iterateTransferPages: (
  client: IndexerConnection,
  params: PageIterationParams<GetTransfersParams>,
) => AsyncGenerator<TransfersResponse, void, undefined> = pagesOf(getTransfers, (answer) => answer.transfers);

/**
 * A parent subaccount's transfers page by page.
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - the query of `GetParentTransfersParams` (each field documented there), without
 *   `page`; the iterator pages itself.
 * @returns an async iterator over the pages: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/transfers/parentSubaccountNumber": { transfers: [] } }) });
 * for await (const page of iterateParentTransferPages(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 })) page.transfers;
 * ```
 */
export const iterateParentTransferPages: (
  client: IndexerConnection,
  params: PageIterationParams<GetParentTransfersParams>,
) => AsyncGenerator<ParentSubaccountTransfersResponse, void, undefined> = pagesOf(
  getParentTransfers,
  (answer) => answer.transfers,
);

/**
 * A market's trades, all of them, newest first, walking back by height.
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - the query of `GetTradesParams` (each field documented there), without `page`; the
 *   iterator pages itself.
 * @returns an async iterator over the items: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/trades/perpetualMarket/BTC-USD": { trades: [] } }) });
 * for await (const trade of iterateTrades(client, { ticker: "BTC-USD" })) trade.price;
 * ```
 */
export const iterateTrades: (
  client: IndexerConnection,
  params: Omit<GetTradesParams, "page">,
) => AsyncGenerator<TradeResponseObject, void, undefined> = walkBackOf(getTrades, {
  rowsOf: (answer: TradesResponse) => answer.trades,
  ...byId<TradeResponseObject>(),
});

/**
 * A market's trades page by page (oldest first, as the server pages).
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - the query of `GetTradesParams` (each field documented there), without `page`; the
 *   iterator pages itself.
 * @returns an async iterator over the pages: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/trades/perpetualMarket/BTC-USD": { trades: [] } }) });
 * for await (const page of iterateTradePages(client, { ticker: "BTC-USD" })) page.trades;
 * ```
 */
export const iterateTradePages: (
  client: IndexerConnection,
  params: PageIterationParams<GetTradesParams>,
) => AsyncGenerator<TradesResponse, void, undefined> = pagesOf(getTrades, (answer) => answer.trades);

/**
 * A subaccount's PnL ticks, all of them, newest first, walking back by height.
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - the query of `GetHistoricalPnlParams` (each field documented there), without
 *   `page`; the iterator pages itself.
 * @returns an async iterator over the items: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/historical-pnl": { historicalPnl: [] } }) });
 * for await (const tick of iterateHistoricalPnl(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })) tick.equity;
 * ```
 */
export const iterateHistoricalPnl: (
  client: IndexerConnection,
  params: Omit<GetHistoricalPnlParams, "page">,
) => AsyncGenerator<PnlTicksResponseObject, void, undefined> = walkBackOf(getHistoricalPnl, {
  rowsOf: (answer: HistoricalPnlResponse) => answer.historicalPnl,
  heightOf: (tick) => tick.blockHeight,
  keyOf: (tick) => `${tick.createdAt}/${tick.blockTime}`,
});

/**
 * A subaccount's PnL ticks page by page.
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - the query of `GetHistoricalPnlParams` (each field documented there), without
 *   `page`; the iterator pages itself.
 * @returns an async iterator over the pages: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/historical-pnl": { historicalPnl: [] } }) });
 * for await (const page of iterateHistoricalPnlPages(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })) page.historicalPnl;
 * ```
 */
export const iterateHistoricalPnlPages: (
  client: IndexerConnection,
  params: PageIterationParams<GetHistoricalPnlParams>,
) => AsyncGenerator<HistoricalPnlResponse, void, undefined> = pagesOf(
  getHistoricalPnl,
  (answer) => answer.historicalPnl,
);

/**
 * A subaccount's PnL (newer route), all of it, newest first, walking back by height.
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - the query of `GetPnlParams` (each field documented there), without `page`; the
 *   iterator pages itself.
 * @returns an async iterator over the items: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/pnl": { pnl: [] } }) });
 * for await (const tick of iteratePnl(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })) tick.totalPnl;
 * ```
 */
export const iteratePnl: (
  client: IndexerConnection,
  params: Omit<GetPnlParams, "page">,
) => AsyncGenerator<PnlResponseObject, void, undefined> = walkBackOf(getPnl, {
  rowsOf: (answer: PnlResponse) => answer.pnl,
  heightOf: (tick) => tick.createdAtHeight,
  keyOf: (tick) => tick.createdAt,
});

/**
 * A subaccount's perpetual positions, all of them, newest opening first, walking back by height.
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - see `GetPerpetualPositionsParams`: each field is documented there.
 * @returns an async iterator over the items: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/perpetualPositions": { positions: [] } }) });
 * for await (const position of iteratePerpetualPositions(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })) position.market;
 * ```
 */
export const iteratePerpetualPositions: (
  client: IndexerConnection,
  params: GetPerpetualPositionsParams,
) => AsyncGenerator<PerpetualPositionResponseObject, void, undefined> = walkBackOf(getPerpetualPositions, {
  rowsOf: (answer) => answer.positions,
  heightOf: (position) => position.createdAtHeight,
  keyOf: (position) => `${position.market}/${position.createdAt}`,
});

/**
 * A subaccount's funding payments page by page.
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - the query of `GetFundingPaymentsParams` (each field documented there), without
 *   `page`; the iterator pages itself.
 * @returns an async iterator over the pages: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fundingPayments": { fundingPayments: [] } }) });
 * for await (const page of iterateFundingPaymentPages(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })) page.fundingPayments;
 * ```
 */
export const iterateFundingPaymentPages: (
  client: IndexerConnection,
  params: PageIterationParams<GetFundingPaymentsParams>,
) => AsyncGenerator<FundingPaymentsResponse, void, undefined> = pagesOf(
  getFundingPayments,
  (answer) => answer.fundingPayments,
);

/**
 * A subaccount's trade history page by page.
 *
 * @param client - the indexer client (from `createIndexerClient`).
 * @param params - the query of `GetTradeHistoryParams` (each field documented there), without
 *   `page`; the iterator pages itself.
 * @returns an async iterator over the pages: each step fetches the next page when needed; it throws
 *   the REST call's typed errors (`IndexerHttpError`...).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/tradeHistory": { tradeHistory: [] } }) });
 * for await (const page of iterateTradeHistoryPages(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })) page.tradeHistory;
 * ```
 */
export const iterateTradeHistoryPages: (
  client: IndexerConnection,
  params: PageIterationParams<GetTradeHistoryParams>,
) => AsyncGenerator<TradeHistoryResponse, void, undefined> = pagesOf(
  getTradeHistory,
  (answer) => answer.tradeHistory,
);
