/**
 * The shadow feed: a fork follows its live network through the live indexer's WebSocket only.
 * - `v4_markets`: every live oracle price is set on the fork at once;
 * - `v4_orderbook` (each market): the fork's mirror maker rests the live book's best levels,
 *   replacing them as they change, so a market order on the fork fills at the live prices and depth;
 * - `v4_trades` (each market): a live trade through a price fills the fork's resting orders at or
 *   through it, each at its own price.
 * A live indexer that drops pauses the feed (the fork keeps its last prices and book; status
 * `paused`), and the socket's reconnect resumes it from fresh snapshots (status `following`).
 * Nothing is ever sent to the live network but subscriptions.
 */
import type { Devnet } from "@perpx/devnet";
import {
  connectIndexerSocket,
  type IndexerSocket,
  type LiveOrderBook,
  watchOrderBook,
} from "@perpx/indexer-client";
import type { IndexerWebSocketConstructor } from "@perpx/indexer-client/ws";

/**
 * Where the shadow feed is: `following` the live network, `paused` while it is unreachable (the fork
 * runs on its last prices), or `stopped`.
 *
 * @example
 * ```ts
 * const state: ShadowState = "paused";
 * ```
 */
export type ShadowState = "following" | "paused" | "stopped";

/**
 * The shadow feed's status (`fork.shadow.status()`, control `GET /devnet/fork/shadow`).
 *
 * @example
 * ```ts
 * const status: ShadowStatus = { state: "following", since: new Date().toISOString(), oracleUpdates: 0, bookUpdates: 0, tradeThroughs: 0 };
 * ```
 */
export interface ShadowStatus {
  readonly state: ShadowState;
  /** When it entered this state (ISO 8601). */
  readonly since: string;
  /** Why it paused (the live socket's disconnect cause). */
  readonly reason?: string;
  /** Live oracle prices set on the fork. */
  readonly oracleUpdates: number;
  /** Live book changes mirrored on the fork. */
  readonly bookUpdates: number;
  /** Live trades replayed through the fork's resting orders. */
  readonly tradeThroughs: number;
}

/**
 * One change the shadow applied to the fork (for lag measurements).
 *
 * @example
 * ```ts
 * const event: ShadowEvent = { kind: "oracle", market: "BTC-USD", price: "65000" };
 * ```
 */
export type ShadowEvent =
  | { readonly kind: "oracle"; readonly market: string; readonly price: string }
  | { readonly kind: "book"; readonly market: string }
  | { readonly kind: "trade"; readonly market: string; readonly price: string };

/**
 * Options of {@link startShadow}.
 *
 * @example
 * ```ts
 * import { startDevnet } from "@perpx/devnet";
 *
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0, mirror: true });
 * const options: ShadowOptions = { devnet, indexerWs: "ws://127.0.0.1:3003/v4/ws", markets: ["BTC-USD"] };
 * await devnet.stop();
 * ```
 */
export interface ShadowOptions {
  /** The fork (a devnet started with `fork` and its mirror maker). */
  readonly devnet: Devnet;
  /** The live indexer's WebSocket URL. */
  readonly indexerWs: string;
  /** The markets whose book and trades are mirrored (tickers). */
  readonly markets: readonly string[];
  /** Levels per side mirrored. @default 10 */
  readonly bookLevels?: number;
  /** Longest wait between two reconnect attempts to the live indexer. @default 2000 */
  readonly maxReconnectDelayMs?: number;
  /** A `WebSocket` constructor. @default the indexer client's */
  readonly WebSocket?: IndexerWebSocketConstructor;
  /** Called after each change applied to the fork. */
  readonly onEvent?: (event: ShadowEvent) => void;
  /** Called with a change that could not be applied (the feed goes on). */
  readonly onError?: (error: unknown) => void;
}

/**
 * A running shadow feed.
 *
 * @example
 * ```ts
 * import { startDevnet } from "@perpx/devnet";
 *
 * const [live, copy] = await Promise.all([
 *   startDevnet({ ports: "free", blockTimeMs: 0 }),
 *   startDevnet({ ports: "free", blockTimeMs: 0, mirror: true }),
 * ]);
 * const shadow: Shadow = await startShadow({ devnet: copy, indexerWs: live.endpoints.indexerWs, markets: ["BTC-USD"] });
 * shadow.status().state; // "following"
 * await shadow.stop();
 * await Promise.all([live.stop(), copy.stop()]);
 * ```
 */
export interface Shadow {
  /** The feed's status. */
  status(): ShadowStatus;
  /** Unsubscribes and closes the live socket. */
  stop(): Promise<void>;
}

/**
 * Starts following the live network on a fork (see the module comment).
 *
 * @param options - the fork, the live indexer's socket, the markets.
 * @returns the feed, once the live socket is connected.
 * @throws the socket's errors when the live indexer cannot be reached at all.
 * @example
 * ```ts
 * import { startDevnet } from "@perpx/devnet";
 *
 * const [live, copy] = await Promise.all([
 *   startDevnet({ ports: "free", blockTimeMs: 0 }),
 *   startDevnet({ ports: "free", blockTimeMs: 0, mirror: true }),
 * ]);
 * const shadow = await startShadow({ devnet: copy, indexerWs: live.endpoints.indexerWs, markets: ["BTC-USD"] });
 * live.app.control.setOraclePrice("BTC-USD", "61000");
 * live.mine(1);
 * // The copy's BTC-USD oracle follows to 61000 as the live indexer's v4_markets reports it.
 * await shadow.stop();
 * await Promise.all([live.stop(), copy.stop()]);
 * ```
 */
export async function startShadow(options: ShadowOptions): Promise<Shadow> {
  const { devnet } = options;
  const mirror = devnet.mirror;
  const levels = options.bookLevels ?? 10;
  const onError = options.onError ?? (() => undefined);
  const emit = options.onEvent ?? (() => undefined);
  let status: ShadowStatus = {
    state: "following",
    since: new Date().toISOString(),
    oracleUpdates: 0,
    bookUpdates: 0,
    tradeThroughs: 0,
  };
  const count = (field: "oracleUpdates" | "bookUpdates" | "tradeThroughs") => {
    status = { ...status, [field]: status[field] + 1 };
  };
  const guarded = (run: () => void) => {
    try {
      run();
    } catch (error) {
      onError(error);
    }
  };

  const socket: IndexerSocket = await connectIndexerSocket({
    url: options.indexerWs,
    reconnect: { initialDelayMs: 100, maxDelayMs: options.maxReconnectDelayMs ?? 2000 },
    ...(options.WebSocket === undefined ? {} : { WebSocket: options.WebSocket }),
  });
  socket.on("disconnect", ({ cause }) => {
    if (status.state === "stopped") return;
    status = { ...status, state: "paused", since: new Date().toISOString(), reason: String(cause) };
  });
  socket.on("open", () => {
    if (status.state !== "paused") return;
    const { reason: _reason, ...rest } = status;
    status = { ...rest, state: "following", since: new Date().toISOString() };
  });

  const setPrice = (market: string, price: string) =>
    guarded(() => {
      devnet.app.control.setOraclePrice(market, price);
      count("oracleUpdates");
      emit({ kind: "oracle", market, price });
    });
  const markets = socket.subscribe("v4_markets");
  markets.on("snapshot", ({ contents }) => {
    for (const [ticker, market] of Object.entries(contents.markets)) {
      if (market.oraclePrice !== null && market.oraclePrice !== undefined)
        setPrice(ticker, market.oraclePrice);
    }
  });
  markets.on("update", ({ contents }) => {
    for (const [ticker, update] of Object.entries(contents.oraclePrices ?? {}))
      setPrice(ticker, update.oraclePrice);
  });

  const books: LiveOrderBook[] = [];
  const trades = options.markets.map((market) => {
    if (mirror !== undefined) {
      const live = watchOrderBook(socket, { market });
      live.on("change", () =>
        guarded(() => {
          const top = (side: "bids" | "asks") =>
            live.book.depth(side, { levels }).map((l) => ({ price: l.price, size: l.size }));
          mirror.setBook(market, { bids: top("bids"), asks: top("asks") });
          count("bookUpdates");
          emit({ kind: "book", market });
        }),
      );
      books.push(live);
    }
    const subscription = socket.subscribe("v4_trades", market);
    subscription.on("update", ({ contents }) => {
      for (const trade of contents.trades) {
        guarded(() => {
          if (mirror === undefined) return;
          mirror.tradeThrough(market, trade.side === "BUY" ? "buy" : "sell", trade.price, trade.size);
          count("tradeThroughs");
          emit({ kind: "trade", market, price: trade.price });
        });
      }
    });
    return subscription;
  });

  return {
    status: () => status,
    stop: async () => {
      status = { ...status, state: "stopped", since: new Date().toISOString() };
      for (const book of books) book.close();
      for (const subscription of trades) subscription.unsubscribe();
      markets.unsubscribe();
      await socket.close();
    },
  };
}
