/**
 * A fill's fees, distributed as the real chain's `persistMatchedOrders` does after the subaccounts
 * are updated: the revenue shares (`shares.ts`) sent from the perpetual's collateral pool to their
 * recipients, the rest of the net fee to the fee collector (`DistributeFees`; a negative rest, a
 * liquidation's rebate, comes back from it), and the fill recorded in the block's affiliate stats
 * (`RecordFill`: the taker's affiliate revenue, and the volume attributable to the taker's and the
 * maker's affiliates under the per-referred-user cap).
 */
import { USDC_DENOM } from "@perpx/core";
import type { Context } from "../../kernel/module.js";
import type { ReadMemo } from "../../lib/read-memo.js";
import { type AffiliateAttribution, recordStatsFill, userStats } from "../affiliates/affiliate-stats.js";
import {
  affiliateOverrides,
  affiliateParameters,
  referredBy,
  takerFeeShare,
} from "../affiliates/affiliates-state.js";
import type { PerpetualsKeeper } from "../perpetuals/perpetuals.js";
import type { SubaccountsKeeper } from "../subaccounts/keeper.js";
import { type RevShareKeeper, recipientBytes } from "./keeper.js";
import { type RevSharesForFill, revSharesForFill } from "./shares.js";

/** What the distribution needs of a fill (the market and the pool come from its perpetual). */
export interface FillFees {
  readonly taker: string;
  readonly maker: string;
  /** Signed fees (a negative maker fee is a rebate); a liquidation's taker fee is 0. */
  readonly takerFee: bigint;
  readonly makerFee: bigint;
  /** The fill's quote amount. */
  readonly quoteQuantums: bigint;
  readonly perpetualId: number;
  readonly takerRouter: string;
  readonly makerRouter: string;
}

/**
 * The volume of a fill a referee may still have attributed to its affiliate this window (the real
 * chain's `getAttributableVolume`): all of it without a cap, else what is left under the cap.
 */
function attributableVolume(ctx: Context, referee: string, volume: bigint, cap: bigint): bigint {
  if (cap === 0n) return volume;
  const already = userStats(ctx, referee).attributedVolume;
  if (already >= cap) return 0n;
  return already + volume > cap ? cap - already : volume;
}

/**
 * Computes a fill's revenue shares, moves the coins (pool → recipients, pool → fee collector) and
 * records the fill in the block's affiliate stats; returns the shares (the fill event carries the
 * affiliate's).
 */
export function distributeFillFees(
  ctx: Context,
  keepers: { revshare: RevShareKeeper; perpetuals: PerpetualsKeeper; subaccounts: SubaccountsKeeper },
  fill: FillFees,
  memo?: ReadMemo,
): RevSharesForFill {
  const keeper = keepers.revshare;
  // The market mapper's share is per oracle market; the fees sit in the perpetual's pool.
  const marketId = keepers.perpetuals.findParams(ctx, fill.perpetualId)?.marketId ?? 0;
  const pool = keepers.subaccounts.collateralPoolName(ctx, fill.perpetualId);
  const parameters = affiliateParameters(ctx);
  const takerStats = userStats(ctx, fill.taker);
  const affiliate = takerFeeShare(ctx, fill.taker, affiliateOverrides(ctx), memo);
  const shares = revSharesForFill({
    takerFee: fill.takerFee,
    makerFee: fill.makerFee,
    takerVolume30d: takerStats.takerNotional,
    takerAffiliateRevenue30d: takerStats.revenue,
    revenueCap: parameters.maximum30dAffiliateRevenuePerReferredUserQuoteQuantums,
    affiliate:
      affiliate === undefined ? undefined : { address: affiliate.affiliate, ppm: affiliate.feeSharePpm },
    takerRouter: keeper.routerRecipient(ctx, fill.takerRouter),
    makerRouter: keeper.routerRecipient(ctx, fill.makerRouter),
    unconditional: keeper
      .unconditionalConfig(ctx)
      .configs.map((c) => ({ address: c.address, ppm: c.sharePpm })),
    marketMapper: keeper.marketMapperRecipient(ctx, marketId),
  });
  let rest = fill.takerFee + fill.makerFee;
  for (const share of shares.all) {
    rest -= share.quoteQuantums;
    if (share.quoteQuantums <= 0n) continue;
    keeper.bank.sendCoinsFromModuleToAccount(ctx, pool, recipientBytes(share.recipient), [
      { denom: USDC_DENOM, amount: share.quoteQuantums },
    ]);
  }
  if (rest > 0n) {
    keeper.bank.sendCoinsFromModuleToModule(ctx, pool, "fee_collector", [
      { denom: USDC_DENOM, amount: rest },
    ]);
  } else if (rest < 0n) {
    keeper.bank.sendCoinsFromModuleToModule(ctx, "fee_collector", pool, [
      { denom: USDC_DENOM, amount: -rest },
    ]);
  }
  const cap = parameters.maximum30dAttributableVolumePerReferredUserQuoteQuantums;
  const attributions: AffiliateAttribution[] = [];
  if (shares.affiliate !== undefined && shares.affiliate.recipient !== "" && fill.quoteQuantums > 0n) {
    const volume = attributableVolume(ctx, fill.taker, fill.quoteQuantums, cap);
    if (volume > 0n) attributions.push({ role: "taker", referrer: shares.affiliate.recipient, volume });
  }
  const makerReferrer = referredBy(ctx, fill.maker, memo);
  if (makerReferrer !== undefined && fill.quoteQuantums > 0n) {
    const volume = attributableVolume(ctx, fill.maker, fill.quoteQuantums, cap);
    if (volume > 0n) attributions.push({ role: "maker", referrer: makerReferrer, volume });
  }
  recordStatsFill(ctx, {
    taker: fill.taker,
    maker: fill.maker,
    notional: fill.quoteQuantums,
    affiliateFee: shares.affiliate?.quoteQuantums ?? 0n,
    attributions,
  });
  return shares;
}
