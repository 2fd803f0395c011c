/**
 * The liquidation engine's arithmetic, pure and exact (bigint, rationals where the reference
 * chain uses them, its roundings stated):
 *
 * - a subaccount is liquidatable when its maintenance margin requirement is positive and its net
 *   collateral (TNC) is below it;
 * - the bankruptcy price of closing `delta` of a position: the quote amount at which the subaccount's
 *   collateral-to-maintenance ratio is kept: `-ΔNC - floor(TNC × |ΔMMR| / TMMR)`;
 * - the fillable price (the liquidation order's limit): the position's value moved toward
 *   bankruptcy by `clamp((1 - TNC/TMMR) × bankruptcy_adjustment, 0, 1) × MMR × spread_ratio`;
 * - the insurance fund delta of a fill: what the fill's quote amount beats the bankruptcy price by,
 *   capped at `max_liquidation_fee_ppm` of the quote amount when positive (the liquidation fee),
 *   uncapped when negative (the fund pays);
 * - the size of one liquidation: the whole position when its notional fits the position and
 *   subaccount block limits (or it is one step), else the limit in base quantums, rounded down to
 *   the step and kept within `[step, |position|]`.
 */
import { ceilDiv, floorDiv, pow10 } from "../subaccounts/dtypes.js";
import {
  type MarginFractions,
  marginRequirements,
  netNotional,
  type PositionPricing,
  QUOTE_ATOMIC_RESOLUTION,
} from "../subaccounts/margin.js";

/** A subaccount's totals (quote quantums): net collateral and maintenance margin. */
export interface SubaccountRisk {
  readonly netCollateral: bigint;
  readonly maintenance: bigint;
}

/** A position as the liquidation math needs it. */
export interface LiquidatedPosition {
  /** Signed base quantums (> 0 long). */
  readonly quantums: bigint;
  readonly pricing: PositionPricing;
  readonly fractions: MarginFractions;
}

/**
 * Whether a subaccount can be liquidated: it has a maintenance requirement and does not meet it.
 *
 * @example
 * ```ts
 * isLiquidatable({ netCollateral: 99n, maintenance: 100n }); // true
 * isLiquidatable({ netCollateral: -5n, maintenance: 0n }); // false: nothing to liquidate
 * ```
 */
export function isLiquidatable(risk: SubaccountRisk): boolean {
  return risk.maintenance > 0n && risk.netCollateral < risk.maintenance;
}

/** Net notional and maintenance margin (quote quantums) of `quantums` of a position. */
function positionRisk(position: LiquidatedPosition, quantums: bigint): { nc: bigint; mmr: bigint } {
  return {
    nc: netNotional(quantums, position.pricing),
    mmr: marginRequirements(quantums, position.pricing, position.fractions).maintenance,
  };
}

/**
 * The quote quantums the subaccount receives (negative: pays) at the bankruptcy price for
 * changing its position by `delta` base quantums (opposite sign to the position, at most its size).
 *
 * @example
 * ```ts
 * // 1 BTC long (1e10 quantums) at $50,000, MMR 3% of notional; TNC $1,000 and TMMR $1,500
 * const position = {
 *   quantums: 10_000_000_000n,
 *   pricing: { atomicResolution: -10, price: 5_000_000_000n, exponent: -5 },
 *   fractions: { initialMarginPpm: 50_000, maintenanceFractionPpm: 600_000 },
 * };
 * bankruptcyQuoteQuantums({ netCollateral: 1_000_000_000n, maintenance: 1_500_000_000n }, position, -10_000_000_000n);
 * // 49_000_000_000n: selling the whole position at $49,000 leaves exactly zero equity
 * ```
 */
export function bankruptcyQuoteQuantums(
  risk: SubaccountRisk,
  position: LiquidatedPosition,
  delta: bigint,
): bigint {
  const before = positionRisk(position, position.quantums);
  const after = positionRisk(position, position.quantums + delta);
  const deltaNc = after.nc - before.nc;
  const deltaMmr = after.mmr - before.mmr;
  const absDeltaMmr = deltaMmr < 0n ? -deltaMmr : deltaMmr;
  const kept = risk.maintenance === 0n ? 0n : floorDiv(risk.netCollateral * absDeltaMmr, risk.maintenance);
  return -deltaNc - kept;
}

/** A rational `num / den` with `den > 0`. */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

/** The fillable-price parameters of the liquidations config. */
export interface FillablePriceParams {
  readonly bankruptcyAdjustmentPpm: number;
  readonly spreadToMaintenanceMarginRatioPpm: number;
}

/**
 * The fillable price of a position, in quote quantums per base quantum (a rational).
 *
 * @example
 * ```ts
 * import { Exact } from "@perpx/core";
 *
 * const position = {
 *   quantums: 10_000_000_000n,
 *   pricing: { atomicResolution: -10, price: 5_000_000_000n, exponent: -5 },
 *   fractions: { initialMarginPpm: 50_000, maintenanceFractionPpm: 600_000 },
 * };
 * const price = fillablePrice({ netCollateral: 0n, maintenance: 1_500_000_000n }, position, {
 *   bankruptcyAdjustmentPpm: 1_000_000,
 *   spreadToMaintenanceMarginRatioPpm: 100_000,
 * });
 * new Exact(price.num).dividedBy(price.den, { scale: 6, rounding: "trunc" }).toString(); // "4.985": $49,850 per BTC, 10% of the MMR below the oracle
 * ```
 */
export function fillablePrice(
  risk: SubaccountRisk,
  position: LiquidatedPosition,
  params: FillablePriceParams,
): Rational {
  const { nc, mmr } = positionRisk(position, position.quantums);
  const ba = BigInt(params.bankruptcyAdjustmentPpm);
  const smmr = BigInt(params.spreadToMaintenanceMarginRatioPpm);
  // abr = clamp((TMMR - TNC) / TMMR × ba / 1e6, 0, 1) = abrNum / abrDen
  let abrNum = (risk.maintenance - risk.netCollateral) * ba;
  const abrDen = risk.maintenance * 1_000_000n;
  if (abrNum < 0n) abrNum = 0n;
  if (abrNum > abrDen) abrNum = abrDen;
  // price = (nc - abr × mmr × smmr / 1e6) / quantums
  const spreadDen = abrDen * 1_000_000n;
  const num = nc * spreadDen - abrNum * mmr * smmr;
  const den = spreadDen * position.quantums;
  return den < 0n ? { num: -num, den: -den } : { num, den };
}

/** Rounds a non-negative rational to an integer, down or up. */
function roundRational(value: Rational, up: boolean): bigint {
  return up ? ceilDiv(value.num, value.den) : floorDiv(value.num, value.den);
}

/**
 * The fillable price as a liquidation order's subticks on a clob pair: rounded up (and up to a
 * tick) when liquidating a long, down otherwise, and at least one tick.
 *
 * @example
 * ```ts
 * // $49,850 per BTC = 4.985 quote quantums per base quantum; exponent -9, 1e5 subticks per tick
 * fillableSubticks({ num: 4985n, den: 1000n }, true, { quantumConversionExponent: -9, subticksPerTick: 100_000 });
 * // 4_985_000_000n
 * ```
 */
export function fillableSubticks(
  price: Rational,
  liquidatingLong: boolean,
  pair: { quantumConversionExponent: number; subticksPerTick: number },
): bigint {
  const exponent = pair.quantumConversionExponent;
  const scaled: Rational =
    exponent < 0
      ? { num: price.num * pow10(-exponent), den: price.den }
      : { num: price.num, den: price.den * pow10(exponent) };
  const clamped = scaled.num < 0n ? { num: 0n, den: 1n } : scaled;
  const tick = BigInt(pair.subticksPerTick);
  const subticks = roundRational(clamped, liquidatingLong);
  const aligned = liquidatingLong ? ceilDiv(subticks, tick) * tick : floorDiv(subticks, tick) * tick;
  const max = 2n ** 64n - 1n - ((2n ** 64n - 1n) % tick);
  return aligned < tick ? tick : aligned > max ? max : aligned;
}

/**
 * The insurance fund's side of a liquidation fill (quote quantums; positive: the fund receives a
 * fee, negative: it pays), for a liquidation order buying (`isBuy`) `fillAmount` at `quote`.
 *
 * @example
 * ```ts
 * import { Exact } from "@perpx/core";
 *
 * const position = {
 *   quantums: 10_000_000_000n,
 *   pricing: { atomicResolution: -10, price: 5_000_000_000n, exponent: -5 },
 *   fractions: { initialMarginPpm: 50_000, maintenanceFractionPpm: 600_000 },
 * };
 * const risk = { netCollateral: 1_000_000_000n, maintenance: 1_500_000_000n };
 * // sold at $49,900, $900 above the bankruptcy price; the fee is capped at 1.5% of $49,900
 * insuranceFundDelta(risk, position, false, 10_000_000_000n, 49_900_000_000n, 15_000); // 748_500_000n
 * ```
 */
export function insuranceFundDelta(
  risk: SubaccountRisk,
  position: LiquidatedPosition,
  isBuy: boolean,
  fillAmount: bigint,
  quote: bigint,
  maxLiquidationFeePpm: number,
): bigint {
  const delta = isBuy ? fillAmount : -fillAmount;
  const deltaQuote = isBuy ? -quote : quote;
  const bankruptcy = bankruptcyQuoteQuantums(risk, position, delta);
  const fundDelta = deltaQuote - bankruptcy;
  if (fundDelta <= 0n) return fundDelta;
  const absQuote = deltaQuote < 0n ? -deltaQuote : deltaQuote;
  const maxFee = (absQuote * BigInt(maxLiquidationFeePpm)) / 1_000_000n;
  return maxFee < fundDelta ? maxFee : fundDelta;
}

/** Base quantums worth `quote` quote quantums at the oracle price (rounded down). */
export function baseQuantumsOf(quote: bigint, pricing: PositionPricing): bigint {
  const shift = pricing.exponent + pricing.atomicResolution - QUOTE_ATOMIC_RESOLUTION;
  // quote = base × price × 10^shift
  return shift >= 0
    ? floorDiv(quote, pricing.price * pow10(shift))
    : floorDiv(quote * pow10(-shift), pricing.price);
}

/** The position and subaccount block limits of the liquidations config (quote quantums). */
export interface LiquidationLimits {
  readonly minPositionNotionalLiquidated: bigint;
  readonly maxPositionPortionLiquidatedPpm: number;
  /** What the subaccount may still have liquidated this block. */
  readonly subaccountNotionalLeft: bigint;
}

/**
 * The signed size of the next liquidation of a position (opposite sign to it).
 *
 * @example
 * ```ts
 * const pricing = { atomicResolution: -10, price: 5_000_000_000n, exponent: -5 };
 * const limits = { minPositionNotionalLiquidated: 1_000n, maxPositionPortionLiquidatedPpm: 1_000_000, subaccountNotionalLeft: 10n ** 14n };
 * liquidationSizeDelta(10_000_000_000n, pricing, 1_000_000n, limits); // -10_000_000_000n: all of it
 * ```
 */
export function liquidationSizeDelta(
  quantums: bigint,
  pricing: PositionPricing,
  stepBaseQuantums: bigint,
  limits: LiquidationLimits,
): bigint {
  const notional = netNotional(quantums, pricing);
  const absNotional = notional < 0n ? -notional : notional;
  const minPosition =
    limits.minPositionNotionalLiquidated < absNotional ? limits.minPositionNotionalLiquidated : absNotional;
  const portion = (absNotional * BigInt(limits.maxPositionPortionLiquidatedPpm)) / 1_000_000n;
  const maxPosition = portion > minPosition ? portion : minPosition;
  const maxQuote = maxPosition < limits.subaccountNotionalLeft ? maxPosition : limits.subaccountNotionalLeft;
  const absQuantums = quantums < 0n ? -quantums : quantums;
  if (absNotional <= maxQuote || absQuantums <= stepBaseQuantums) return -quantums;
  let size = baseQuantumsOf(maxQuote < 0n ? 0n : maxQuote, pricing);
  size = (size / stepBaseQuantums) * stepBaseQuantums;
  if (size < stepBaseQuantums) size = stepBaseQuantums;
  if (size > absQuantums) size = absQuantums;
  return quantums > 0n ? -size : size;
}
