/**
 * A local order book kept from a `v4_orderbook` feed: a snapshot, then updates that set a level's
 * absolute size (`"0"` removes it).
 *
 * **Crossed levels.** The server does not uncross updates, so the stored book may momentarily have
 * its best bid at or above its best ask. Every read sees it uncrossed by the indexer's own rule:
 * while the best bid is at or above the best ask, the level updated less recently is hidden (on a
 * tie, the bid). Hidden levels stay stored, so a later update to them still applies exactly, and
 * {@link OrderBook.crossed} says whether any level is hidden.
 */

import { Exact } from "@perpx/core";
import type {
  OrderbookResponseObject,
  OrderbookUpdateContents,
  OrderbookUpdateLevel,
} from "@perpx/core/indexer";
import { InvalidArgumentError } from "@perpx/errors";
import { compareDecimals } from "./decimal-text.js";
import { BookSide } from "./side.js";

/** The precision of an average fill price: 18 decimals (the finest a denom has), half away from zero. */
const AVERAGE = { scale: 18, rounding: "halfExpand" } as const;

/**
 * A side of the book: `bids` (buy orders) or `asks` (sell orders).
 *
 * @example
 * ```ts
 * const book = new OrderBook();
 * book.applySnapshot({ bids: [{ price: "99", size: "1" }], asks: [{ price: "101", size: "2" }] });
 * const side: BookSideName = "asks";
 * book.depth(side, { levels: 1 }); // [{ price: "101", size: "2", total: "2" }]
 * ```
 */
export type BookSideName = "bids" | "asks";

/**
 * A price level as the book reads it, with the cumulative size from the top of its side.
 *
 * @example
 * ```ts
 * const level: DepthLevel = { price: "100", size: "2", total: "3.5" };
 * ```
 */
export interface DepthLevel {
  readonly price: string;
  readonly size: string;
  /** The size of this level and every better one. */
  readonly total: string;
}

/**
 * The cost of filling a size against the book.
 *
 * @example
 * ```ts
 * const fill: FillEstimate = { filled: "1", averagePrice: "100.5", worstPrice: "101", complete: true };
 * ```
 */
export interface FillEstimate {
  /** The size that the visible book can fill (the size asked for when `complete`). */
  readonly filled: string;
  /** The size-weighted average price of that fill; undefined when nothing fills. */
  readonly averagePrice: string | undefined;
  /** The last (worst) level price the fill reaches; undefined when nothing fills. */
  readonly worstPrice: string | undefined;
  /** False when the book holds less than the size asked for. */
  readonly complete: boolean;
}

/**
 * Order-book state with exact decimal reads.
 *
 * @example
 * ```ts
 * const book = new OrderBook();
 * book.applySnapshot({ bids: [{ price: "99", size: "1" }], asks: [{ price: "101", size: "2" }] });
 * book.applyUpdate({ bids: [["100", "0.5"]] });
 * book.bestBid(); // { price: "100", size: "0.5" }
 * book.spread(); // "1"
 * book.mid(); // "100.5"
 * book.fillPrice("BUY", "1").averagePrice; // "101"
 * ```
 */
export class OrderBook {
  private readonly bidSide = new BookSide(true);
  private readonly askSide = new BookSide(false);
  private seq = 0;
  /** Hidden levels at the top of each side (the uncrossed view), or -1 when not computed. */
  private hiddenBids = -1;
  private hiddenAsks = 0;

  /**
   * Replaces the whole book with a snapshot.
   *
   * @param snapshot - the bids and asks of a `subscribed` message.
   */
  applySnapshot(snapshot: OrderbookResponseObject): void {
    this.bidSide.clear();
    this.askSide.clear();
    for (const level of snapshot.bids ?? []) this.bidSide.set([level.price, level.size], 0);
    for (const level of snapshot.asks ?? []) this.askSide.set([level.price, level.size], 0);
    this.hiddenBids = -1;
  }

  /**
   * Applies one update: each `[price, size]` sets that level's absolute size.
   *
   * @param update - the changed levels of a `channel_data` message.
   */
  applyUpdate(update: OrderbookUpdateContents): void {
    const seq = ++this.seq;
    const bids = update.bids;
    const asks = update.asks;
    if (bids) for (let i = 0; i < bids.length; i++) this.bidSide.set(bids[i] as OrderbookUpdateLevel, seq);
    if (asks) for (let i = 0; i < asks.length; i++) this.askSide.set(asks[i] as OrderbookUpdateLevel, seq);
    this.hiddenBids = -1;
  }

  /** True when the stored book is crossed and some levels are hidden from reads. */
  get crossed(): boolean {
    this.uncross();
    return this.hiddenBids + this.hiddenAsks > 0;
  }

  /**
   * The best (highest) visible bid.
   *
   * @returns the level's price and size as human decimal strings, or `undefined` when there are no
   *   bids.
   */
  bestBid(): { price: string; size: string } | undefined {
    return this.top("bids");
  }

  /**
   * The best (lowest) visible ask.
   *
   * @returns the level's price and size as human decimal strings, or `undefined` when there are no
   *   asks.
   */
  bestAsk(): { price: string; size: string } | undefined {
    return this.top("asks");
  }

  /**
   * Best ask minus best bid, or undefined when a side is empty.
   *
   * @returns the spread as an exact decimal string.
   */
  spread(): string | undefined {
    const bid = this.bestBid();
    const ask = this.bestAsk();
    return bid && ask ? new Exact(ask.price).minus(bid.price).toFixed() : undefined;
  }

  /**
   * The midpoint of the best bid and ask (exact: half a decimal is a decimal), or undefined when a side is empty.
   *
   * @returns the midpoint as an exact decimal string.
   */
  mid(): string | undefined {
    const bid = this.bestBid();
    const ask = this.bestAsk();
    return bid && ask ? new Exact(ask.price).plus(bid.price).times("0.5").toFixed() : undefined;
  }

  /**
   * The visible levels of a side, best first, with cumulative sizes.
   *
   * @param side - `bids` or `asks`.
   * @param limit - `{ levels: n }` for the top n levels, or `{ size }` for the levels needed to
   *   reach that cumulative size (the last one included); everything when absent.
   * @returns the levels with price, size and cumulative size as human decimal strings.
   */
  depth(
    side: BookSideName,
    limit: { levels: number } | { size: string } | undefined = undefined,
  ): DepthLevel[] {
    const target = limit && "size" in limit ? positive(limit.size, "size") : undefined;
    const maxLevels = limit && "levels" in limit ? limit.levels : Number.POSITIVE_INFINITY;
    if (!(maxLevels >= 0)) throw new InvalidArgumentError("levels", `must be >= 0, got ${maxLevels}`);
    this.uncross();
    const store = side === "bids" ? this.bidSide : this.askSide;
    const skip = side === "bids" ? this.hiddenBids : this.hiddenAsks;
    const out: DepthLevel[] = [];
    let total = new Exact(0);
    for (let i = skip; i < store.prices.length && out.length < maxLevels; i++) {
      const price = store.prices[i] as string;
      const size = (store.levels.get(price) as { size: string }).size;
      total = total.plus(size);
      out.push({ price, size, total: total.toFixed() });
      if (target && total.greaterThanOrEqualTo(target)) break;
    }
    return out;
  }

  /**
   * What filling `size` at market would cost: a BUY takes asks from the lowest, a SELL takes bids
   * from the highest. Sizes and notional are exact; the average price is rounded to 18 decimals
   * (half away from zero).
   *
   * @param side - the taker side.
   * @param size - the size to fill, a positive decimal string.
   * @returns `filled` (how much of `size` the book fills), `averagePrice` and `worstPrice` (exact
   *   decimal strings, `undefined` when nothing fills) and `complete` (whether all of `size`
   *   fills).
   */
  fillPrice(side: "BUY" | "SELL", size: string): FillEstimate {
    const wanted = positive(size, "size");
    let remaining = wanted;
    let notional = new Exact(0);
    let worst: string | undefined;
    for (const level of this.depth(side === "BUY" ? "asks" : "bids", { size })) {
      const take = Exact.min(remaining, level.size);
      notional = notional.plus(take.times(level.price));
      remaining = remaining.minus(take);
      worst = level.price;
    }
    const filled = wanted.minus(remaining);
    return {
      filled: filled.toFixed(),
      averagePrice: filled.isZero() ? undefined : notional.dividedBy(filled, AVERAGE).toFixed(),
      worstPrice: worst,
      complete: remaining.isZero(),
    };
  }

  private top(side: BookSideName): { price: string; size: string } | undefined {
    this.uncross();
    const store = side === "bids" ? this.bidSide : this.askSide;
    const price = store.prices[side === "bids" ? this.hiddenBids : this.hiddenAsks];
    if (price === undefined) return undefined;
    return { price, size: (store.levels.get(price) as { size: string }).size };
  }

  /** Computes how many top levels each side hides (see the class notes). */
  private uncross(): void {
    if (this.hiddenBids !== -1) return;
    const bids = this.bidSide;
    const asks = this.askSide;
    let i = 0;
    let j = 0;
    for (;;) {
      const bid = bids.prices[i];
      const ask = asks.prices[j];
      if (bid === undefined || ask === undefined || compareDecimals(bid, ask) < 0) break;
      const bidSeq = (bids.levels.get(bid) as { seq: number }).seq;
      const askSeq = (asks.levels.get(ask) as { seq: number }).seq;
      if (bidSeq > askSeq) j++;
      else i++;
    }
    this.hiddenBids = i;
    this.hiddenAsks = j;
  }
}

function positive(text: string, name: string): Exact {
  let value: Exact;
  try {
    value = new Exact(text, name);
  } catch {
    throw new InvalidArgumentError(name, `must be a decimal string, got ${JSON.stringify(text)}`);
  }
  if (typeof text !== "string" || value.lessThanOrEqualTo(0)) {
    throw new InvalidArgumentError(name, `must be a positive decimal string, got ${JSON.stringify(text)}`);
  }
  return value;
}
