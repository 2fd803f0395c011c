/**
 * An order book kept live from a `v4_orderbook` subscription: the snapshot, then every update;
 * after a reconnect or a lost message the subscription resets and the book rebuilds itself from
 * the fresh snapshot, then says so with a `resync` event.
 */
import type { IndexerSocket } from "../ws/connection.js";
import { Emitter } from "../ws/emitter.js";
import type { ResetReason, Subscription } from "../ws/subscription.js";
import { OrderBook } from "./orderBook.js";

const UPDATE_CHANGE = Object.freeze({ cause: "update" as const });
const SNAPSHOT_CHANGE = Object.freeze({ cause: "snapshot" as const });

/**
 * The events of a {@link LiveOrderBook}, by name.
 *
 * @example
 * ```ts
 * const event: LiveOrderBookEvents["resync"] = { reason: "reconnect" };
 * event.reason; // "reconnect"
 * ```
 */
export interface LiveOrderBookEvents {
  [event: string]: unknown;
  /** The book changed (a snapshot or an update was applied). */
  change: { readonly cause: "snapshot" | "update" };
  /** The book was rebuilt from a fresh snapshot after a reconnect or a lost message. */
  resync: { readonly reason: ResetReason };
}

/**
 * Options of {@link watchOrderBook}.
 *
 * @example
 * ```ts
 * const options: WatchOrderBookOptions = { market: "BTC-USD", batched: true };
 * ```
 */
export interface WatchOrderBookOptions {
  /** The market ticker, e.g. `BTC-USD`. */
  readonly market: string;
  /**
   * Ask the server to batch updates (every 250 ms).
   * @default false
   */
  readonly batched?: boolean;
}

/**
 * A live order book: `book` is always the latest state; `synced` is false between a reset and
 * the fresh snapshot.
 *
 * @example
 * ```ts
 * const socket = await connectIndexerSocket({ url: devnet.endpoints.indexerWs });
 * const live = watchOrderBook(socket, { market: "BTC-USD", batched: true });
 * const book = await live.ready();
 * live.synced; // true
 * book.crossed; // false
 * live.close();
 * await socket.close();
 * ```
 */
export class LiveOrderBook extends Emitter<LiveOrderBookEvents> {
  /** The book. */
  readonly book = new OrderBook();
  /** The subscription feeding it. */
  readonly subscription: Subscription<"v4_orderbook">;
  private isSynced = false;

  /** @param subscription - a `v4_orderbook` subscription that has delivered nothing yet. */
  constructor(subscription: Subscription<"v4_orderbook">) {
    super();
    this.subscription = subscription;
    subscription.on("snapshot", ({ contents, reason }) => {
      this.book.applySnapshot(contents);
      this.isSynced = true;
      this.emit("change", SNAPSHOT_CHANGE);
      if (reason !== "initial") this.emit("resync", { reason });
    });
    subscription.on("update", ({ contents }) => {
      this.book.applyUpdate(contents);
      this.emit("change", UPDATE_CHANGE);
    });
    subscription.on("reset", () => {
      this.isSynced = false;
    });
    subscription.on("end", () => {
      this.isSynced = false;
      this.removeAllListeners();
    });
  }

  /** True when the book reflects the server (false while waiting for a snapshot). */
  get synced(): boolean {
    return this.isSynced;
  }

  /**
   * Resolves once the first snapshot is in the book.
   *
   * @returns resolves with the book once the snapshot is in; rejects when the subscription fails
   *   first.
   */
  async ready(): Promise<OrderBook> {
    await this.subscription.ready();
    return this.book;
  }

  /** Unsubscribes. */
  close(): void {
    this.subscription.unsubscribe();
  }
}

/**
 * Subscribes to a market's order book and keeps it.
 *
 * @param socket - an indexer socket.
 * @param options - the market and batching.
 * @returns the live book.
 *
 * @example
 * ```ts
 * const socket = await connectIndexerSocket({ url: devnet.endpoints.indexerWs });
 * const live = watchOrderBook(socket, { market: "BTC-USD", batched: true });
 * const book = await live.ready();
 * live.synced; // true
 * book.crossed; // false
 * live.close();
 * await socket.close();
 * ```
 */
export function watchOrderBook(socket: IndexerSocket, options: WatchOrderBookOptions): LiveOrderBook {
  return new LiveOrderBook(
    socket.subscribe("v4_orderbook", options.market, { batched: options.batched ?? false }),
  );
}
