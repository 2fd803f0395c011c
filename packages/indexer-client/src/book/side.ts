/**
 * One side of an order book: levels by canonical price, and the prices kept sorted best first
 * (bids descending, asks ascending) by binary search, so an update costs a lookup and, when a
 * level appears or disappears, one splice.
 */
import type { OrderbookUpdateLevel } from "@perpx/core/indexer";
import { canonicalDecimal, compareDecimals, isZeroDecimal } from "./decimal-text.js";

/** A stored level: its size and the update sequence number that last set it (0: the snapshot). */
export interface StoredLevel {
  size: string;
  seq: number;
}

/** One side of a book. */
export class BookSide {
  /** Canonical prices, best first. */
  readonly prices: string[] = [];
  /** Levels by canonical price. */
  readonly levels = new Map<string, StoredLevel>();

  /** @param descending - true for bids. */
  constructor(readonly descending: boolean) {}

  /** Sets a level to an absolute size (`[price, size]`); a zero size removes it. */
  set(level: OrderbookUpdateLevel, seq: number): void {
    const price = canonicalDecimal(level[0]);
    const size = level[1];
    const existing = this.levels.get(price);
    if (isZeroDecimal(size)) {
      if (existing) {
        this.levels.delete(price);
        this.prices.splice(this.indexOf(price), 1);
      }
      return;
    }
    if (existing) {
      existing.size = size;
      existing.seq = seq;
      return;
    }
    this.levels.set(price, { size, seq });
    this.prices.splice(this.indexOf(price), 0, price);
  }

  /** Removes every level. */
  clear(): void {
    this.prices.length = 0;
    this.levels.clear();
  }

  /** Where `price` is, or would be inserted, in `prices`. */
  private indexOf(price: string): number {
    const prices = this.prices;
    const sign = this.descending ? -1 : 1;
    let low = 0;
    let high = prices.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (sign * compareDecimals(prices[mid] as string, price) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
