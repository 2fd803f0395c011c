/**
 * Time, height, health, compliance, vaults, affiliates and trader search
 * (`spec/indexer-api.md` 1.9 and 1.10).
 */
import {
  type AffiliateAddressResponse,
  type AffiliateMetadataResponse,
  type AffiliateSnapshotResponse,
  type AffiliateTotalVolumeResponse,
  type ComplianceScreenResponse,
  type HealthResponse,
  type HeightResponse,
  type MegavaultHistoricalPnlResponse,
  type MegavaultPositionsResponse,
  PNL_TICK_INTERVALS,
  type PnlTickInterval,
  type ScreenResponse,
  type TimeResponse,
  type TraderSearchResponse,
  type VaultsHistoricalPnlResponse,
} from "@perpx/core/indexer";
import { InvalidArgumentError } from "@perpx/errors";
import type { IndexerConnection } from "../connection.js";
import type { CallOptions } from "../deadline.js";
import { callOf } from "../params.js";
import { pathSegment } from "../query.js";
import { checkAddress, checkBoolean, checkLimit, checkOneOf } from "../validate.js";

/**
 * The indexer's clock (`GET /v4/time`): `epoch` is seconds with a fraction.
 *
 * @param client - the indexer client.
 * @param params - call options.
 * @returns `{ iso, epoch }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/time": { iso: "2026-01-01T00:00:00.500Z", epoch: 1767225600.5 } }) });
 * (await getTime(client)).epoch; // 1767225600.5
 * ```
 */
export async function getTime(client: IndexerConnection, params: CallOptions = {}): Promise<TimeResponse> {
  return (await client.get("/v4/time", {}, callOf(params), "object")) as TimeResponse;
}

/**
 * The latest indexed block (`GET /v4/height`).
 *
 * @param client - the indexer client.
 * @param params - call options.
 * @returns `{ height, time }`.
 * @throws IndexerNotFoundError before the first block.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/height": { height: "42", time: "2026-01-01T00:00:00.000Z" } }) });
 * (await getHeight(client)).height; // "42"
 * ```
 */
export async function getHeight(
  client: IndexerConnection,
  params: CallOptions = {},
): Promise<HeightResponse> {
  return (await client.get("/v4/height", {}, callOf(params), "object")) as HeightResponse;
}

/**
 * The indexer's liveness (`GET /health`, outside `/v4`).
 *
 * @param client - the indexer client.
 * @param params - call options.
 * @returns `{ ok: true }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/health": { ok: true } }) });
 * (await getHealth(client)).ok; // true
 * ```
 */
export async function getHealth(
  client: IndexerConnection,
  params: CallOptions = {},
): Promise<HealthResponse> {
  return (await client.get("/health", {}, callOf(params), "object")) as HealthResponse;
}

/**
 * Params of the address-only calls.
 *
 * @example
 * ```ts
 * const params: AddressParams = { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c" };
 * ```
 */
export interface AddressParams extends CallOptions {
  /** The owner: bech32 or `0x` hex. */
  readonly address: string;
}

/**
 * The legacy compliance screen (`GET /v4/screen?address=`).
 *
 * @param client - the indexer client.
 * @param params - the address.
 * @returns `{ restricted, reason? }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/screen": { restricted: false } }) });
 * (await getScreen(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c" })).restricted; // false
 * ```
 */
export async function getScreen(client: IndexerConnection, params: AddressParams): Promise<ScreenResponse> {
  const address = checkAddress("address", params.address, client.addressPrefix);
  return (await client.get("/v4/screen", { address }, callOf(params), "object")) as ScreenResponse;
}

/**
 * An address's compliance status (`GET /v4/compliance/screen/:address`).
 *
 * @param client - the indexer client.
 * @param params - the address.
 * @returns `{ status, reason?, updatedAt? }`.
 * @example
 * ```ts
 * const address = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ [`/v4/compliance/screen/${address}`]: { status: "COMPLIANT" } }) });
 * (await getComplianceScreen(client, { address })).status; // "COMPLIANT"
 * ```
 */
export async function getComplianceScreen(
  client: IndexerConnection,
  params: AddressParams,
): Promise<ComplianceScreenResponse> {
  const address = checkAddress("address", params.address, client.addressPrefix);
  const path = `/v4/compliance/screen/${pathSegment(address)}`;
  return (await client.get(path, {}, callOf(params), "object")) as ComplianceScreenResponse;
}

/**
 * Params of the vault PnL calls.
 *
 * @example
 * ```ts
 * const params: VaultPnlParams = { resolution: "day" };
 * ```
 */
export interface VaultPnlParams extends CallOptions {
  /** Tick interval. @default the server's (`hour`) */
  readonly resolution?: PnlTickInterval;
}

/**
 * The megavault's PnL ticks (`GET /v4/vault/v1/megavault/historicalPnl`).
 *
 * @param client - the indexer client.
 * @param params - the tick interval.
 * @returns `{ megavaultPnl }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/vault/v1/megavault/historicalPnl": { megavaultPnl: [] } }) });
 * (await getMegavaultHistoricalPnl(client)).megavaultPnl; // []
 * ```
 */
export async function getMegavaultHistoricalPnl(
  client: IndexerConnection,
  params: VaultPnlParams = {},
): Promise<MegavaultHistoricalPnlResponse> {
  const query = { resolution: checkOneOf("resolution", params.resolution, PNL_TICK_INTERVALS) };
  const path = "/v4/vault/v1/megavault/historicalPnl";
  return (await client.get(path, query, callOf(params), "object")) as MegavaultHistoricalPnlResponse;
}

/**
 * Every vault's PnL ticks (`GET /v4/vault/v1/vaults/historicalPnl`).
 *
 * @param client - the indexer client.
 * @param params - the tick interval.
 * @returns `{ vaultsPnl }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/vault/v1/vaults/historicalPnl": { vaultsPnl: [] } }) });
 * (await getVaultsHistoricalPnl(client, { resolution: "day" })).vaultsPnl; // []
 * ```
 */
export async function getVaultsHistoricalPnl(
  client: IndexerConnection,
  params: VaultPnlParams = {},
): Promise<VaultsHistoricalPnlResponse> {
  const query = { resolution: checkOneOf("resolution", params.resolution, PNL_TICK_INTERVALS) };
  const path = "/v4/vault/v1/vaults/historicalPnl";
  return (await client.get(path, query, callOf(params), "object")) as VaultsHistoricalPnlResponse;
}

/**
 * The megavault's positions (`GET /v4/vault/v1/megavault/positions`).
 *
 * @param client - the indexer client.
 * @param params - call options.
 * @returns `{ positions }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/vault/v1/megavault/positions": { positions: [] } }) });
 * (await getMegavaultPositions(client)).positions; // []
 * ```
 */
export async function getMegavaultPositions(
  client: IndexerConnection,
  params: CallOptions = {},
): Promise<MegavaultPositionsResponse> {
  const path = "/v4/vault/v1/megavault/positions";
  return (await client.get(path, {}, callOf(params), "object")) as MegavaultPositionsResponse;
}

/**
 * An address's affiliate facts (`GET /v4/affiliates/metadata?address=`).
 *
 * @param client - the indexer client.
 * @param params - the address.
 * @returns `{ referralCode, isVolumeEligible, isAffiliate }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/affiliates/metadata": { referralCode: "alice", isVolumeEligible: false, isAffiliate: true } }) });
 * (await getAffiliateMetadata(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c" })).referralCode; // "alice"
 * ```
 */
export async function getAffiliateMetadata(
  client: IndexerConnection,
  params: AddressParams,
): Promise<AffiliateMetadataResponse> {
  const address = checkAddress("address", params.address, client.addressPrefix);
  return (await client.get(
    "/v4/affiliates/metadata",
    { address },
    callOf(params),
    "object",
  )) as AffiliateMetadataResponse;
}

/**
 * Params of {@link getAffiliateAddress}.
 *
 * @example
 * ```ts
 * const params: GetAffiliateAddressParams = { referralCode: "alice" };
 * ```
 */
export interface GetAffiliateAddressParams extends CallOptions {
  /** The referral code (3 to 32 letters and digits). */
  readonly referralCode: string;
}

/**
 * The address behind a referral code (`GET /v4/affiliates/address?referralCode=`).
 *
 * @param client - the indexer client.
 * @param params - the referral code.
 * @returns `{ address }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/affiliates/address": { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c" } }) });
 * (await getAffiliateAddress(client, { referralCode: "alice" })).address; // "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c"
 * ```
 */
export async function getAffiliateAddress(
  client: IndexerConnection,
  params: GetAffiliateAddressParams,
): Promise<AffiliateAddressResponse> {
  if (typeof params.referralCode !== "string" || !/^[A-Za-z0-9]{3,32}$/.test(params.referralCode)) {
    throw new InvalidArgumentError("referralCode", "must be 3 to 32 letters and digits");
  }
  const query = { referralCode: params.referralCode };
  return (await client.get(
    "/v4/affiliates/address",
    query,
    callOf(params),
    "object",
  )) as AffiliateAddressResponse;
}

/**
 * Params of {@link getAffiliateSnapshot}.
 *
 * @example
 * ```ts
 * const params: GetAffiliateSnapshotParams = { limit: 10, sortByAffiliateEarning: true };
 * ```
 */
export interface GetAffiliateSnapshotParams extends CallOptions {
  /** Only these affiliates. @default undefined (all) */
  readonly addressFilter?: readonly string[];
  /** Rows to skip. @default 0 */
  readonly offset?: number;
  /** At most this many rows, 1..1000. @default the server's */
  readonly limit?: number;
  /** Sort by earnings, highest first. @default false */
  readonly sortByAffiliateEarning?: boolean;
}

/**
 * The affiliate leaderboard (`GET /v4/affiliates/snapshot`); its amounts are JSON numbers.
 *
 * @param client - the indexer client.
 * @param params - filter, offset, limit and sort.
 * @returns `{ affiliateList, total, currentOffset }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/affiliates/snapshot": { affiliateList: [], total: 0, currentOffset: 0 } }) });
 * (await getAffiliateSnapshot(client)).total; // 0
 * ```
 */
export async function getAffiliateSnapshot(
  client: IndexerConnection,
  params: GetAffiliateSnapshotParams = {},
): Promise<AffiliateSnapshotResponse> {
  if (params.offset !== undefined && (!Number.isSafeInteger(params.offset) || params.offset < 0)) {
    throw new InvalidArgumentError("offset", `must be a non-negative integer, got ${String(params.offset)}`);
  }
  const query = {
    addressFilter: params.addressFilter?.map((address) =>
      checkAddress("addressFilter", address, client.addressPrefix),
    ),
    offset: params.offset,
    limit: checkLimit(params.limit),
    sortByAffiliateEarning: checkBoolean("sortByAffiliateEarning", params.sortByAffiliateEarning),
  };
  return (await client.get(
    "/v4/affiliates/snapshot",
    query,
    callOf(params),
    "object",
  )) as AffiliateSnapshotResponse;
}

/**
 * An address's total referred volume (`GET /v4/affiliates/total_volume?address=`).
 *
 * @param client - the indexer client.
 * @param params - the address.
 * @returns `{ totalVolume }` (a number, or null when unknown).
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/affiliates/total_volume": { totalVolume: null } }) });
 * (await getAffiliateTotalVolume(client, { address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c" })).totalVolume; // null
 * ```
 */
export async function getAffiliateTotalVolume(
  client: IndexerConnection,
  params: AddressParams,
): Promise<AffiliateTotalVolumeResponse> {
  const address = checkAddress("address", params.address, client.addressPrefix);
  const path = "/v4/affiliates/total_volume";
  return (await client.get(path, { address }, callOf(params), "object")) as AffiliateTotalVolumeResponse;
}

/**
 * Params of {@link searchTrader}.
 *
 * @example
 * ```ts
 * const params: SearchTraderParams = { searchParam: "alice" };
 * ```
 */
export interface SearchTraderParams extends CallOptions {
  /** An address, subaccount id or username. */
  readonly searchParam: string;
}

/**
 * Finds a trader by address or username (`GET /v4/trader/search?searchParam=`).
 *
 * @param client - the indexer client.
 * @param params - what to search.
 * @returns `{ result? }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/trader/search": {} }) });
 * (await searchTrader(client, { searchParam: "alice" })).result; // undefined
 * ```
 */
export async function searchTrader(
  client: IndexerConnection,
  params: SearchTraderParams,
): Promise<TraderSearchResponse> {
  if (typeof params.searchParam !== "string" || params.searchParam.length === 0) {
    throw new InvalidArgumentError("searchParam", "must be a non-empty string");
  }
  const query = { searchParam: params.searchParam };
  return (await client.get("/v4/trader/search", query, callOf(params), "object")) as TraderSearchResponse;
}
