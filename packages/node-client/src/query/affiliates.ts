/**
 * The affiliates module's reads, as rows over {@link defineQuery}: one account's standing and
 * referrer, and the tiers, whitelist, parameters and overrides.
 */
import { affiliates } from "@perpx/proto";
import { bech32Address } from "../messages/validate.js";
import { defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

/**
 * Parameters of the affiliate queries about one account.
 * @example
 * ```ts
 * await getAffiliateInfo(client, { address: wallet.address });
 * ```
 */
export interface AffiliateAccountParams extends QueryOptions {
  /** The account (bech32). */
  address: string;
}

const byAddress = (p: AffiliateAccountParams) => ({ address: bech32Address(p.address) });

/**
 * An account's affiliate standing: whitelisted, tier, fee share, volumes (SerializableInt bytes;
 * {@link affiliateAmounts} reads them as bigints).
 * @param client - the node client (from `createNodeClient`).
 * @param params - the account (`AffiliateAccountParams`), with the call options.
 * @returns the standing.
 * @throws {InvalidAddressError} for a malformed address, before the query leaves.
 * @example
 * ```ts
 * const info = await getAffiliateInfo(client, { address: wallet.address });
 * info.feeSharePpm;
 * ```
 */
export const getAffiliateInfo = defineQuery("getAffiliateInfo", () => affiliates.Query.method.affiliateInfo, {
  request: byAddress,
  pick: (r) => r,
});

/**
 * The affiliate who referred an account (`""` when none).
 * @param client - the node client (from `createNodeClient`).
 * @param params - the account (`AffiliateAccountParams`), with the call options.
 * @returns the affiliate's address, or `""`.
 * @throws {InvalidAddressError} for a malformed address, before the query leaves.
 * @example
 * ```ts
 * const affiliate = await getReferredBy(client, { address: wallet.address });
 * ```
 */
export const getReferredBy = defineQuery("getReferredBy", () => affiliates.Query.method.referredBy, {
  request: byAddress,
  pick: (r) => r.affiliateAddress,
});

/**
 * The affiliate tiers.
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the tiers.
 * @example
 * ```ts
 * const tiers = await getAffiliateTiers(client);
 * ```
 */
export const getAffiliateTiers = defineQuery(
  "getAffiliateTiers",
  () => affiliates.Query.method.allAffiliateTiers,
  {
    pick: (r) => r.tiers,
  },
);

/**
 * The affiliate whitelist.
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the whitelist.
 * @example
 * ```ts
 * const whitelist = await getAffiliateWhitelist(client);
 * ```
 */
export const getAffiliateWhitelist = defineQuery(
  "getAffiliateWhitelist",
  () => affiliates.Query.method.affiliateWhitelist,
  { pick: (r) => r.whitelist },
);

/**
 * The affiliate parameters (30-day caps per referred user).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the parameters.
 * @example
 * ```ts
 * const parameters = await getAffiliateParameters(client);
 * ```
 */
export const getAffiliateParameters = defineQuery(
  "getAffiliateParameters",
  () => affiliates.Query.method.affiliateParameters,
  { pick: (r) => r.parameters },
);

/**
 * The affiliate overrides (addresses with the top tier regardless of volume).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the overrides.
 * @example
 * ```ts
 * const overrides = await getAffiliateOverrides(client);
 * ```
 */
export const getAffiliateOverrides = defineQuery(
  "getAffiliateOverrides",
  () => affiliates.Query.method.affiliateOverrides,
  { pick: (r) => r.overrides },
);
