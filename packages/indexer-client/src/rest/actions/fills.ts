/**
 * Fills and transfers (`spec/indexer-api.md` 1.4 and 1.5).
 */
import {
  FILL_TYPES,
  type FillsResponse,
  type FillType,
  MARKET_TYPES,
  type MarketType,
  type ParentSubaccountTransfersResponse,
  type TransfersBetweenResponse,
  type TransfersResponse,
} from "@perpx/core/indexer";
import { InvalidArgumentError } from "@perpx/errors";
import type { IndexerConnection } from "../connection.js";
import type { CallOptions } from "../deadline.js";
import {
  type CreatedBeforeParams,
  callOf,
  listQuery,
  type PageParams,
  type ParentSubaccountParams,
  parentQuery,
  type SubaccountParams,
  subaccountQuery,
} from "../params.js";
import {
  checkAddress,
  checkAllOf,
  checkHeight,
  checkOneOf,
  checkSubaccountNumber,
  checkTicker,
  checkTime,
} from "../validate.js";

/**
 * A market filter: `market` with its `marketType` (`PERPETUAL` when omitted; the indexer needs both).
 *
 * @example
 * ```ts
 * const filter: MarketFilter = { market: "BTC-USD" };
 * ```
 */
export interface MarketFilter {
  /** Only this market's rows. @default undefined */
  readonly market?: string;
  /** The market's type; `SPOT` is unsupported by the indexer (404). @default "PERPETUAL" when `market` is set */
  readonly marketType?: MarketType;
}

/**
 * Checked `market` and `marketType` entries.
 *
 * @param params - the filter.
 * @returns the query entries.
 * @throws InvalidArgumentError naming `marketType` when it comes without `market`.
 * @example
 * ```ts
 * marketQuery({ market: "BTC-USD" }); // { market: "BTC-USD", marketType: "PERPETUAL" }
 * ```
 */
export function marketQuery(params: MarketFilter): {
  market: string | undefined;
  marketType: MarketType | undefined;
} {
  if (params.market === undefined) {
    if (params.marketType !== undefined) throw new InvalidArgumentError("marketType", "needs market as well");
    return { market: undefined, marketType: undefined };
  }
  return {
    market: checkTicker("market", params.market),
    marketType: checkOneOf("marketType", params.marketType ?? "PERPETUAL", MARKET_TYPES),
  };
}

/**
 * Params of {@link getFills}.
 *
 * @example
 * ```ts
 * const params: GetFillsParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0, market: "BTC-USD", limit: 100 };
 * ```
 */
export interface GetFillsParams extends SubaccountParams, MarketFilter, PageParams, CreatedBeforeParams {
  /** Only these fill types. @default undefined */
  readonly includeTypes?: readonly FillType[];
  /** Not these fill types. @default undefined */
  readonly excludeTypes?: readonly FillType[];
}

/**
 * A subaccount's fills (`GET /v4/fills`), newest first (oldest first when `page` is sent).
 *
 * @param client - the indexer client.
 * @param params - the subaccount, filters and paging.
 * @returns `{ fills }`, with paging metadata when `page` was sent.
 * @throws IndexerNotFoundError for an unknown market.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fills": { fills: [] } }) });
 * (await getFills(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })).fills; // []
 * ```
 */
export async function getFills(client: IndexerConnection, params: GetFillsParams): Promise<FillsResponse> {
  const query = {
    ...subaccountQuery(client, params),
    ...marketQuery(params),
    includeTypes: checkAllOf("includeTypes", params.includeTypes, FILL_TYPES),
    excludeTypes: checkAllOf("excludeTypes", params.excludeTypes, FILL_TYPES),
    ...listQuery(params),
  };
  return (await client.get("/v4/fills", query, callOf(params), "object")) as FillsResponse;
}

/**
 * Params of {@link getParentFills}.
 *
 * @example
 * ```ts
 * const params: GetParentFillsParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0, page: 1 };
 * ```
 */
export interface GetParentFillsParams extends ParentSubaccountParams, PageParams {
  /** Only these fill types. @default undefined */
  readonly includeTypes?: readonly FillType[];
  /** Not these fill types. @default undefined */
  readonly excludeTypes?: readonly FillType[];
}

/**
 * The fills of every child of a parent subaccount (`GET /v4/fills/parentSubaccountNumber`).
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount, filters and paging.
 * @returns `{ fills }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fills/parentSubaccountNumber": { fills: [] } }) });
 * (await getParentFills(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 })).fills; // []
 * ```
 */
export async function getParentFills(
  client: IndexerConnection,
  params: GetParentFillsParams,
): Promise<FillsResponse> {
  const { limit, page } = listQuery(params);
  const query = {
    ...parentQuery(client, params),
    includeTypes: checkAllOf("includeTypes", params.includeTypes, FILL_TYPES),
    excludeTypes: checkAllOf("excludeTypes", params.excludeTypes, FILL_TYPES),
    limit,
    page,
  };
  return (await client.get(
    "/v4/fills/parentSubaccountNumber",
    query,
    callOf(params),
    "object",
  )) as FillsResponse;
}

/**
 * Params of {@link getTransfers}.
 *
 * @example
 * ```ts
 * const params: GetTransfersParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0, limit: 10 };
 * ```
 */
export interface GetTransfersParams extends SubaccountParams, PageParams, CreatedBeforeParams {}

/**
 * A subaccount's transfers, deposits and withdrawals, newest first (`GET /v4/transfers`).
 *
 * @param client - the indexer client.
 * @param params - the subaccount and paging.
 * @returns `{ transfers }`.
 * @throws IndexerNotFoundError when the subaccount does not exist.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/transfers": { transfers: [] } }) });
 * (await getTransfers(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })).transfers; // []
 * ```
 */
export async function getTransfers(
  client: IndexerConnection,
  params: GetTransfersParams,
): Promise<TransfersResponse> {
  const query = { ...subaccountQuery(client, params), ...listQuery(params) };
  return (await client.get("/v4/transfers", query, callOf(params), "object")) as TransfersResponse;
}

/**
 * Params of {@link getParentTransfers}.
 *
 * @example
 * ```ts
 * const params: GetParentTransfersParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 };
 * ```
 */
export interface GetParentTransfersParams extends ParentSubaccountParams, PageParams, CreatedBeforeParams {}

/**
 * The transfers of a parent subaccount, judged at parent level
 * (`GET /v4/transfers/parentSubaccountNumber`).
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount and paging.
 * @returns `{ transfers }` whose sides carry `parentSubaccountNumber`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/transfers/parentSubaccountNumber": { transfers: [] } }) });
 * (await getParentTransfers(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 })).transfers; // []
 * ```
 */
export async function getParentTransfers(
  client: IndexerConnection,
  params: GetParentTransfersParams,
): Promise<ParentSubaccountTransfersResponse> {
  const query = { ...parentQuery(client, params), ...listQuery(params) };
  const path = "/v4/transfers/parentSubaccountNumber";
  return (await client.get(path, query, callOf(params), "object")) as ParentSubaccountTransfersResponse;
}

/**
 * Params of {@link getTransfersBetween}.
 *
 * @example
 * ```ts
 * const params: GetTransfersBetweenParams = {
 *   sourceAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", sourceSubaccountNumber: 0,
 *   recipientAddress: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", recipientSubaccountNumber: 1,
 * };
 * ```
 */
export interface GetTransfersBetweenParams extends CallOptions, CreatedBeforeParams {
  /** The source owner. */
  readonly sourceAddress: string;
  /** The source subaccount number. */
  readonly sourceSubaccountNumber: number;
  /** The recipient owner. */
  readonly recipientAddress: string;
  /** The recipient subaccount number. */
  readonly recipientSubaccountNumber: number;
}

/**
 * Up to 1000 USDC transfers between two subaccounts, either way, newest first, and the net amount
 * from source to recipient (`GET /v4/transfers/between`).
 *
 * @param client - the indexer client.
 * @param params - the two subaccounts.
 * @returns `{ transfersSubset, totalNetTransfers }`.
 * @example
 * ```ts
 * const address = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/transfers/between": { transfersSubset: [], totalNetTransfers: "0" } }) });
 * const between = await getTransfersBetween(client, {
 *   sourceAddress: address, sourceSubaccountNumber: 0, recipientAddress: address, recipientSubaccountNumber: 1,
 * });
 * between.totalNetTransfers; // "0"
 * ```
 */
export async function getTransfersBetween(
  client: IndexerConnection,
  params: GetTransfersBetweenParams,
): Promise<TransfersBetweenResponse> {
  const query = {
    sourceAddress: checkAddress("sourceAddress", params.sourceAddress, client.addressPrefix),
    sourceSubaccountNumber: checkSubaccountNumber("sourceSubaccountNumber", params.sourceSubaccountNumber),
    recipientAddress: checkAddress("recipientAddress", params.recipientAddress, client.addressPrefix),
    recipientSubaccountNumber: checkSubaccountNumber(
      "recipientSubaccountNumber",
      params.recipientSubaccountNumber,
    ),
    createdBeforeOrAtHeight: checkHeight("createdBeforeOrAtHeight", params.createdBeforeOrAtHeight),
    createdBeforeOrAt: checkTime("createdBeforeOrAt", params.createdBeforeOrAt),
  };
  return (await client.get(
    "/v4/transfers/between",
    query,
    callOf(params),
    "object",
  )) as TransfersBetweenResponse;
}
