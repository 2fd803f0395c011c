/**
 * Matching of one incoming (taker) order against the resting orders of the other side, in
 * price-time priority, at the maker's price. Pure: it reads the makers it is given and asks
 * `tryFill` whether each fill may happen (the module checks collateral and applies the fill there);
 * the caller applies the result to the book with {@link applyMatch}.
 *
 * Rules: a maker of the taker's own subaccount is cancelled (self-trade prevention, as the real
 * chain does) and matching goes on; a maker that fails its collateral check is cancelled and
 * matching goes on; a taker that fails stops matching. Post-only orders never match: the caller
 * asks {@link wouldCross} first.
 */
import type { BookSide, OrderBook, RestingOrder } from "./book.js";

/** The incoming order, as matching needs it. */
export interface Taker {
  readonly side: BookSide;
  /** The limit price. */
  readonly subticks: bigint;
  /** Quantums to fill at most. */
  readonly quantums: bigint;
  readonly owner: string;
  readonly number: number;
}

/** One fill: the maker, the quantums and the price (the maker's). */
export interface Fill {
  readonly maker: RestingOrder;
  readonly quantums: bigint;
  readonly subticks: bigint;
}

/** Why a resting maker left the book during matching without being filled. */
export type MakerRemoval = "self-trade" | "undercollateralized";

/** What {@link matchOrder} decided. */
export interface MatchResult {
  readonly fills: readonly Fill[];
  /** Makers removed without a fill. */
  readonly removed: ReadonlyArray<{ readonly maker: RestingOrder; readonly reason: MakerRemoval }>;
  /** Quantums of the taker left unfilled. */
  readonly remaining: bigint;
  /** True when the taker failed a collateral check (matching stopped there). */
  readonly takerFailed: boolean;
}

/**
 * The answer of `tryFill`: the fill happened, which side's check refused it, or the maker is on
 * its way out of the book (a stateful cancel accepted by CheckTx) and is passed over.
 */
export type FillDecision = "ok" | "maker-fails" | "taker-fails" | "skip";

/** The smaller of two bigints. */
function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** The side a taker of `side` matches against. */
export function opposite(side: BookSide): BookSide {
  return side === "buy" ? "sell" : "buy";
}

/** True when a maker at `makerSubticks` crosses a taker's limit. */
export function crosses(taker: Pick<Taker, "side" | "subticks">, makerSubticks: bigint): boolean {
  return taker.side === "buy" ? makerSubticks <= taker.subticks : makerSubticks >= taker.subticks;
}

/** True when the best maker of the other side crosses the order (a post-only order would take). */
export function wouldCross(best: RestingOrder | undefined, taker: Pick<Taker, "side" | "subticks">): boolean {
  return best !== undefined && crosses(taker, best.subticks);
}

/**
 * Matches `taker` against `makers` (the other side, best first). `tryFill` is called for each
 * candidate fill and must apply it when it answers "ok".
 */
export function matchOrder(
  taker: Taker,
  makers: Iterable<RestingOrder>,
  tryFill: (maker: RestingOrder, quantums: bigint) => FillDecision = () => "ok",
): MatchResult {
  const fills: Fill[] = [];
  const removed: { maker: RestingOrder; reason: MakerRemoval }[] = [];
  let remaining = taker.quantums;
  let takerFailed = false;
  for (const maker of makers) {
    if (remaining === 0n || !crosses(taker, maker.subticks)) break;
    if (maker.owner === taker.owner && maker.number === taker.number) {
      removed.push({ maker, reason: "self-trade" });
      continue;
    }
    const quantums = minBig(maker.remaining, remaining);
    const decision = tryFill(maker, quantums);
    if (decision === "skip") continue;
    if (decision === "maker-fails") {
      removed.push({ maker, reason: "undercollateralized" });
      continue;
    }
    if (decision === "taker-fails") {
      takerFailed = true;
      break;
    }
    fills.push({ maker, quantums, subticks: maker.subticks });
    remaining -= quantums;
  }
  return { fills, removed, remaining, takerFailed };
}

/** Applies a match to the book: filled makers shrink or leave, removed makers leave. */
export function applyMatch(book: OrderBook, pairId: number, result: MatchResult): void {
  for (const { maker } of result.removed) book.remove(pairId, maker);
  for (const fill of result.fills)
    book.setRemaining(pairId, fill.maker, fill.maker.remaining - fill.quantums);
}
