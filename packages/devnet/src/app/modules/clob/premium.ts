/**
 * The premium a block proposer votes for a perpetual (the real chain's memclob `GetPricePremium`):
 * the impact bid (ask) price is the average price a sell (buy) of the liquidity tier's impact
 * notional gets from the book; the premium is `impact bid / index − 1` when the index is under the
 * best bid, `impact ask / index − 1` when it is over the best ask, else 0, in ppm rounded toward
 * zero and clamped to the vote clamp. A side that cannot absorb the impact notional gives 0.
 * The index price is the oracle price in subticks, a fraction (`num / den`).
 *
 * Unlike the real chain, makers are not checked for collateral while walking the book (the real
 * chain skips an under-collateralized maker's order); the devnet's book only holds orders that
 * passed the collateral check when placed.
 */
import type { RestingOrder } from "./book.js";

/** A non-negative fraction. */
export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

/** `value × 10^exponent`, as a fraction. */
export function scaledFraction(value: bigint, exponent: number): Fraction {
  return exponent >= 0
    ? { num: value * 10n ** BigInt(exponent), den: 1n }
    : { num: value, den: 10n ** BigInt(-exponent) };
}

/** Quote quantums of `quantums` at `subticks` (rounded down, as the real chain's fills). */
function quoteQuantums(subticks: bigint, quantums: bigint, qce: number): bigint {
  const product = subticks * quantums;
  return qce >= 0 ? product * 10n ** BigInt(qce) : product / 10n ** BigInt(-qce);
}

/**
 * The average price (subticks, a fraction) at which `impactNotional` quote quantums fill against
 * `orders` (one side of the book, best first); undefined when they cannot absorb it. With a zero
 * notional, the best order's price.
 *
 * @example
 * ```ts
 * const bid = { subticks: 100n, remaining: 1_000n } as RestingOrder;
 * impactPrice([bid], 5_000n, -1); // { num: 50_000n, den: 500n }: 100 subticks
 * ```
 */
export function impactPrice(
  orders: Iterable<Pick<RestingOrder, "subticks" | "remaining">>,
  impactNotional: bigint,
  qce: number,
): Fraction | undefined {
  let remaining = impactNotional;
  let wholeBase = 0n;
  let partial: Fraction = { num: 0n, den: 1n };
  for (const order of orders) {
    if (impactNotional === 0n) return { num: order.subticks, den: 1n };
    if (remaining <= 0n) break;
    const full = quoteQuantums(order.subticks, order.remaining, qce);
    if (remaining > full) wholeBase += order.remaining;
    else partial = { num: remaining * order.remaining, den: full };
    remaining -= full;
  }
  if (impactNotional === 0n || remaining > 0n) return undefined;
  // The base quantums filled, rounded up; the average price is notional × 10^-qce / base.
  const base = wholeBase + (partial.num + partial.den - 1n) / partial.den;
  const price = scaledFraction(impactNotional, -qce);
  return { num: price.num, den: price.den * base };
}

/** Compares two fractions: negative, zero or positive. */
function compare(a: Fraction, b: Fraction): number {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** One side of a pair's book, best first. */
export type BookSide = () => Iterable<Pick<RestingOrder, "subticks" | "remaining">>;

/**
 * The premium vote of one book in ppm (see the module comment), clamped to ±`maxAbsPpm`.
 *
 * @example
 * ```ts
 * const bids = () => [{ subticks: 101n, remaining: 1_000n }];
 * premiumPpm(bids, () => [], { num: 100n, den: 1n }, 0n, -1, 1_000_000n); // 10_000n
 * ```
 */
export function premiumPpm(
  bids: BookSide,
  asks: BookSide,
  index: Fraction,
  impactNotional: bigint,
  qce: number,
  maxAbsPpm: bigint,
): bigint {
  if (index.num === 0n) return 0n;
  const first = <T>(items: Iterable<T>): T | undefined => {
    for (const item of items) return item;
    return undefined;
  };
  const bestBid = first(bids());
  const bestAsk = first(asks());
  let side: "bid" | "ask" | undefined;
  if (bestBid !== undefined && compare(index, { num: bestBid.subticks, den: 1n }) < 0) side = "bid";
  else if (bestAsk !== undefined && compare(index, { num: bestAsk.subticks, den: 1n }) > 0) side = "ask";
  if (side === undefined) return 0n;
  const impact = impactPrice(side === "bid" ? bids() : asks(), impactNotional, qce);
  if (impact === undefined) return 0n;
  const cmp = compare(index, impact);
  if ((side === "ask" && cmp <= 0) || (side === "bid" && cmp >= 0)) return 0n;
  // impact / index × 1e6 − 1e6, rounded toward zero.
  const num = impact.num * index.den * 1_000_000n - impact.den * index.num * 1_000_000n;
  const premium = num / (impact.den * index.num);
  return premium > maxAbsPpm ? maxAbsPpm : premium < -maxAbsPpm ? -maxAbsPpm : premium;
}
