/**
 * The affiliate routes (`spec/indexer-api.md` 1.10) over the chain's referrals (x/affiliates'
 * `MsgRegisterAffiliate`, as `affiliate_registered` events) and the fills: an address's referral
 * code (its generated username), whether it is an affiliate and volume-eligible, the address of a
 * code, the affiliates' snapshot (their referred users' trades, fees, volume and the fills'
 * `affiliateRevShare` since each referral, as the reference's `affiliate_info` aggregation sums
 * them) and a wallet's total volume (price × size of its subaccounts' fills), with the reference's
 * validation and quirks (`total` is the size of the page; `/total_volume` never answers 400); and
 * `POST /referralCode` (`referral-code.ts`).
 */
import { INDEXER_ROUTES } from "@perpx/core/indexer";
import { usdc } from "../format.js";
import type { Indexer } from "../indexer.js";
import { referralCodeRoute } from "./referral-code.js";
import { internalError, notFound, ok, type Route, type RouteAnswer } from "./routes.js";
import { isBooleanText, type RequestChecks } from "./validation.js";

/** The volume from which an address is volume-eligible (the reference's default, USDC). */
const VOLUME_ELIGIBILITY_THRESHOLD = 10_000;

/** A wallet: an address with a subaccount the indexer knows. */
function isWallet(indexer: Indexer, address: string): boolean {
  return indexer.accounts.numbersOf(address).length > 0;
}

/** Price × size of an address's fills at or after `fromHeight` (quote quantums). */
function volumeOf(indexer: Indexer, address: string, fromHeight = 0n): bigint {
  let total = 0n;
  for (const n of indexer.accounts.numbersOf(address)) {
    for (const f of indexer.history.fillsOf(address, n))
      if (f.createdAtHeight >= fromHeight) total += f.quoteQuantums;
  }
  return total;
}

/** One affiliate's snapshot entry (numbers, as the reference sends them). */
function snapshotOf(indexer: Indexer, affiliate: string) {
  let makerFees = 0n;
  let takerFees = 0n;
  let makerRebates = 0n;
  let makerTrades = 0;
  let takerTrades = 0;
  let volume = 0n;
  let earnings = 0n;
  const referred = indexer.affiliates.referredBy(affiliate);
  for (const { referee, height } of referred) {
    for (const n of indexer.accounts.numbersOf(referee)) {
      for (const f of indexer.history.fillsOf(referee, n)) {
        if (f.createdAtHeight < height) continue;
        volume += f.quoteQuantums;
        earnings += f.affiliateRevShare;
        if (f.liquidity === "MAKER") {
          makerTrades++;
          if (f.fee > 0n) makerFees += f.fee;
          else makerRebates += f.fee;
        } else {
          takerTrades++;
          // The reference sums taker fees of LIMIT fills only (a liquidated side pays none).
          if (f.type === "LIMIT") takerFees += f.fee;
        }
      }
    }
  }
  const num = (q: bigint) => Number(usdc(q));
  return {
    affiliateAddress: affiliate,
    affiliateReferralCode: indexer.affiliates.referralCode(affiliate) ?? "",
    affiliateEarnings: num(earnings),
    affiliateReferredTrades: makerTrades + takerTrades,
    affiliateTotalReferredFees: num(makerFees) + num(takerFees) + num(makerRebates),
    affiliateReferredUsers: referred.length,
    affiliateReferredNetProtocolEarnings: num(makerFees) + num(takerFees) + num(makerRebates) - num(earnings),
    affiliateReferredTotalVolume: num(volume),
    affiliateReferredMakerFees: num(makerFees),
    affiliateReferredTakerFees: num(takerFees),
    affiliateReferredMakerRebates: num(makerRebates),
  };
}

function snapshot(checks: RequestChecks, indexer: Indexer): RouteAnswer {
  const filter = checks.raw("addressFilter")?.split(",");
  const offset = checks.optionalInt("offset", "offset must be a valid integer", -1);
  const limit = checks.optionalInt("limit", "limit must be a valid integer", 0);
  const sort = checks.oneOf(
    "sortByAffiliateEarning",
    isBooleanText,
    "sortByAffiliateEarning must be a boolean",
    "query",
    true,
  );
  if (checks.errors.length > 0) return ok({});
  const from = offset ?? 0;
  let entries = indexer.affiliates
    .affiliates()
    .filter((a) => filter === undefined || filter.includes(a))
    .map((a) => snapshotOf(indexer, a));
  // validator.js's toBoolean: anything but "0" and "false" is true.
  if ((sort !== undefined && sort !== "0" && sort !== "false") || from !== 0) {
    entries = entries.sort(
      (a, b) =>
        b.affiliateEarnings - a.affiliateEarnings ||
        (a.affiliateAddress < b.affiliateAddress ? -1 : a.affiliateAddress > b.affiliateAddress ? 1 : 0),
    );
  }
  const affiliateList = entries.slice(from, from + (limit ?? 1000));
  return ok({ affiliateList, currentOffset: from, total: affiliateList.length });
}

/** The affiliate routes. */
export const affiliateRoutes: readonly Route[] = [
  {
    path: INDEXER_ROUTES.getAffiliateMetadata.path,
    cache: 1,
    handler: (checks, indexer) => {
      const address = checks.oneOf("address", () => true, "address must be a valid string", "query");
      if (address === undefined) return ok({});
      if (!isWallet(indexer, address)) return notFound(`Wallet with address ${address} not found`);
      const referralCode = indexer.affiliates.referralCode(address);
      // The reference's server error when the address has no subaccount 0 (so no username).
      if (referralCode === undefined) return internalError;
      return ok({
        referralCode,
        isVolumeEligible: Number(usdc(volumeOf(indexer, address))) >= VOLUME_ELIGIBILITY_THRESHOLD,
        isAffiliate: indexer.affiliates.referredBy(address).length > 0,
      });
    },
  },
  {
    path: INDEXER_ROUTES.getAffiliateAddress.path,
    cache: 1,
    handler: (checks, indexer) => {
      const code = checks.oneOf("referralCode", () => true, "referralCode must be a valid string", "query");
      if (code === undefined) return ok({});
      const address = indexer.affiliates.ownerOf(code);
      return address === undefined ? notFound(`Referral code ${code} does not exist`) : ok({ address });
    },
  },
  referralCodeRoute,
  { path: INDEXER_ROUTES.getAffiliateSnapshot.path, cache: 1, handler: snapshot },
  {
    path: INDEXER_ROUTES.getAffiliateTotalVolume.path,
    cache: 1,
    handler: (checks, indexer) => {
      // The reference runs the rule but never answers it: a missing address reads as `undefined`.
      const address = checks.raw("address");
      if (address === undefined || !isWallet(indexer, address))
        return notFound(`Wallet with address ${address} not found`);
      return ok({ totalVolume: Number(usdc(volumeOf(indexer, address))) });
    },
  },
];
