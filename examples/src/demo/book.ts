/**
 * The demo's live order book: the composite client's own book stream (over the socket its live
 * feed already holds), its top printed each time it changes (while printing is on), and a way to
 * wait until it shows something.
 */
import type { CompositeClient, MarketBook } from "@perpx/composite-client";
import type { OrderBook } from "@perpx/indexer-client";
import { HANG_GUARD_MS } from "../support/wait.js";

type Level = { price: string; size: string } | undefined;

function topOf(live: MarketBook): string {
  const top = live.top();
  if (!top) return "resyncing";
  const side = (level: Level) => (level ? `${level.size} @ ${level.price}` : "empty");
  return `bid ${side(top.bid)} | ask ${side(top.ask)}`;
}

/** A live book of one market, printing its top as it changes. */
export interface BookWatch {
  /** The book, always the latest (undefined while it resyncs after a dropped socket). */
  book(): OrderBook | undefined;
  /** Prints the top on every change from now on (`true`), or stops (`false`). */
  print(on: boolean): void;
  /** Resolves with the book once `predicate` holds (checked now and on every change). */
  until(what: string, predicate: (book: OrderBook) => boolean, timeoutMs?: number): Promise<OrderBook>;
  /** Stops watching. */
  close(): Promise<void>;
}

/**
 * Watches a market's book through `client.orderBook` and prints its top with `log`.
 *
 * @example
 * ```ts
 * const watch = await watchBook(client, "BTC-USD", console.log);
 * ```
 */
export async function watchBook(
  client: CompositeClient,
  market: string,
  log: (line: string) => void,
): Promise<BookWatch> {
  const live = await client.orderBook({ market });
  let printing = false;
  let last = topOf(live);
  const waiters = new Set<() => void>();
  live.on("change", () => {
    const top = topOf(live);
    if (printing && top !== last) log(`book ${market}: ${top}`);
    last = top;
    for (const wake of waiters) wake();
  });
  return {
    book: () => live.book(),
    print(on) {
      printing = on;
      if (on) {
        last = topOf(live);
        log(`book ${market}: ${last}`);
      }
    },
    until(what, predicate, timeoutMs = HANG_GUARD_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const book = live.book();
          if (!book || !predicate(book)) return;
          cleanup();
          resolve(book);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`the ${market} book did not show ${what} within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      live.close();
    },
  };
}
