/**
 * The reference indexer's numeric arithmetic where it rounds: PostgreSQL `numeric` division (ender's
 * SQL computes entry and exit prices and deleveraging prices with it). Everything else it computes
 * (sums, products) is exact, as `Exact` is.
 */
import { Exact } from "@perpx/core";
import { usdc } from "./format.js";
import { type MarketDefinition, sizeOf } from "./models/markets.js";

/** The digits after the point of a decimal's plain text. */
function scaleOf(value: Exact): number {
  const text = value.toString();
  const point = text.indexOf(".");
  return point < 0 ? 0 : text.length - point - 1;
}

/**
 * PostgreSQL's base-10000 weight and first digit group of a positive decimal: `value` lies in
 * `[10000^weight, 10000^(weight + 1))` and `first` is its leading group (1 to 9999).
 */
function groups(value: Exact): { weight: number; first: bigint } {
  const text = value.toString();
  const [whole = "0", fraction = ""] = text.split(".");
  const digits = (whole + fraction).replace(/^0+/, "");
  // The power of ten of the leading digit.
  const exponent =
    whole !== "0" ? whole.length - 1 : -(fraction.length - fraction.replace(/^0+/, "").length) - 1;
  const weight = Math.floor(exponent / 4);
  // The leading group holds the digits from 10^(4 × weight + 3) down to 10^(4 × weight).
  const take = exponent - 4 * weight + 1;
  return { weight, first: BigInt(digits.slice(0, take).padEnd(take, "0")) };
}

/**
 * `dividend / divisor` as PostgreSQL divides two `numeric`s (`select_div_scale`, then rounding half
 * away from zero): at least 16 significant digits, and at least as many decimals as either operand
 * shows (`minScale` when an operand was cast to a wider scale, as `numeric(256, 20)` is), trailing
 * zeros dropped (`dydx_trim_scale`). Both must be positive.
 *
 * @param dividend - the numerator (positive).
 * @param divisor - the denominator (positive).
 * @param minScale - the declared scale of the operands, if wider than their digits.
 * @returns the rounded quotient.
 * @example
 * ```ts
 * import { Exact } from "@perpx/core";
 * pgDivide(new Exact("1950.02"), new Exact("0.03"), 20).toString(); // "65000.66666666666666666667"
 * ```
 */
export function pgDivide(dividend: Exact, divisor: Exact, minScale = 0): Exact {
  const a = groups(dividend);
  const b = groups(divisor);
  let qweight = a.weight - b.weight;
  if (a.first <= b.first) qweight--;
  const scale = Math.min(1000, Math.max(16 - qweight * 4, scaleOf(dividend), scaleOf(divisor), minScale, 0));
  return dividend.dividedBy(divisor, { scale, rounding: "halfExpand" });
}

/**
 * ender's `dydx_get_weighted_average`: `(p1 × w1 + p2 × w2) / (w1 + w2)` in `numeric(256, 20)`.
 *
 * @param first - the first price (0 when there is none).
 * @param firstWeight - its weight (a size, 0 or more).
 * @param second - the second price.
 * @param secondWeight - its weight (positive).
 * @returns the weighted average, as the reference rounds it.
 * @example
 * ```ts
 * import { Exact } from "@perpx/core";
 * weightedAverage(new Exact(0), new Exact(0), new Exact("65000"), new Exact("0.01")).toString(); // "65000"
 * ```
 */
export function weightedAverage(first: Exact, firstWeight: Exact, second: Exact, secondWeight: Exact): Exact {
  const sum = first.times(firstWeight).plus(second.times(secondWeight)).toDecimalPlaces(20, "halfExpand");
  const weights = firstWeight.plus(secondWeight);
  if (sum.isZero()) return sum;
  return pgDivide(sum, weights, 20);
}

/**
 * ender's price of a deleveraging (its fills and trade): the quote amount over the size, as
 * `numeric` divides them (the event's subticks are rounded down; this is not).
 *
 * @param market - the market (its atomic resolution).
 * @param quoteQuantums - the deleveraging's total quote quantums.
 * @param quantums - its size in base quantums (positive).
 * @returns the price as decimal text.
 * @example
 * ```ts
 * const btc = {
 *   clobPairId: 0, perpetualId: 0, ticker: "BTC-USD", marketId: 0, atomicResolution: -10,
 *   quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000,
 *   status: "ACTIVE", marketType: "CROSS", liquidityTier: 0, defaultFundingPpm: 0,
 * } as const;
 * deleveragingPrice(btc, 12_825_000_000n, 3_000_000_000n); // "42750"
 * ```
 */
export function deleveragingPrice(market: MarketDefinition, quoteQuantums: bigint, quantums: bigint): string {
  return pgDivide(new Exact(usdc(quoteQuantums)), new Exact(sizeOf(market, quantums))).toString();
}
