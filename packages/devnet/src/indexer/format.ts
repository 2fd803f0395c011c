/**
 * Decimal text of the chain's integers, as the indexer prints them: `value × 10^exponent` exactly,
 * without exponent notation or trailing zeros (`"0.05"`, `"-12.5"`, `"65000"`).
 */

/** `value × 10^exponent` as exact decimal text. */
export function scaled(value: bigint, exponent: number): string {
  if (exponent >= 0) return (value * 10n ** BigInt(exponent)).toString();
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(-exponent + 1, "0");
  const cut = digits.length + exponent;
  const fraction = digits.slice(cut).replace(/0+$/, "");
  const text = fraction === "" ? digits.slice(0, cut) : `${digits.slice(0, cut)}.${fraction}`;
  return negative && text !== "0" ? `-${text}` : text;
}

/** The quote quantums of USDC (10^-6) as USDC. */
export function usdc(quoteQuantums: bigint): string {
  return scaled(quoteQuantums, -6);
}

/** A ppm fraction as a decimal (`50_000` -> `"0.05"`). */
export function ppm(value: bigint | number): string {
  return scaled(BigInt(value), -6);
}

/** ISO-8601 UTC with milliseconds, as the indexer prints times. */
export function iso(time: Date | number): string {
  return new Date(time).toISOString();
}

/**
 * `num / den × 10^exponent` as decimal text, rounded half up to `dp` decimals (as Big.js divides,
 * 20 by default) with trailing zeros dropped.
 */
export function ratio(num: bigint, den: bigint, exponent: number, dp = 20): string {
  if (den < 0n) return ratio(-num, -den, exponent, dp);
  // num × 10^(exponent + dp) / den, rounded half up, then shifted back by dp.
  const shift = exponent + dp;
  const scaledNum = shift >= 0 ? num * 10n ** BigInt(shift) : num;
  const scaledDen = shift >= 0 ? den : den * 10n ** BigInt(-shift);
  const negative = scaledNum < 0n;
  const magnitude = negative ? -scaledNum : scaledNum;
  const rounded = (magnitude * 2n + scaledDen) / (2n * scaledDen);
  return scaled(negative ? -rounded : rounded, -dp);
}
