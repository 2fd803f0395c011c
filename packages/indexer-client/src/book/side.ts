/**
 * One side of an order book: levels by canonical price, and the prices kept sorted best first
 * (bids descending, asks ascending) by binary search, so an update costs a lookup and, when a
 * level appears or disappears, one splice. Each sorted price has a numeric key beside it (its
 * nearest double, parsed once when the level appears): the search compares keys, and only equal
 * keys (prices closer than a double resolves) fall back to the exact text comparison, so the
 * order stays exact. The book's identity is the canonical text, never the number.
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
  /** `Number(prices[i])`, for a search that compares numbers first. */
  private readonly keys: number[] = [];
  /** Levels by canonical price. */
  readonly levels = new Map<string, StoredLevel>();

  /** @param descending - true for bids. */
  constructor(readonly descending: boolean) {}

  /** Sets a level to an absolute size (`[price, size]`); a zero size removes it. */
  set(level: OrderbookUpdateLevel, seq: number): void {
    let price = level[0];
    // A stored key is a canonical decimal already: a hit needs no parsing.
    let existing = this.levels.get(price);
    if (existing === undefined) {
      const canonical = canonicalDecimal(price);
      if (canonical !== price) {
        price = canonical;
        existing = this.levels.get(price);
      }
    }
    const size = level[1];
    if (isZeroDecimal(size)) {
      if (existing) {
        this.levels.delete(price);
        const at = this.indexOf(price, Number(price));
        this.prices.splice(at, 1);
        this.keys.splice(at, 1);
      }
      return;
    }
    if (existing) {
      existing.size = size;
      existing.seq = seq;
      return;
    }
    this.levels.set(price, { size, seq });
    const key = Number(price);
    const at = this.indexOf(price, key);
    this.prices.splice(at, 0, price);
    this.keys.splice(at, 0, key);
  }

  /** Removes every level. */
  clear(): void {
    this.prices.length = 0;
    this.keys.length = 0;
    this.levels.clear();
  }

  /** Where `price` (whose key is `key`) is, or would be inserted, in `prices`. */
  private indexOf(price: string, key: number): number {
    const prices = this.prices;
    const keys = this.keys;
    const descending = this.descending;
    let low = 0;
    let high = prices.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = keys[mid] as number;
      // Is prices[mid] strictly better than price (above it for bids, below it for asks)?
      const order = other === key ? compareDecimals(prices[mid] as string, price) : other < key ? -1 : 1;
      if (descending ? order > 0 : order < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
