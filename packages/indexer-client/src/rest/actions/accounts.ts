/**
 * Subaccounts and positions (`spec/indexer-api.md` 1.1 and 1.2).
 */
import type {
  AddressResponse,
  AssetPositionsResponse,
  PerpetualPositionsResponse,
  SubaccountResponse,
} from "@perpx/core/indexer";
import { call, type RouteAction } from "../call.js";
import type { GetAddressParams, GetPerpetualPositionsParams, GetSubaccountParams } from "../params.js";

/**
 * Every subaccount of an address and its total trading rewards (`GET /v4/addresses/:address`).
 *
 * @param client - the indexer client.
 * @param params - the address.
 * @returns `{ subaccounts, totalTradingRewards }`.
 * @throws IndexerNotFoundError when the address has no subaccount.
 * @example
 * ```ts
 * const address = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
 * const client = createIndexerClient({
 *   baseUrl: "http://indexer.test",
 *   fetch: createStaticFetch({ [`/v4/addresses/${address}`]: { subaccounts: [], totalTradingRewards: "0" } }),
 * });
 * (await getAddress(client, { address })).totalTradingRewards; // "0"
 * ```
 */
export const getAddress: RouteAction<GetAddressParams, AddressResponse> = call("getAddress");

/**
 * One subaccount (`GET /v4/addresses/:address/subaccountNumber/:n`).
 *
 * @param client - the indexer client.
 * @param params - the subaccount `{ owner, number }`.
 * @returns `{ subaccount }`.
 * @throws IndexerNotFoundError when it does not exist.
 * @example
 * ```ts
 * const owner = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
 * const subaccount = {
 *   address: owner, subaccountNumber: 0, equity: "100", freeCollateral: "100", openPerpetualPositions: {}, assetPositions: {},
 *   marginEnabled: true, updatedAtHeight: "5", latestProcessedBlockHeight: "9",
 * };
 * const client = createIndexerClient({
 *   baseUrl: "http://indexer.test",
 *   fetch: createStaticFetch({ [`/v4/addresses/${owner}/subaccountNumber/0`]: { subaccount } }),
 * });
 * (await getSubaccount(client, { owner, number: 0 })).subaccount.equity; // "100"
 * ```
 */
export const getSubaccount: RouteAction<GetSubaccountParams, SubaccountResponse> = call("getSubaccount");

/**
 * A subaccount's perpetual positions, newest opening first (`GET /v4/perpetualPositions`).
 *
 * @param client - the indexer client.
 * @param params - the subaccount and filters.
 * @returns `{ positions }` (empty when none).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/perpetualPositions": { positions: [] } }) });
 * (await getPerpetualPositions(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).positions; // []
 * ```
 */
export const getPerpetualPositions: RouteAction<GetPerpetualPositionsParams, PerpetualPositionsResponse> =
  call("getPerpetualPositions");

/**
 * A subaccount's asset positions (`GET /v4/assetPositions`); USDC is adjusted for unsettled funding.
 *
 * @param client - the indexer client.
 * @param params - the subaccount `{ owner, number }`.
 * @returns `{ positions }`.
 * @throws IndexerNotFoundError when the subaccount does not exist.
 * @example
 * ```ts
 * const usdc = { symbol: "USDC", side: "LONG", size: "100", assetId: "0", subaccountNumber: 0 };
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/assetPositions": { positions: [usdc] } }) });
 * (await getAssetPositions(client, { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 })).positions[0]?.size; // "100"
 * ```
 */
export const getAssetPositions: RouteAction<GetSubaccountParams, AssetPositionsResponse> =
  call("getAssetPositions");
