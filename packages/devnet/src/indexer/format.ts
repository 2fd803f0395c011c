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
