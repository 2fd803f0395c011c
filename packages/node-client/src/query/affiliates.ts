/** The affiliates module's reads, as rows over {@link defineQuery}. */
import { affiliates } from "@perpx/proto";
import { bech32Address } from "../messages/validate.js";
import { defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

const byAddress = (p: QueryOptions & { address: string }) => ({ address: bech32Address(p.address) });

/**
 * The affiliate queries, each `query(client, params)` with the call options in its params. Of one
 * account (`{ address }`, refused with `InvalidAddressError` when malformed): `getAffiliateInfo`
 * (whitelisted, tier, fee share, volumes as SerializableInt bytes that {@link affiliateAmounts}
 * reads) and `getReferredBy` (the referrer's address, `""` when none). Of the module:
 * `getAffiliateTiers`, `getAffiliateWhitelist`, `getAffiliateParameters` (30-day caps per referred
 * user) and `getAffiliateOverrides` (addresses at the top tier regardless of volume).
 * @example
 * ```ts
 * const referrer = await affiliateQueries.getReferredBy(client, { address: wallet.address });
 * const tiers = await affiliateQueries.getAffiliateTiers(client);
 * ```
 */
export const affiliateQueries = {
  getAffiliateInfo: defineQuery("getAffiliateInfo", () => affiliates.Query.method.affiliateInfo, {
    request: byAddress,
    pick: (r) => r,
  }),
  getReferredBy: defineQuery("getReferredBy", () => affiliates.Query.method.referredBy, {
    request: byAddress,
    pick: (r) => r.affiliateAddress,
  }),
  getAffiliateTiers: defineQuery("getAffiliateTiers", () => affiliates.Query.method.allAffiliateTiers, {
    pick: (r) => r.tiers,
  }),
  getAffiliateWhitelist: defineQuery(
    "getAffiliateWhitelist",
    () => affiliates.Query.method.affiliateWhitelist,
    { pick: (r) => r.whitelist },
  ),
  getAffiliateParameters: defineQuery(
    "getAffiliateParameters",
    () => affiliates.Query.method.affiliateParameters,
    { pick: (r) => r.parameters },
  ),
  getAffiliateOverrides: defineQuery(
    "getAffiliateOverrides",
    () => affiliates.Query.method.affiliateOverrides,
    { pick: (r) => r.overrides },
  ),
} as const;
