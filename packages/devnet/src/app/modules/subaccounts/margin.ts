/**
 * The margin math of perpetual positions, pure and exact (bigint rationals, rounding stated):
 *
 * - notional in quote quantums (1e-6 USDC) of `quantums` base quantums at an oracle price
 *   `price × 10^exponent` USD: `quantums × price × 10^(exponent + atomic_resolution + 6)`;
 * - net collateral: the notional truncated toward zero (the chain's `BaseToQuoteQuantums`, Go's
 *   `big.Int.Quo`);
 * - initial margin: `⌈n × initial_margin_ppm / 1e6⌉` of the truncated `n = |notional|`;
 * - maintenance margin: `⌈⌈n × base_initial_margin_ppm / 1e6⌉ × maintenance_fraction_ppm / 1e6⌉`
 *   (truncate, then two ceilings, as the chain's `GetMarginRequirementsInQuoteQuantums`: so it
 *   never exceeds the initial margin);
 * - funding: an index in 1e-6 quote quantums per base quantum; a position settles
 *   `(position_index − perpetual_index) × quantums` millionths of a quote quantum into its USDC
 *   (a subaccount sums them over its positions and rounds the total down once), so a rising index
 *   makes longs pay and shorts receive.
 */
import { absBig, ceilDiv, pow10 } from "./dtypes.js";

/** The quote asset's atomic resolution (USDC, 1 quote quantum = 1e-6 USDC). */
export const QUOTE_ATOMIC_RESOLUTION = -6;

/** What prices a position: the perpetual's resolution and its market's oracle price. */
export interface PositionPricing {
  /** The perpetual's `atomic_resolution` (size in coins = quantums × 10^atomic_resolution). */
  readonly atomicResolution: number;
  /** Oracle price mantissa (`MarketPrice.price`). */
  readonly price: bigint;
  /** Oracle price exponent (`MarketPrice.exponent`). */
  readonly exponent: number;
}

/** A liquidity tier's margin fractions. */
export interface MarginFractions {
  /** Initial margin fraction in ppm (50_000 = 5%, 20x). */
  readonly initialMarginPpm: number;
  /** Maintenance margin as a fraction of the initial margin, in ppm (600_000 = 60%). */
  readonly maintenanceFractionPpm: number;
}

/** The exact notional as a rational `num / den` (den > 0). */
function notionalRational(quantums: bigint, pricing: PositionPricing): { num: bigint; den: bigint } {
  const shift = pricing.exponent + pricing.atomicResolution - QUOTE_ATOMIC_RESOLUTION;
  const base = quantums * pricing.price;
  return shift >= 0 ? { num: base * pow10(shift), den: 1n } : { num: base, den: pow10(-shift) };
}

/**
 * The signed value in quote quantums of a position of `quantums` at the oracle price, truncated
 * toward zero as the chain's `BaseToQuoteQuantums` (a short of -1.5 quote quantums is -1).
 *
 * @example
 * ```ts
 * // 0.01 BTC (1e8 quantums, atomic resolution -10) at $28,688 (price 2_868_800_000, exponent -5)
 * netNotional(100_000_000n, { atomicResolution: -10, price: 2_868_800_000n, exponent: -5 }); // 286_880_000n
 * ```
 */
export function netNotional(quantums: bigint, pricing: PositionPricing): bigint {
  const { num, den } = notionalRational(quantums, pricing);
  // bigint division truncates toward zero, as Go's big.Int.Quo.
  return num / den;
}

/** A liquidity tier's open-interest caps (quote quantums; an upper cap of 0 turns scaling off). */
export interface OpenInterestCaps {
  readonly openInterestLowerCap: bigint;
  readonly openInterestUpperCap: bigint;
}

/**
 * The initial margin fraction (ppm) a position pays, as the real chain's liquidity tier computes
 * it: the tier's fraction, scaled linearly up to 100% as the perpetual's open interest (quote
 * quantums) goes from the lower to the upper cap (rounded down), then raised to the subaccount's
 * own leverage choice (`customImfPpm`, 0 for none) when that is higher.
 *
 * @example
 * ```ts
 * const caps = { openInterestLowerCap: 0n, openInterestUpperCap: 0n };
 * effectiveInitialMarginPpm(50_000, caps, 0n, 0); // 50_000n: no scaling, no leverage choice
 * effectiveInitialMarginPpm(50_000, caps, 0n, 200_000); // 200_000n: 5x chosen on a 20x market
 * const scaled = { openInterestLowerCap: 1_000n, openInterestUpperCap: 3_000n };
 * effectiveInitialMarginPpm(50_000, scaled, 2_000n, 0); // 525_000n: halfway between the caps
 * ```
 */
export function effectiveInitialMarginPpm(
  initialMarginPpm: number,
  caps: OpenInterestCaps,
  openInterestQuote: bigint,
  customImfPpm: number,
): bigint {
  const base = BigInt(initialMarginPpm);
  const lower = caps.openInterestLowerCap;
  const upper = caps.openInterestUpperCap;
  let adjusted = base;
  if (upper !== 0n && openInterestQuote > lower) {
    adjusted =
      openInterestQuote >= upper
        ? 1_000_000n
        : base + ((1_000_000n - base) * (openInterestQuote - lower)) / (upper - lower);
  }
  const custom = BigInt(customImfPpm);
  return custom > adjusted ? custom : adjusted;
}

/**
 * Initial and maintenance margin requirements (quote quantums) of a position, as the chain
 * rounds them: the notional truncated, then `⌈n × imf⌉` for the initial margin, and the
 * maintenance margin as a rounded-up fraction of the tier's rounded-up base initial margin. The
 * maintenance margin is always the tier's (`fractions`); the initial one uses `initialImfPpm`
 * when given ({@link effectiveInitialMarginPpm}: open-interest scaling and leverage).
 *
 * @example
 * ```ts
 * const pricing = { atomicResolution: -10, price: 1n, exponent: 4 }; // 1 quantum = 1 quote quantum
 * const tier = { initialMarginPpm: 10_000, maintenanceFractionPpm: 600_000 };
 * marginRequirements(110n, pricing, tier); // { initial: 2n, maintenance: 2n }: ⌈1.1⌉, then ⌈2 × 0.6⌉
 * ```
 */
export function marginRequirements(
  quantums: bigint,
  pricing: PositionPricing,
  fractions: MarginFractions,
  initialImfPpm?: bigint,
): { initial: bigint; maintenance: bigint } {
  return marginRequirementsOfNotional(netNotional(absBig(quantums), pricing), fractions, initialImfPpm);
}

/**
 * {@link marginRequirements} of a position whose truncated absolute notional, `netNotional` of its
 * absolute size, is `notional` (for a non-negative price, the absolute value of its `netNotional`).
 */
export function marginRequirementsOfNotional(
  notional: bigint,
  fractions: MarginFractions,
  initialImfPpm?: bigint,
): { initial: bigint; maintenance: bigint } {
  const imf = BigInt(fractions.initialMarginPpm);
  const mf = BigInt(fractions.maintenanceFractionPpm);
  const baseInitial = ceilDiv(notional * imf, 1_000_000n);
  return {
    initial: initialImfPpm === undefined ? baseInitial : ceilDiv(notional * initialImfPpm, 1_000_000n),
    maintenance: ceilDiv(baseInitial * mf, 1_000_000n),
  };
}

/**
 * The funding a position settles when touched, in millionths of a quote quantum (negative: it
 * pays), for an index that moved from `positionIndex` to `perpetualIndex`. Not rounded: a
 * subaccount adds those of its positions and rounds the sum down to quote quantums.
 *
 * @example
 * ```ts
 * fundingSettlementPpm(10_000_000_000n, 0n, 1000n); // -10_000_000_000_000n (the long pays $10)
 * ```
 */
export function fundingSettlementPpm(
  quantums: bigint,
  positionIndex: bigint,
  perpetualIndex: bigint,
): bigint {
  return (positionIndex - perpetualIndex) * quantums;
}

/** Margin totals of a subaccount (quote quantums). */
export interface MarginTotals {
  readonly netCollateral: bigint;
  readonly initial: bigint;
  readonly maintenance: bigint;
}

/**
 * Whether moving from `before` to `after` is allowed: the subaccount meets its initial margin
 * after the update, or the update reduces risk (the maintenance requirement falls and the
 * collateral-to-maintenance ratio does not get worse), as dYdX's subaccounts rule.
 */
export function isValidTransition(
  before: MarginTotals,
  after: MarginTotals,
): { ok: true } | { ok: false; reason: string } {
  if (after.netCollateral >= after.initial) return { ok: true };
  const reason = `net collateral ${after.netCollateral} is below the initial margin requirement ${after.initial}`;
  if (after.maintenance === 0n || before.maintenance === 0n) return { ok: false, reason };
  if (after.maintenance >= before.maintenance) return { ok: false, reason };
  // NC_after / MMR_after >= NC_before / MMR_before, cross-multiplied (both MMR > 0).
  if (after.netCollateral * before.maintenance < before.netCollateral * after.maintenance) {
    return { ok: false, reason: `${reason}, and the update worsens its collateralization` };
  }
  return { ok: true };
}
