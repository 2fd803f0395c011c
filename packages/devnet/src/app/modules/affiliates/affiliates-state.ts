/**
 * x/affiliates' state and rules (the real chain's keeper, protocol v9.6): the regular tiers, the
 * (deprecated, never consulted) whitelist, the program parameters and overrides, referrals, and
 * an affiliate's tier as `GetTierForAffiliate` picks it: an overridden affiliate gets the last
 * tier; any other the last tier whose required referred volume its 30-day referred volume (the
 * affiliate stats) reaches.
 *
 * Store slice `affiliates/`: `tiers`, `whitelist`, `parameters`, `overrides` (their messages);
 * `referred_by/<referee hex20>`: the affiliate's bech32 address; the stats of
 * `affiliate-stats.ts`.
 */
import type { Message } from "@bufbuild/protobuf";
import type { affiliates } from "@perpx/proto";
import { accAddressBytes, addressKey } from "../../lib/addresses.js";
import { fromUtf8, utf8 } from "../../lib/codec.js";
import { abciError, registerError } from "../../lib/errors.js";
import { wireDecodeCached } from "../../lib/proto-cache.js";
import type { ReadMemo } from "../../lib/read-memo.js";
import { type WireMessage, wireCreate, wireEncode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import type { StoreAccess } from "../auth/auth.js";
import { ownerKey } from "../memo-keys.js";
import { ownerAddressKey } from "../owner-keys.js";
import { userStats } from "./affiliate-stats.js";

/** The module's name, store prefix and codespace. */
export const AFFILIATES = "affiliates";

/** The largest taker fee share of a tier above the first, or of a whitelist tier (ppm). */
export const AFFILIATES_REV_SHARE_PPM_CAP = 500_000;

/** Errors of codespace `affiliates`, as the real chain registers them. */
export const affiliatesErrors = {
  alreadyRegistered: registerError(AFFILIATES, 1, "Affiliate already exists for referee"),
  invalidTiers: registerError(AFFILIATES, 3, "Invalid affiliate tier data"),
  invalidAuthority: registerError(AFFILIATES, 4, "invalid authority"),
  invalidAddress: registerError(AFFILIATES, 5, "Invalid address"),
  revShareSafetyViolation: registerError(AFFILIATES, 7, "Rev share safety violation"),
  duplicateWhitelistAddress: registerError(AFFILIATES, 8, "Duplicate affiliate address for whitelist"),
  tiersNotSet: registerError(AFFILIATES, 9, "Affiliate tiers not set (affiliate program is not active)"),
  selfReferral: registerError(AFFILIATES, 10, "Self referral not allowed"),
} as const;

/** Reads a stored message of the slice (its default when absent). */
export function readAffiliates<T extends Message>(ctx: StoreAccess, key: string, table: WireMessage<T>): T {
  const bytes = ctx.store(AFFILIATES).get(key);
  return bytes === undefined ? wireCreate(table) : wireDecodeCached(table, bytes);
}

/** Writes a message of the slice. */
export function writeAffiliates<T extends Message>(
  ctx: StoreAccess,
  key: string,
  table: WireMessage<T>,
  value: T,
): void {
  ctx.store(AFFILIATES).set(key, wireEncode(table, value));
}

/** The reference genesis' tiers (`sample_pregenesis.json`, the chain's defaults). */
export function defaultAffiliateTiers(): affiliates.AffiliateTiers {
  const tier = (volume: bigint, staked: number, ppm: number) =>
    wireCreate(wire.perpx_affiliates_v1_AffiliateTiers_Tier, {
      reqReferredVolumeQuoteQuantums: volume,
      reqStakedWholeCoins: staked,
      takerFeeSharePpm: ppm,
    });
  return wireCreate(wire.perpx_affiliates_v1_AffiliateTiers, {
    tiers: [
      tier(0n, 0, 50_000),
      tier(1_000_000_000_000n, 200, 100_000),
      tier(5_000_000_000_000n, 1_000, 125_000),
      tier(25_000_000_000_000n, 5_000, 150_000),
      tier(50_000_000_000_000n, 100_000_000, 250_000),
    ],
  });
}

/** The reference genesis' program parameters. */
export function defaultAffiliateParameters(): affiliates.AffiliateParameters {
  return wireCreate(wire.perpx_affiliates_v1_AffiliateParameters, {
    maximum30dAttributableVolumePerReferredUserQuoteQuantums: 100_000_000_000_000n,
    refereeMinimumFeeTierIdx: 2,
    maximum30dAffiliateRevenuePerReferredUserQuoteQuantums: 10_000_000_000n,
  });
}

/**
 * The real chain's checks of new tiers: from the second tier on, a share at most
 * {@link AFFILIATES_REV_SHARE_PPM_CAP} (7) and a required volume above the previous tier's (3).
 */
export function validateAffiliateTiers(value: affiliates.AffiliateTiers): void {
  for (let i = 1; i < value.tiers.length; i++) {
    const tier = value.tiers[i] as affiliates.AffiliateTiers_Tier;
    const previous = value.tiers[i - 1] as affiliates.AffiliateTiers_Tier;
    if (tier.takerFeeSharePpm > AFFILIATES_REV_SHARE_PPM_CAP) {
      throw abciError(
        affiliatesErrors.revShareSafetyViolation,
        `taker fee share ppm ${tier.takerFeeSharePpm} is greater than the cap ${AFFILIATES_REV_SHARE_PPM_CAP}`,
      );
    }
    if (tier.reqReferredVolumeQuoteQuantums <= previous.reqReferredVolumeQuoteQuantums) {
      throw abciError(affiliatesErrors.invalidTiers, "volume must be strictly increasing");
    }
  }
}

/**
 * The real chain's checks of a whitelist: every share at most the cap (7), valid addresses (5),
 * no address twice (8).
 */
export function validateAffiliateWhitelist(value: affiliates.AffiliateWhitelist): void {
  const seen = new Set<string>();
  for (const tier of value.tiers) {
    if (tier.takerFeeSharePpm > AFFILIATES_REV_SHARE_PPM_CAP) {
      throw abciError(
        affiliatesErrors.revShareSafetyViolation,
        `taker fee share ppm ${tier.takerFeeSharePpm} is greater than the cap ${AFFILIATES_REV_SHARE_PPM_CAP}`,
      );
    }
    for (const address of tier.addresses) {
      checkAffiliateAddress(address, "address to whitelist");
      if (seen.has(address)) {
        throw abciError(
          affiliatesErrors.duplicateWhitelistAddress,
          `address ${address} is duplicated in affiliate whitelist`,
        );
      }
      seen.add(address);
    }
  }
}

/**
 * The bytes of an address, or the module's invalid address error (5) naming `what`.
 *
 * @throws AbciError affiliates 5.
 */
export function checkAffiliateAddress(address: string, what: string): Uint8Array {
  try {
    return accAddressBytes(address);
  } catch {
    throw abciError(affiliatesErrors.invalidAddress, `${what}: ${address}`);
  }
}

const referredByKey = (refereeKey: string) => `referred_by/${refereeKey}`;
/** The prefix of a referral's {@link ReadMemo} key. */
const REFERRAL_MEMO = `${AFFILIATES}/referred_by`;

/**
 * The stored referral of the referee whose address is spelled `refereeKey` in store keys
 * (`addressKey`), read through `memo` when given (a fill's reads: nothing in it writes referrals).
 */
function storedReferral(ctx: StoreAccess, refereeKey: string, memo?: ReadMemo): Uint8Array | undefined {
  const read = () => ctx.store(AFFILIATES).get(referredByKey(refereeKey));
  return memo === undefined ? read() : memo.read(ownerKey(REFERRAL_MEMO, refereeKey, 0), read);
}

/**
 * The affiliate that referred `referee` (bech32), or undefined.
 *
 * @param memo - reads shared with other lookups of one fill (see `lib/read-memo.ts`).
 */
export function referredBy(ctx: StoreAccess, referee: string, memo?: ReadMemo): string | undefined {
  let key: string;
  try {
    key = ownerAddressKey(referee);
  } catch {
    return undefined;
  }
  const stored = storedReferral(ctx, key, memo);
  return stored === undefined ? undefined : fromUtf8(stored);
}

/**
 * Whether a referral of the referee whose address is spelled `refereeKey` in store keys
 * (`addressKey`) is stored; `memo` as {@link referredBy}'s.
 */
export function isReferred(ctx: StoreAccess, refereeKey: string, memo?: ReadMemo): boolean {
  return storedReferral(ctx, refereeKey, memo) !== undefined;
}

/** Stores a referral. */
export function setReferredBy(ctx: StoreAccess, referee: Uint8Array, affiliate: string): void {
  ctx.store(AFFILIATES).set(referredByKey(addressKey(referee)), utf8(affiliate));
}

/** The program parameters. */
export function affiliateParameters(ctx: StoreAccess): affiliates.AffiliateParameters {
  return readAffiliates(ctx, "parameters", wire.perpx_affiliates_v1_AffiliateParameters);
}

const NO_OVERRIDES: ReadonlySet<string> = new Set();
/** The set of each stored overrides message (decoded messages are shared and frozen). */
const overrideSets = new WeakMap<affiliates.AffiliateOverrides, ReadonlySet<string>>();

/** The overridden affiliates (they get the last tier). */
export function affiliateOverrides(ctx: StoreAccess): ReadonlySet<string> {
  const stored = readAffiliates(ctx, "overrides", wire.perpx_affiliates_v1_AffiliateOverrides);
  if (stored.addresses.length === 0) return NO_OVERRIDES;
  let set = overrideSets.get(stored);
  if (set === undefined) {
    set = new Set(stored.addresses);
    overrideSets.set(stored, set);
  }
  return set;
}

/**
 * An affiliate's tier index and taker fee share as the real chain's `GetTierForAffiliate` picks
 * them (0 and 0 without tiers).
 */
export function tierForAffiliate(
  ctx: StoreAccess,
  affiliate: string,
  overrides: ReadonlySet<string>,
): { tier: number; feeSharePpm: number } {
  const tiers = readAffiliates(ctx, "tiers", wire.perpx_affiliates_v1_AffiliateTiers).tiers;
  if (tiers.length === 0) return { tier: 0, feeSharePpm: 0 };
  if (overrides.has(affiliate)) {
    const last = tiers.length - 1;
    return { tier: last, feeSharePpm: (tiers[last] as affiliates.AffiliateTiers_Tier).takerFeeSharePpm };
  }
  const volume = userStats(ctx, affiliate).referredVolume;
  let tier = 0;
  for (const [i, t] of tiers.entries()) {
    if (volume < t.reqReferredVolumeQuoteQuantums) break;
    tier = i;
  }
  return { tier, feeSharePpm: (tiers[tier] as affiliates.AffiliateTiers_Tier).takerFeeSharePpm };
}

/**
 * The affiliate of a referred taker and its fee share (the real chain's `GetTakerFeeShare`), or
 * undefined for a taker nobody referred; `memo` as {@link referredBy}'s.
 */
export function takerFeeShare(
  ctx: StoreAccess,
  taker: string,
  overrides: ReadonlySet<string>,
  memo?: ReadMemo,
): { affiliate: string; feeSharePpm: number } | undefined {
  const affiliate = referredBy(ctx, taker, memo);
  if (affiliate === undefined) return undefined;
  return { affiliate, feeSharePpm: tierForAffiliate(ctx, affiliate, overrides).feeSharePpm };
}
