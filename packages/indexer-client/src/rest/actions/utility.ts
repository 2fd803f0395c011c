/**
 * Time, height, health, compliance, vaults, affiliates and trader search
 * (`spec/indexer-api.md` 1.9 and 1.10).
 */
import type {
  AffiliateAddressResponse,
  AffiliateMetadataResponse,
  AffiliateSnapshotResponse,
  AffiliateTotalVolumeResponse,
  ComplianceScreenResponse,
  HealthResponse,
  HeightResponse,
  MegavaultHistoricalPnlResponse,
  MegavaultPositionsResponse,
  ScreenResponse,
  TimeResponse,
  TraderSearchResponse,
  VaultsHistoricalPnlResponse,
} from "@perpx/core/indexer";
import { call, type OptionalRouteAction, type RouteAction } from "../call.js";
import type { CallOptions } from "../deadline.js";
import type {
  AddressParams,
  GetAffiliateAddressParams,
  GetAffiliateSnapshotParams,
  SearchTraderParams,
  VaultPnlParams,
} from "../params.js";

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
export const getTime: OptionalRouteAction<CallOptions, TimeResponse> = call("getTime");

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
export const getHeight: OptionalRouteAction<CallOptions, HeightResponse> = call("getHeight");

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
export const getHealth: OptionalRouteAction<CallOptions, HealthResponse> = call("getHealth");

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
export const getScreen: RouteAction<AddressParams, ScreenResponse> = call("getScreen");

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
export const getComplianceScreen: RouteAction<AddressParams, ComplianceScreenResponse> =
  call("getComplianceScreen");

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
export const getMegavaultHistoricalPnl: OptionalRouteAction<VaultPnlParams, MegavaultHistoricalPnlResponse> =
  call("getMegavaultHistoricalPnl");

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
export const getVaultsHistoricalPnl: OptionalRouteAction<VaultPnlParams, VaultsHistoricalPnlResponse> =
  call("getVaultsHistoricalPnl");

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
export const getMegavaultPositions: OptionalRouteAction<CallOptions, MegavaultPositionsResponse> =
  call("getMegavaultPositions");

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
export const getAffiliateMetadata: RouteAction<AddressParams, AffiliateMetadataResponse> =
  call("getAffiliateMetadata");

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
export const getAffiliateAddress: RouteAction<GetAffiliateAddressParams, AffiliateAddressResponse> =
  call("getAffiliateAddress");

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
export const getAffiliateSnapshot: OptionalRouteAction<
  GetAffiliateSnapshotParams,
  AffiliateSnapshotResponse
> = call("getAffiliateSnapshot");

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
export const getAffiliateTotalVolume: RouteAction<AddressParams, AffiliateTotalVolumeResponse> =
  call("getAffiliateTotalVolume");

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
export const searchTrader: RouteAction<SearchTraderParams, TraderSearchResponse> = call("searchTrader");
