/**
 * Fills and transfers (`spec/indexer-api.md` 1.4 and 1.5).
 */
import type {
  FillsResponse,
  ParentSubaccountTransfersResponse,
  TransfersBetweenResponse,
  TransfersResponse,
} from "@perpx/core/indexer";
import { call, type RouteAction } from "../call.js";
import type {
  GetFillsParams,
  GetParentFillsParams,
  GetParentTransfersParams,
  GetTransfersBetweenParams,
  GetTransfersParams,
} from "../params.js";

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
 * (await getFills(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).fills; // []
 * ```
 */
export const getFills: RouteAction<GetFillsParams, FillsResponse> = call("getFills");

/**
 * The fills of every child of a parent subaccount (`GET /v4/fills/parentSubaccountNumber`).
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount, filters and paging.
 * @returns `{ fills }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fills/parentSubaccountNumber": { fills: [] } }) });
 * (await getParentFills(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).fills; // []
 * ```
 */
export const getParentFills: RouteAction<GetParentFillsParams, FillsResponse> = call("getParentFills");

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
 * (await getTransfers(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).transfers; // []
 * ```
 */
export const getTransfers: RouteAction<GetTransfersParams, TransfersResponse> = call("getTransfers");

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
 * (await getParentTransfers(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).transfers; // []
 * ```
 */
export const getParentTransfers: RouteAction<GetParentTransfersParams, ParentSubaccountTransfersResponse> =
  call("getParentTransfers");

/**
 * Up to 1000 USDC transfers between two subaccounts, either way, newest first, and the net amount
 * from source to recipient (`GET /v4/transfers/between`).
 *
 * @param client - the indexer client.
 * @param params - the two subaccounts.
 * @returns `{ transfersSubset, totalNetTransfers }`.
 * @example
 * ```ts
 * const owner = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/transfers/between": { transfersSubset: [], totalNetTransfers: "0" } }) });
 * (await getTransfersBetween(client, { source: { owner, number: 0 }, recipient: { owner, number: 1 } })).totalNetTransfers; // "0"
 * ```
 */
export const getTransfersBetween: RouteAction<GetTransfersBetweenParams, TransfersBetweenResponse> =
  call("getTransfersBetween");
