import { affiliates } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { bech32Address, checkParams } from "../messages/validate.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

/**
 * Parameters of the affiliate queries about one account.
 *
 * @example
 * ```ts
 * await getAffiliateInfo(client, { address });
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
 * const info = await getAffiliateInfo(client, { address });
 * info.feeSharePpm;
 * ```
 */
export async function getAffiliateInfo(
  client: NodeConnection,
  params: AffiliateAccountParams,
): Promise<affiliates.AffiliateInfoResponse> {
  checkParams(params, "getAffiliateInfo");
  return unaryQuery(
    client,
    affiliates.Query.method.affiliateInfo,
    { address: bech32Address(params.address) },
    params,
  );
}

/**
 * The affiliate who referred an account (`""` when none).
 *
 * @example
 * ```ts
 * const affiliate = await getReferredBy(client, { address });
 * ```
 */
export async function getReferredBy(client: NodeConnection, params: AffiliateAccountParams): Promise<string> {
  checkParams(params, "getReferredBy");
  return (
    await unaryQuery(
      client,
      affiliates.Query.method.referredBy,
      { address: bech32Address(params.address) },
      params,
    )
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
  return (await unaryQuery(client, affiliates.Query.method.allAffiliateTiers, {}, params)).tiers;
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
  return (await unaryQuery(client, affiliates.Query.method.affiliateWhitelist, {}, params)).whitelist;
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
  return (await unaryQuery(client, affiliates.Query.method.affiliateParameters, {}, params)).parameters;
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
  return (await unaryQuery(client, affiliates.Query.method.affiliateOverrides, {}, params)).overrides;
}
