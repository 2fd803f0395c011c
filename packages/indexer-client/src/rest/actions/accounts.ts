/**
 * Subaccounts and positions (`spec/indexer-api.md` 1.1 and 1.2).
 */
import {
  type AddressResponse,
  type AssetPositionsResponse,
  type ParentSubaccountResponse,
  PERPETUAL_POSITION_STATUSES,
  type PerpetualPositionStatus,
  type PerpetualPositionsResponse,
  type SubaccountResponse,
} from "@perpx/core/indexer";
import type { IndexerConnection } from "../connection.js";
import type { CallOptions } from "../deadline.js";
import {
  type CreatedBeforeParams,
  callOf,
  type LimitParams,
  listQuery,
  type ParentSubaccountParams,
  parentQuery,
  type SubaccountParams,
  subaccountQuery,
} from "../params.js";
import { pathSegment } from "../query.js";
import { checkAddress, checkAllOf } from "../validate.js";

/**
 * Params of {@link getAddress}.
 *
 * @example
 * ```ts
 * const params: GetAddressParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c" };
 * ```
 */
export interface GetAddressParams extends CallOptions {
  /** The owner: bech32 or `0x` hex. */
  readonly address: string;
}

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
export async function getAddress(
  client: IndexerConnection,
  params: GetAddressParams,
): Promise<AddressResponse> {
  const address = checkAddress("address", params.address, client.addressPrefix);
  return (await client.get(
    `/v4/addresses/${pathSegment(address)}`,
    {},
    callOf(params),
    "object",
  )) as AddressResponse;
}

/**
 * One subaccount (`GET /v4/addresses/:address/subaccountNumber/:n`).
 *
 * @param client - the indexer client.
 * @param params - the subaccount.
 * @returns `{ subaccount }`.
 * @throws IndexerNotFoundError when it does not exist.
 * @example
 * ```ts
 * const address = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
 * const subaccount = {
 *   address, subaccountNumber: 0, equity: "100", freeCollateral: "100", openPerpetualPositions: {}, assetPositions: {},
 *   marginEnabled: true, updatedAtHeight: "5", latestProcessedBlockHeight: "9",
 * };
 * const client = createIndexerClient({
 *   baseUrl: "http://indexer.test",
 *   fetch: createStaticFetch({ [`/v4/addresses/${address}/subaccountNumber/0`]: { subaccount } }),
 * });
 * (await getSubaccount(client, { address, subaccountNumber: 0 })).subaccount.equity; // "100"
 * ```
 */
export async function getSubaccount(
  client: IndexerConnection,
  params: SubaccountParams,
): Promise<SubaccountResponse> {
  const { address, subaccountNumber } = subaccountQuery(client, params);
  const path = `/v4/addresses/${pathSegment(address)}/subaccountNumber/${subaccountNumber}`;
  return (await client.get(path, {}, callOf(params), "object")) as SubaccountResponse;
}

/**
 * A parent subaccount with its existing children, equity and free collateral summed
 * (`GET /v4/addresses/:address/parentSubaccountNumber/:n`).
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount.
 * @returns `{ subaccount }`.
 * @throws IndexerNotFoundError when no child exists.
 * @example
 * ```ts
 * const address = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
 * const subaccount = { address, parentSubaccountNumber: 0, equity: "0", freeCollateral: "0", childSubaccounts: [] };
 * const client = createIndexerClient({
 *   baseUrl: "http://indexer.test",
 *   fetch: createStaticFetch({ [`/v4/addresses/${address}/parentSubaccountNumber/0`]: { subaccount } }),
 * });
 * (await getParentSubaccount(client, { address, parentSubaccountNumber: 0 })).subaccount.childSubaccounts; // []
 * ```
 */
export async function getParentSubaccount(
  client: IndexerConnection,
  params: ParentSubaccountParams,
): Promise<ParentSubaccountResponse> {
  const { address, parentSubaccountNumber } = parentQuery(client, params);
  const path = `/v4/addresses/${pathSegment(address)}/parentSubaccountNumber/${parentSubaccountNumber}`;
  return (await client.get(path, {}, callOf(params), "object")) as ParentSubaccountResponse;
}

/**
 * Filters of the perpetual position lists.
 *
 * @example
 * ```ts
 * const filters: PerpetualPositionFilters = { status: ["OPEN"], limit: 10 };
 * ```
 */
export interface PerpetualPositionFilters extends LimitParams, CreatedBeforeParams {
  /**
   * Only positions with these statuses.
   * @default undefined (every status)
   */
  readonly status?: readonly PerpetualPositionStatus[];
}

/**
 * Params of {@link getPerpetualPositions}.
 *
 * @example
 * ```ts
 * const params: GetPerpetualPositionsParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0, status: ["CLOSED"] };
 * ```
 */
export interface GetPerpetualPositionsParams extends SubaccountParams, PerpetualPositionFilters {}

function positionFilters(params: PerpetualPositionFilters) {
  const { limit, createdBeforeOrAtHeight, createdBeforeOrAt } = listQuery(params);
  return {
    status: checkAllOf("status", params.status, PERPETUAL_POSITION_STATUSES),
    limit,
    createdBeforeOrAtHeight,
    createdBeforeOrAt,
  };
}

/**
 * A subaccount's perpetual positions, newest opening first (`GET /v4/perpetualPositions`).
 *
 * @param client - the indexer client.
 * @param params - the subaccount and filters.
 * @returns `{ positions }` (empty when none).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/perpetualPositions": { positions: [] } }) });
 * (await getPerpetualPositions(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })).positions; // []
 * ```
 */
export async function getPerpetualPositions(
  client: IndexerConnection,
  params: GetPerpetualPositionsParams,
): Promise<PerpetualPositionsResponse> {
  const query = { ...subaccountQuery(client, params), ...positionFilters(params) };
  return (await client.get(
    "/v4/perpetualPositions",
    query,
    callOf(params),
    "object",
  )) as PerpetualPositionsResponse;
}

/**
 * Params of {@link getParentPerpetualPositions}.
 *
 * @example
 * ```ts
 * const params: GetParentPerpetualPositionsParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 };
 * ```
 */
export interface GetParentPerpetualPositionsParams extends ParentSubaccountParams, PerpetualPositionFilters {}

/**
 * The perpetual positions of every child of a parent subaccount
 * (`GET /v4/perpetualPositions/parentSubaccountNumber`); each carries its child's number.
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount and filters.
 * @returns `{ positions }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/perpetualPositions/parentSubaccountNumber": { positions: [] } }) });
 * (await getParentPerpetualPositions(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 })).positions; // []
 * ```
 */
export async function getParentPerpetualPositions(
  client: IndexerConnection,
  params: GetParentPerpetualPositionsParams,
): Promise<PerpetualPositionsResponse> {
  const query = { ...parentQuery(client, params), ...positionFilters(params) };
  const path = "/v4/perpetualPositions/parentSubaccountNumber";
  return (await client.get(path, query, callOf(params), "object")) as PerpetualPositionsResponse;
}

/**
 * A subaccount's asset positions (`GET /v4/assetPositions`); USDC is adjusted for unsettled funding.
 *
 * @param client - the indexer client.
 * @param params - the subaccount.
 * @returns `{ positions }`.
 * @throws IndexerNotFoundError when the subaccount does not exist.
 * @example
 * ```ts
 * const usdc = { symbol: "USDC", side: "LONG", size: "100", assetId: "0", subaccountNumber: 0 };
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/assetPositions": { positions: [usdc] } }) });
 * (await getAssetPositions(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", subaccountNumber: 0 })).positions[0]?.size; // "100"
 * ```
 */
export async function getAssetPositions(
  client: IndexerConnection,
  params: SubaccountParams,
): Promise<AssetPositionsResponse> {
  return (await client.get(
    "/v4/assetPositions",
    subaccountQuery(client, params),
    callOf(params),
    "object",
  )) as AssetPositionsResponse;
}

/**
 * The asset positions of every child of a parent subaccount, as one flat list
 * (`GET /v4/assetPositions/parentSubaccountNumber`).
 *
 * @param client - the indexer client.
 * @param params - the parent subaccount.
 * @returns `{ positions }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/assetPositions/parentSubaccountNumber": { positions: [] } }) });
 * (await getParentAssetPositions(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", parentSubaccountNumber: 0 })).positions; // []
 * ```
 */
export async function getParentAssetPositions(
  client: IndexerConnection,
  params: ParentSubaccountParams,
): Promise<AssetPositionsResponse> {
  return (await client.get(
    "/v4/assetPositions/parentSubaccountNumber",
    parentQuery(client, params),
    callOf(params),
    "object",
  )) as AssetPositionsResponse;
}
