/**
 * A market's order book kept live from the client's own indexer socket (the feed's connection: no
 * second socket), over the indexer client's book machinery. Watchers of one market share one
 * `v4_orderbook` subscription; the last `close()` unsubscribes.
 *
 * **Never stale, never crossed.** After a dropped socket (or a lost message) the subscription
 * resets and the stored levels no longer hold: from the reset until the fresh snapshot is applied,
 * `book()` and `top()` answer undefined and `synced` is false (a `stale` event says so), then a
 * `resync` event. Every read of a synced book is uncrossed by the indexer's own rule (see the
 * indexer client's `OrderBook`).
 */
import { assertKnownKeys, optionKeys } from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";
import {
  type IndexerSocket,
  type LiveOrderBook,
  type OrderBook,
  watchOrderBook,
} from "@perpx/indexer-client";
import { Emitter, type ResetReason } from "@perpx/indexer-client/ws";
import type { ClientContext } from "./client.js";

/**
 * The best bid and ask of a synced book (a side is undefined when it is empty).
 *
 * @example
 * ```ts
 * const top: BookTop = { bid: { price: "29990", size: "0.5" }, ask: { price: "30010", size: "0.4" } };
 * ```
 */
export interface BookTop {
  /** The best (highest) bid. */
  readonly bid: { readonly price: string; readonly size: string } | undefined;
  /** The best (lowest) ask. */
  readonly ask: { readonly price: string; readonly size: string } | undefined;
}

/**
 * The events of a {@link MarketBook}, by name.
 *
 * @example
 * ```ts
 * const event: MarketBookEvents["stale"] = { reason: "reconnect" };
 * ```
 */
export interface MarketBookEvents {
  [event: string]: unknown;
  /** The book changed (a snapshot or an update was applied); it is synced. */
  change: { readonly cause: "snapshot" | "update" };
  /** The book lost sync (a dropped socket, a lost message): reads answer undefined until `resync`. */
  stale: { readonly reason: ResetReason };
  /** The book was rebuilt from a fresh snapshot and is synced again. */
  resync: { readonly reason: ResetReason };
  /** The book stopped: `close()`, or the client closed. */
  end: Record<string, never>;
}

/** One subscription of a socket, shared by the watchers of its market. */
interface Shared {
  live: LiveOrderBook;
  watchers: number;
}

const ORDER_BOOK_KEYS = optionKeys<{ market: string }>({ market: true });
const SHARED = new WeakMap<IndexerSocket, Map<string, Shared>>();

/**
 * A live order book of one market: `top()` and `book()` read it (undefined while it resyncs),
 * events say when it changes, and `updates()` iterates its top.
 *
 * @example
 * ```ts
 * const book = await client.orderBook({ market: "BTC-USD" });
 * const top = book.top(); // the best bid and ask while synced, else undefined
 * book.synced; // true
 * book.close();
 * ```
 */
export class MarketBook extends Emitter<MarketBookEvents> {
  /** The market's ticker. */
  readonly market: string;
  readonly #live: LiveOrderBook;
  readonly #release: () => void;
  readonly #offs: (() => void)[] = [];
  #closed = false;

  /**
   * @param market - the ticker.
   * @param live - the shared live book.
   * @param release - called once, by `close()`.
   */
  constructor(market: string, live: LiveOrderBook, release: () => void) {
    super();
    this.market = market;
    this.#live = live;
    this.#release = release;
    const subscription = live.subscription;
    this.#offs.push(
      live.on("change", (change) => this.emit("change", change)),
      live.on("resync", (resync) => this.emit("resync", resync)),
      subscription.on("reset", ({ reason }) => this.emit("stale", { reason })),
      subscription.on("end", () => this.close()),
    );
  }

  /** True while the book reflects the indexer (false until the first snapshot and during a resync). */
  get synced(): boolean {
    return !this.#closed && this.#live.synced;
  }

  /**
   * Resolves once the book holds its first snapshot.
   *
   * @returns this book.
   * @throws {WebSocketClosedError | IndexerSubscriptionError} when the subscription ended first.
   */
  async ready(): Promise<this> {
    await this.#live.ready();
    return this;
  }

  /**
   * The whole book (depth, spread, mid, fill estimates), or undefined while it is not synced.
   *
   * @returns the indexer client's `OrderBook`, or undefined.
   */
  book(): OrderBook | undefined {
    return this.synced ? this.#live.book : undefined;
  }

  /**
   * The best bid and ask, or undefined while the book is not synced.
   *
   * @returns the top of the book, or undefined.
   */
  top(): BookTop | undefined {
    const book = this.book();
    return book ? { bid: book.bestBid(), ask: book.bestAsk() } : undefined;
  }

  /**
   * The top of the book each time it changes while synced (the latest one when several changes came
   * between two reads), starting with the current one; ends at `close()`.
   *
   * @returns an async iterator of tops.
   */
  async *updates(): AsyncIterableIterator<BookTop> {
    let pending = true;
    let wake: (() => void) | undefined;
    const offs = [
      this.on("change", () => {
        pending = true;
        wake?.();
      }),
      this.on("end", () => wake?.()),
    ];
    try {
      while (!this.#closed) {
        const top = pending ? this.top() : undefined;
        pending = false;
        if (top) {
          yield top;
          continue;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    } finally {
      for (const off of offs) off();
    }
  }

  /** Stops this watcher (the subscription ends with the last one); idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const off of this.#offs) off();
    this.#release();
    this.emit("end", {});
  }
}

/**
 * Watches a market's order book over the client's indexer socket and resolves once its first
 * snapshot is in.
 *
 * @param context - the client's context (its live feed's socket carries the book).
 * @param params - `market`: the ticker.
 * @returns the live book.
 * @throws {InvalidArgumentError} for an unknown market, or a client without a live feed
 *   (`liveFeed: false`, or no `indexerWs` endpoint answered).
 *
 * @example
 * ```ts
 * const book = await watchMarketBook(context, { market: "BTC-USD" });
 * book.top()?.ask !== undefined; // true: the devnet's market maker quotes
 * book.close();
 * await watchMarketBook(context, { market: "NOPE-USD" }); // throws InvalidArgumentError
 * ```
 */
export async function watchMarketBook(
  context: ClientContext,
  params: { market: string },
): Promise<MarketBook> {
  assertKnownKeys(params, ORDER_BOOK_KEYS, "orderBook");
  const ticker = (await context.markets.get(params.market)).ticker;
  const socket = context.feed?.socket;
  if (!socket || socket.closed) {
    throw new InvalidArgumentError(
      "orderBook",
      "the client has no live indexer feed: connect with an indexerWs endpoint (and liveFeed not false)",
    );
  }
  let books = SHARED.get(socket);
  if (!books) {
    books = new Map();
    SHARED.set(socket, books);
  }
  let shared = books.get(ticker);
  if (!shared || shared.live.subscription.state === "ended") {
    shared = { live: watchOrderBook(socket, { market: ticker }), watchers: 0 };
    books.set(ticker, shared);
  }
  const entry = shared;
  entry.watchers++;
  const book = new MarketBook(ticker, entry.live, () => {
    entry.watchers--;
    if (entry.watchers > 0) return;
    if (books.get(ticker) === entry) books.delete(ticker);
    entry.live.close();
  });
  try {
    return await book.ready();
  } catch (error) {
    book.close();
    throw error;
  }
}
