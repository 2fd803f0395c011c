import { affiliates } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { bech32Address, checkParams } from "../messages/validate.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

/**
 * Parameters of the affiliate queries about one account.
 *
 * @example
 * ```ts
 * await getAffiliateInfo(client, { address: wallet.address });
 * ```
 */
export interface AffiliateAccountParams extends QueryOptions {
  /** The account (bech32). */
  address: string;
}

/**
 * An account's affiliate standing: whitelisted, tier, fee share, volumes (SerializableInt bytes;
 * {@link affiliateAmounts} reads them as bigints).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`AffiliateAccountParams`: each field is documented there), with the
 *   call options `signal` and `timeoutMs`.
 * @returns resolves with an account's affiliate standing: whitelisted, tier, fee share, volumes
 *   (SerializableInt bytes; reads them as bigints); rejects with `QueryError` when the node refuses
 *   the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const info = await getAffiliateInfo(client, { address: wallet.address });
 * info.feeSharePpm;
 * ```
 */
export async function getAffiliateInfo(
  client: NodeConnection,
  params: AffiliateAccountParams,
): Promise<affiliates.AffiliateInfoResponse> {
  checkParams(params, "getAffiliateInfo");
  return unaryQuery(client, {
    ...params,
    method: affiliates.Query.method.affiliateInfo,
    request: { address: bech32Address(params.address) },
  });
}

/**
 * The affiliate who referred an account (`""` when none).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`AffiliateAccountParams`: each field is documented there), with the
 *   call options `signal` and `timeoutMs`.
 * @returns resolves with the affiliate who referred an account (`""` when none); rejects with
 *   `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const affiliate = await getReferredBy(client, { address: wallet.address });
 * ```
 */
export async function getReferredBy(client: NodeConnection, params: AffiliateAccountParams): Promise<string> {
  checkParams(params, "getReferredBy");
  return (
    await unaryQuery(client, {
      ...params,
      method: affiliates.Query.method.referredBy,
      request: { address: bech32Address(params.address) },
    })
  ).affiliateAddress;
}

/**
 * The affiliate tiers.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the affiliate tiers; rejects with `QueryError` when the node refuses the
 *   query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const tiers = await getAffiliateTiers(client);
 * ```
 */
export async function getAffiliateTiers(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<affiliates.AffiliateTiers | undefined> {
  checkParams(params, "getAffiliateTiers", true);
  return (
    await unaryQuery(client, { ...params, method: affiliates.Query.method.allAffiliateTiers, request: {} })
  ).tiers;
}

/**
 * The affiliate whitelist.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the affiliate whitelist; rejects with `QueryError` when the node refuses
 *   the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const whitelist = await getAffiliateWhitelist(client);
 * ```
 */
export async function getAffiliateWhitelist(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<affiliates.AffiliateWhitelist | undefined> {
  checkParams(params, "getAffiliateWhitelist", true);
  return (
    await unaryQuery(client, { ...params, method: affiliates.Query.method.affiliateWhitelist, request: {} })
  ).whitelist;
}

/**
 * The affiliate parameters (30-day caps per referred user).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the affiliate parameters (30-day caps per referred user); rejects with
 *   `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const parameters = await getAffiliateParameters(client);
 * ```
 */
export async function getAffiliateParameters(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<affiliates.AffiliateParameters | undefined> {
  checkParams(params, "getAffiliateParameters", true);
  return (
    await unaryQuery(client, { ...params, method: affiliates.Query.method.affiliateParameters, request: {} })
  ).parameters;
}

/**
 * The affiliate overrides (addresses with the top tier regardless of volume).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the affiliate overrides (addresses with the top tier regardless of
 *   volume); rejects with `QueryError` when the node refuses the query (`notFound` set for a
 *   missing entry).
 * @example
 * ```ts
 * const overrides = await getAffiliateOverrides(client);
 * ```
 */
export async function getAffiliateOverrides(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<affiliates.AffiliateOverrides | undefined> {
  checkParams(params, "getAffiliateOverrides", true);
  return (
    await unaryQuery(client, { ...params, method: affiliates.Query.method.affiliateOverrides, request: {} })
  ).overrides;
}
