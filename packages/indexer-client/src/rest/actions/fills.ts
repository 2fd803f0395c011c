/**
 * Fills and transfers (`spec/indexer-api.md` 1.4 and 1.5).
 */
import type { FillsResponse, TransfersResponse } from "@perpx/core/indexer";
import { call, type RouteAction } from "../call.js";
import type { GetFillsParams, GetTransfersParams } from "../params.js";

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
