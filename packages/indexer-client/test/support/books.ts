/** Helpers comparing a client's book with the fake indexer's truth, and random order flows. */
import { expect } from "vitest";
import type { OrderBook } from "../../src/book/orderBook.js";
import type { FakeIndexer } from "./fake-indexer.js";

/** The truth book's visible levels, sorted like the client's. */
export function truthLevels(fake: FakeIndexer, ticker: string): { bids: string[][]; asks: string[][] } {
  const book = fake.book(ticker);
  const sort = (levels: Map<string, string>, descending: boolean) =>
    [...levels.entries()].sort(([a], [b]) => (descending ? Number(b) - Number(a) : Number(a) - Number(b)));
  return { bids: sort(book.bids, true), asks: sort(book.asks, false) };
}

/** The client book's levels as `[price, size]` pairs. */
export function clientLevels(book: OrderBook): { bids: string[][]; asks: string[][] } {
  return {
    bids: book.depth("bids").map((l) => [l.price, l.size]),
    asks: book.depth("asks").map((l) => [l.price, l.size]),
  };
}

/** Asserts the client book equals the truth. */
export function expectSameBook(book: OrderBook, fake: FakeIndexer, ticker: string): void {
  expect(clientLevels(book)).toEqual(truthLevels(fake, ticker));
}

/** A small deterministic random generator (mulberry32). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random uncrossed level changes: bids below 100, asks above 100. */
export function randomFlow(fake: FakeIndexer, ticker: string, steps: number, random: () => number): void {
  for (let i = 0; i < steps; i++) {
    const bid = random() < 0.5;
    const price = bid ? String(90 + Math.floor(random() * 10)) : String(101 + Math.floor(random() * 10));
    const size = random() < 0.25 ? "0" : (1 + Math.floor(random() * 50) / 10).toString();
    fake.setLevel(ticker, bid ? "bids" : "asks", price, size);
  }
}
