/**
 * The demo's live order book: the indexer's `v4_orderbook` feed kept in a local book, its top
 * printed each time it changes (while printing is on), and a way to wait until it shows something.
 */
import { connectIndexerSocket, type OrderBook, watchOrderBook } from "@perpx/indexer-client";
import { HANG_GUARD_MS } from "../support/wait.js";

type Level = { price: string; size: string } | undefined;

function topOf(book: OrderBook): string {
  const side = (level: Level) => (level ? `${level.size} @ ${level.price}` : "empty");
  return `bid ${side(book.bestBid())} | ask ${side(book.bestAsk())}`;
}

/** A live book of one market, printing its top as it changes. */
export interface BookWatch {
  /** The book, always the latest. */
  readonly book: OrderBook;
  /** Prints the top on every change from now on (`true`), or stops (`false`). */
  print(on: boolean): void;
  /** Resolves with the book once `predicate` holds (checked now and on every change). */
  until(what: string, predicate: (book: OrderBook) => boolean, timeoutMs?: number): Promise<OrderBook>;
  /** Unsubscribes and closes the socket. */
  close(): Promise<void>;
}

/**
 * Subscribes to a market's book on the indexer's WebSocket and prints its top with `log`.
 *
 * @example
 * ```ts
 * const watch = await watchBook(devnet.endpoints.indexerWs, "BTC-USD", console.log);
 * ```
 */
export async function watchBook(
  url: string,
  market: string,
  log: (line: string) => void,
): Promise<BookWatch> {
  const socket = await connectIndexerSocket({ url });
  const live = watchOrderBook(socket, { market });
  let printing = false;
  let last = "";
  const waiters = new Set<() => void>();
  live.on("change", () => {
    const top = topOf(live.book);
    if (printing && top !== last) log(`book ${market}: ${top}`);
    last = top;
    for (const wake of waiters) wake();
  });
  await live.ready();
  return {
    book: live.book,
    print(on) {
      printing = on;
      if (on) {
        last = topOf(live.book);
        log(`book ${market}: ${last}`);
      }
    },
    until(what, predicate, timeoutMs = HANG_GUARD_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(live.book)) return;
          cleanup();
          resolve(live.book);
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
      await socket.close();
    },
  };
}
