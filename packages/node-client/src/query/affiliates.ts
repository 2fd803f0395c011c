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
