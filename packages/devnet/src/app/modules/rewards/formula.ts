/**
 * The arithmetic of x/rewards, as the real chain's keeper does it (`AddRewardSharesForFill`,
 * `ProcessRewardsForBlock`, `lib.QuoteToBaseQuantums`), in pure functions over integers.
 *
 * - A fill's reward weights (quote quantums): the taker's is its fee, less the largest possible
 *   maker rebate on the fill's notional, less the largest possible affiliate share (half the taker
 *   fee while the taker's 30-day taker volume is under $50M, whether or not it has an affiliate),
 *   less its order router's share, times the share of the fees left after the net-revenue shares;
 *   the maker's is its fee less its order router's share, times the same share. A weight that is
 *   not positive earns nothing. Every ppm product rounds toward -infinity (Go's `big.Int.Div`).
 * - A block's reward: `fee_multiplier × Σ weights`, turned into reward tokens at the oracle price
 *   of the params' market (`denom_exponent` units per whole token), rounded down, capped by the
 *   treasury's balance; each address gets `tokens × weight / Σ weights`, rounded down.
 */

import { MAX_REFEREE_30D_VOLUME_FOR_AFFILIATE_SHARE } from "../revshare/shares.js";
import { mulPpmFloor } from "../subaccounts/dtypes.js";

/** One million, the ppm denominator. */
export const ONE_MILLION = 1_000_000n;
/** The largest affiliate share of a taker fee, ppm (the real chain's `AffiliatesRevSharePpmCap`). */
export const AFFILIATES_REV_SHARE_PPM_CAP = 500_000n;
/** The atomic resolution of the quote currency (USDC quote quantums are 10^-6 dollars). */
const QUOTE_ATOMIC_RESOLUTION = -6;

/** What the reward weights of a fill are computed from (quote quantums; fees signed, a rebate < 0). */
export interface RewardFillFees {
  readonly takerFee: bigint;
  readonly makerFee: bigint;
  /** The fill's notional. */
  readonly fillQuote: bigint;
  /** The taker's 30-day taker notional before this block (x/stats' `TakerNotional`). */
  readonly takerVolume30d: bigint;
}

/**
 * The revenue shares of a fill that come off the traders' fees before rewards (x/revshare's
 * `RevSharesForFill`): each side's order router share, and the net-protocol-revenue shares' total
 * rate (unconditional and market-mapper shares).
 */
export interface RewardFillRevShares {
  readonly takerOrderRouter: bigint;
  readonly makerOrderRouter: bigint;
  readonly netProtocolRevenuePpm: number;
}

/**
 * The reward weights of one fill (see the module comment); either may be zero or negative, which
 * earns nothing.
 *
 * @param fill - the fees and notional of the fill.
 * @param revShares - the fill's revenue shares.
 * @param lowestMakerFeePpm - the lowest maker fee of any fee tier (its rebate, when negative, is
 *   the largest a maker could get).
 * @returns the taker's and the maker's weight, in quote quantums.
 * @example
 * ```ts
 * // A $650 fill: taker fee 500 ppm, maker rebate -110 ppm, the reference tiers' lowest maker fee -110.
 * const fill = { takerFee: 325_000n, makerFee: -71_500n, fillQuote: 650_000_000n, takerVolume30d: 0n };
 * const none = { takerOrderRouter: 0n, makerOrderRouter: 0n, netProtocolRevenuePpm: 0 };
 * rewardWeights(fill, none, -110); // { taker: 91_000n, maker: -71_500n }
 * ```
 */
export function rewardWeights(
  fill: RewardFillFees,
  revShares: RewardFillRevShares,
  lowestMakerFeePpm: number,
): { taker: bigint; maker: bigint } {
  const maxMakerRebatePpm = BigInt(Math.min(0, lowestMakerFeePpm));
  const remainingPpm = ONE_MILLION - BigInt(revShares.netProtocolRevenuePpm);
  const maxAffiliateShare =
    fill.takerVolume30d < MAX_REFEREE_30D_VOLUME_FOR_AFFILIATE_SHARE
      ? mulPpmFloor(fill.takerFee, AFFILIATES_REV_SHARE_PPM_CAP)
      : 0n;
  const netTakerFee =
    fill.takerFee +
    mulPpmFloor(fill.fillQuote, maxMakerRebatePpm) -
    maxAffiliateShare -
    revShares.takerOrderRouter;
  const netMakerFee = fill.makerFee - revShares.makerOrderRouter;
  return {
    taker: mulPpmFloor(netTakerFee, remainingPpm),
    maker: mulPpmFloor(netMakerFee, remainingPpm),
  };
}

/** The parameters and price a block's reward amount depends on. */
export interface RewardPricing {
  readonly feeMultiplierPpm: number;
  /** Units of the reward denom per whole token, as a power of ten (`aperpx`: -18). */
  readonly denomExponent: number;
  /** The oracle price of a whole reward token: `price × 10^priceExponent` dollars. */
  readonly price: bigint;
  readonly priceExponent: number;
}

/**
 * The reward tokens a block's total weight is worth before the treasury cap: `F` of the real
 * chain, `weight × multiplier / 1e6` in quote quantums converted to reward-denom units at the
 * oracle price, each division rounded down. A price of zero is worth nothing.
 *
 * @param totalWeight - the sum of the block's reward weights (quote quantums).
 * @param pricing - the multiplier, the denom's exponent and the oracle price.
 * @returns reward-denom units.
 * @example
 * ```ts
 * // 99% of $0.091 of weight at $3,000 a token (3_000_000_000 × 10^-6), a denom of 18 decimals.
 * const pricing = { feeMultiplierPpm: 990_000, denomExponent: -18, price: 3_000_000_000n, priceExponent: -6 };
 * rewardTokens(91_000n, pricing); // 30_030_000_000_000n (0.00003003 tokens)
 * ```
 */
export function rewardTokens(totalWeight: bigint, pricing: RewardPricing): bigint {
  if (pricing.price <= 0n) return 0n;
  let amount = totalWeight * BigInt(pricing.feeMultiplierPpm);
  const exponent = pricing.priceExponent + pricing.denomExponent - QUOTE_ATOMIC_RESOLUTION;
  amount = exponent < 0 ? amount * 10n ** BigInt(-exponent) : amount / 10n ** BigInt(exponent);
  return amount / pricing.price / ONE_MILLION;
}

/**
 * Splits `tokens` between the weights pro rata, each share rounded down (so the sum never exceeds
 * `tokens`); addresses whose share rounds to zero are left out. Order is kept.
 *
 * @param tokens - what the block distributes (already capped by the treasury).
 * @param shares - each address's weight (positive).
 * @returns each address's amount.
 * @example
 * ```ts
 * splitRewards(10n, [{ address: "a", weight: 1n }, { address: "b", weight: 2n }]);
 * // [{ address: "a", amount: 3n }, { address: "b", amount: 6n }]
 * ```
 */
export function splitRewards(
  tokens: bigint,
  shares: ReadonlyArray<{ readonly address: string; readonly weight: bigint }>,
): Array<{ address: string; amount: bigint }> {
  const total = shares.reduce((sum, s) => sum + s.weight, 0n);
  if (total <= 0n || tokens <= 0n) return [];
  return shares.flatMap((s) => {
    const amount = (tokens * s.weight) / total;
    return amount > 0n ? [{ address: s.address, amount }] : [];
  });
}
