/**
 * The shadow feed: a fork follows its live network through the live indexer's WebSocket only.
 * - `v4_markets`: every live oracle price is set on the fork at once;
 * - `v4_orderbook` (each market): the fork's mirror maker rests the live book's best levels,
 *   replacing them as they change, so a market order on the fork fills at the live prices and depth;
 * - `v4_trades` (each market): a live trade through a price fills the fork's resting orders at or
 *   through it, each at its own price. Each trade is checked against the fork's own market first
 *   (a market the fork holds, side `BUY` or `SELL`, a positive price on its tick and size on its
 *   step, a size within the open interest `v4_markets` reports; at most 1000 trades a frame, the
 *   most the reference indexer sends): a bad one is refused (`tradeRefusals`, `onError`), the feed
 *   goes on.
 * A live indexer that drops pauses the feed (the fork keeps its last prices and book; status
 * `paused`), and the socket's reconnect resumes it from fresh snapshots (status `following` once
 * every channel has its fresh snapshot). A channel whose frame could not be read waits paused for
 * its fresh snapshot too, and one the live indexer refuses is subscribed again. One connection
 * holds at most 32 books and 32 trade channels (the indexer's per-connection limit), so a live
 * network with more markets is followed over several.
 * Nothing is ever sent to the live network but subscriptions.
 */
import { checkDelayMs, type LongTimeout, setLongTimeout } from "@perpx/core";
import { INDEXER_CHANNEL_SUBSCRIPTION_LIMITS, type IndexerChannel } from "@perpx/core/indexer";
import type { Devnet } from "@perpx/devnet";
import { connectIndexerSocket, watchOrderBook } from "@perpx/indexer-client";
import type { IndexerWebSocketConstructor, Subscription } from "@perpx/indexer-client/ws";
import { forkMarketGrids, TradeGuard } from "./trades.js";

/** How long `startShadow` waits for the first snapshots before it resolves (paused, then). */
const FIRST_SNAPSHOTS_MS = 10_000;

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
 * const status: ShadowStatus = { state: "following", since: new Date().toISOString(), oracleUpdates: 0, bookUpdates: 0, tradeThroughs: 0, tradeRefusals: 0 };
 * ```
 */
export interface ShadowStatus {
  readonly state: ShadowState;
  /** When it entered this state (ISO 8601). */
  readonly since: string;
  /**
   * Why it paused: a live socket's disconnect cause (`closed`, `stalled`, ...), or the channel
   * waiting for a fresh snapshot (`v4_markets: refused by the live indexer (...)`).
   */
  readonly reason?: string;
  /** Live oracle prices set on the fork. */
  readonly oracleUpdates: number;
  /** Live book changes mirrored on the fork. */
  readonly bookUpdates: number;
  /** Live trades replayed through the fork's resting orders. */
  readonly tradeThroughs: number;
  /**
   * Live trades refused, never replayed: of a market the fork does not hold, a side neither `BUY`
   * nor `SELL`, a price or size that is not a positive decimal on the market's tick or step, a size
   * beyond the market's open interest before and after it, or one of a frame of more than 1000
   * trades. Each is reported to `onError` as an `IndexerFrameError` naming the trade's field.
   */
  readonly tradeRefusals: number;
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
  /**
   * Longest wait between two reconnect attempts to the live indexer, ms: a positive finite number
   * (any size), else refused with an `InvalidArgumentError` naming it before anything is opened.
   * @default 2000
   */
  readonly maxReconnectDelayMs?: number;
  /** A `WebSocket` constructor. @default the indexer client's */
  readonly WebSocket?: IndexerWebSocketConstructor;
  /** Called after each change applied to the fork. */
  readonly onEvent?: (event: ShadowEvent) => void;
  /** Called with a change that could not be applied, or a live trade refused (the feed goes on). */
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
 * @returns the feed, once the live sockets are connected and every channel has its first snapshot
 *   (after 10 s without them, the feed is returned `paused` and follows once they come).
 * @throws {InvalidArgumentError} naming `maxReconnectDelayMs` when it is no positive number of ms.
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
  const maxDelayMs = checkDelayMs(options.maxReconnectDelayMs ?? 2000, "maxReconnectDelayMs");
  let status: ShadowStatus = {
    state: "following",
    since: new Date().toISOString(),
    oracleUpdates: 0,
    bookUpdates: 0,
    tradeThroughs: 0,
    tradeRefusals: 0,
  };
  const count = (field: "oracleUpdates" | "bookUpdates" | "tradeThroughs" | "tradeRefusals") => {
    status = { ...status, [field]: status[field] + 1 };
  };
  const guarded = (run: () => void) => {
    try {
      run();
    } catch (error) {
      onError(error);
    }
  };

  // Why the feed is not live: a socket that dropped (by socket), a feed waiting for a snapshot (by
  // channel and id). The feed follows only when neither holds anything.
  const down = new Map<number, string>();
  const waiting = new Map<string, string>();
  let settled: (() => void) | undefined;
  const review = () => {
    if (status.state === "stopped") return;
    const reason = down.values().next().value ?? waiting.values().next().value;
    if (reason === undefined) {
      if (status.state !== "following") {
        const { reason: _reason, ...rest } = status;
        status = { ...rest, state: "following", since: new Date().toISOString() };
      }
      settled?.();
    } else if (status.state !== "paused") {
      status = { ...status, state: "paused", since: new Date().toISOString(), reason };
    } else if (status.reason !== reason) {
      status = { ...status, reason };
    }
  };

  // One connection holds at most this many book (and trade) subscriptions: more markets, more sockets.
  const perSocket = Math.min(
    INDEXER_CHANNEL_SUBSCRIPTION_LIMITS.v4_orderbook,
    INDEXER_CHANNEL_SUBSCRIPTION_LIMITS.v4_trades,
  );
  const groups: string[][] = [];
  for (let i = 0; i < options.markets.length; i += perSocket)
    groups.push(options.markets.slice(i, i + perSocket));
  if (groups.length === 0) groups.push([]);
  const connected = await Promise.allSettled(
    groups.map(() =>
      connectIndexerSocket({
        url: options.indexerWs,
        reconnect: { initialDelayMs: 100, maxDelayMs },
        ...(options.WebSocket === undefined ? {} : { WebSocket: options.WebSocket }),
      }),
    ),
  );
  const sockets = connected.flatMap((c) => (c.status === "fulfilled" ? [c.value] : []));
  const failed = connected.find((c) => c.status === "rejected");
  if (failed !== undefined) {
    await Promise.allSettled(sockets.map((socket) => socket.close()));
    throw failed.reason;
  }

  // Every live trade is judged against the fork's own markets before it touches the fork's book.
  const guard = new TradeGuard(
    mirror === undefined ? new Map() : forkMarketGrids(devnet),
    (market, trade) =>
      guarded(() => {
        mirror?.tradeThrough(market, trade.side, trade.price, trade.size);
        count("tradeThroughs");
        emit({ kind: "trade", market, price: trade.price });
      }),
    (error) => {
      count("tradeRefusals");
      onError(error);
    },
  );
  const closers: Array<() => void> = [];
  const timers = new Set<LongTimeout>();
  /**
   * Keeps one feed (a channel and id) subscribed: `open` subscribes and answers its subscription;
   * the feed waits from its reset to its next snapshot, and a subscription the live indexer ended
   * (refused) is subscribed again, after a delay that doubles up to `maxReconnectDelayMs`.
   */
  const follow = (
    key: string,
    open: () => { subscription: Subscription<IndexerChannel>; close(): void },
    attempt = 0,
  ) => {
    if (status.state === "stopped") return;
    waiting.set(key, `${key}: waiting for a snapshot`);
    const { subscription, close } = open();
    closers.push(close);
    subscription.on("reset", ({ reason }) => {
      waiting.set(key, `${key}: waiting for a fresh snapshot (${reason})`);
      review();
    });
    subscription.on("snapshot", () => {
      attempt = 0;
      waiting.delete(key);
      review();
    });
    subscription.on("end", ({ error }) => {
      if (error === undefined || status.state === "stopped") return;
      onError(error);
      waiting.set(key, `${key}: refused by the live indexer (${error.message}); subscribing again`);
      review();
      const timer = setLongTimeout(
        () => {
          timers.delete(timer);
          guarded(() => follow(key, open, attempt + 1));
        },
        Math.min(maxDelayMs, 100 * 2 ** attempt),
      );
      timers.add(timer);
    });
  };

  const setPrice = (market: string, price: string) =>
    guarded(() => {
      devnet.app.control.setOraclePrice(market, price);
      count("oracleUpdates");
      emit({ kind: "oracle", market, price });
    });

  try {
    sockets.forEach((socket, index) => {
      socket.on("disconnect", ({ cause }) => {
        down.set(index, String(cause));
        review();
      });
      socket.on("open", () => {
        down.delete(index);
        review();
      });
      if (index === 0) {
        follow("v4_markets", () => {
          const markets = socket.subscribe("v4_markets");
          markets.on("snapshot", ({ contents }) => {
            for (const [ticker, market] of Object.entries(contents.markets)) {
              if (market.oraclePrice !== null && market.oraclePrice !== undefined)
                setPrice(ticker, market.oraclePrice);
              guarded(() => guard.report(ticker, market.openInterest));
            }
          });
          markets.on("update", ({ contents }) => {
            for (const [ticker, update] of Object.entries(contents.oraclePrices ?? {}))
              setPrice(ticker, update.oraclePrice);
            for (const [ticker, update] of Object.entries(contents.trading ?? {}))
              guarded(() => guard.report(ticker, update.openInterest));
          });
          return {
            subscription: markets as Subscription<IndexerChannel>,
            close: () => markets.unsubscribe(),
          };
        });
      }
      for (const market of groups[index] ?? []) {
        if (mirror !== undefined) {
          follow(`v4_orderbook ${market}`, () => {
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
            return {
              subscription: live.subscription as Subscription<IndexerChannel>,
              close: () => live.close(),
            };
          });
        }
        follow(`v4_trades ${market}`, () => {
          const trades = socket.subscribe("v4_trades", market);
          trades.on("update", ({ contents }) => {
            if (mirror !== undefined) guarded(() => guard.trades(market, contents.trades));
          });
          return { subscription: trades as Subscription<IndexerChannel>, close: () => trades.unsubscribe() };
        });
      }
    });
  } catch (error) {
    for (const timer of timers) timer.clear();
    await Promise.allSettled(sockets.map((socket) => socket.close()));
    throw error;
  }

  // Resolved once every feed has its first snapshot (or after FIRST_SNAPSHOTS_MS, paused then).
  review();
  if (status.state !== "following") {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, FIRST_SNAPSHOTS_MS);
      settled = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    settled = undefined;
  }

  let stopping: Promise<void> | undefined;
  return {
    status: () => status,
    stop: () => {
      stopping ??= (async () => {
        status = { ...status, state: "stopped", since: new Date().toISOString() };
        guard.clear();
        for (const timer of timers) timer.clear();
        for (const close of closers) close();
        await Promise.allSettled(sockets.map((socket) => socket.close()));
      })();
      return stopping;
    },
  };
}
