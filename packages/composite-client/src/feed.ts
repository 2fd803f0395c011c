import { checkDelayMs, setLongTimeout } from "@perpx/core";
import { TimeoutError } from "@perpx/errors";
import {
  connectIndexerSocket,
  type IndexerSocket,
  type LiveSubaccount,
  watchSubaccount,
} from "@perpx/indexer-client";
import type { HeightTracker } from "./height.js";
import type { MarketCache } from "./markets.js";

/**
 * The client's live state from the indexer's WebSocket: the height (`v4_block_height`), the
 * markets' oracle prices (`v4_markets`) and the traded subaccount (`v4_subaccounts`). The socket
 * reconnects and resubscribes by itself; every subscription then starts again from a fresh snapshot,
 * so the caches resync after a reconnect.
 *
 * @example
 * ```ts
 * const feed: LiveFeed = client.context.feed!;
 * feed.subaccount?.view.blockHeight !== undefined; // true: the account's snapshot is in
 * ```
 */
export interface LiveFeed {
  /** The socket. */
  readonly socket: IndexerSocket;
  /** The traded subaccount, live (undefined for a read-only client). */
  readonly subaccount: LiveSubaccount | undefined;
  /** True while the socket is connected and has delivered a block within `staleMs`. */
  live(): boolean;
  /** Unsubscribes and closes the socket. */
  stop(): Promise<void>;
}

/**
 * Options of {@link startLiveFeed}.
 *
 * @example
 * ```ts
 * const { height, markets } = client.context;
 * const options: LiveFeedOptions = { url: "ws://127.0.0.1:3003/v4/ws", height, markets, staleMs: 3_000 };
 * ```
 */
export interface LiveFeedOptions {
  /** The indexer's WebSocket URL (core's `indexerSocketUrl`). */
  url: string;
  /** The height tracker the feed's blocks go to. */
  height: HeightTracker;
  /** The market cache the feed's oracle prices go to. */
  markets: MarketCache;
  /**
   * The subaccount to keep live.
   * @default undefined (none)
   */
  subaccount?: { owner: string; number: number } | undefined;
  /**
   * How long without a block the feed counts as stalled (the node poll and the market schedule
   * then take over), ms: a positive finite number (any size), else refused with an
   * `InvalidArgumentError` naming it.
   * @default 3000
   */
  staleMs?: number;
  /**
   * How long the whole start-up may take, ms: the socket and every first snapshot, counted from
   * the call (a positive finite number, else refused with an `InvalidArgumentError` naming it).
   * @default 10000
   */
  connectTimeoutMs?: number;
}

/**
 * Connects to the indexer's WebSocket, subscribes to the height, the markets and the subaccount,
 * and resolves once their first snapshots are applied.
 *
 * @param options - the indexer socket URL, the live height, the market cache and the subaccount to
 *   follow (see `LiveFeedOptions`).
 * @returns resolves with the live feed (height, markets, subaccount) once every first snapshot is
 *   in.
 * @throws {InvalidArgumentError} naming `staleMs` or `connectTimeoutMs` when it is no positive
 *   number of ms, before anything is opened.
 * @throws {IndexerTransportError | TimeoutError} when the socket cannot be opened.
 * @throws {TimeoutError} naming the channels whose first snapshot did not arrive when the start-up
 *   took longer than `connectTimeoutMs` (the socket is then closed).
 *
 * @example
 * ```ts
 * import { indexerSocketUrl } from "@perpx/core";
 * const { config, height, markets } = client.context;
 * const feed = await startLiveFeed({ url: indexerSocketUrl(config), height, markets, subaccount });
 * feed.subaccount?.view.blockHeight !== undefined; // true
 * await feed.stop();
 * ```
 */
export async function startLiveFeed(options: LiveFeedOptions): Promise<LiveFeed> {
  const { height, markets } = options;
  const staleMs = checkDelayMs(options.staleMs ?? 3_000, "staleMs");
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const startedAt = performance.now();
  const socket = await connectIndexerSocket({ url: options.url, connectTimeoutMs });
  let lastBlockAt = 0;
  let connected = true;
  socket.on("open", () => {
    connected = true;
  });
  socket.on("disconnect", () => {
    connected = false;
  });
  try {
    const blocks = socket.subscribe("v4_block_height");
    const seen = (h: string, time: string) => {
      lastBlockAt = Date.now();
      height.observe({ height: BigInt(h), time: new Date(time) });
    };
    blocks.on("snapshot", ({ contents }) => seen(contents.height, contents.time));
    blocks.on("update", ({ contents }) => seen(contents.blockHeight, contents.time));
    const marketFeed = socket.subscribe("v4_markets");
    marketFeed.on("snapshot", ({ contents }) => {
      for (const [ticker, market] of Object.entries(contents.markets)) {
        markets.observe(ticker, { oraclePrice: market.oraclePrice, trading: market });
      }
    });
    marketFeed.on("update", ({ contents }) => {
      for (const [ticker, trading] of Object.entries(contents.trading ?? {}))
        markets.observe(ticker, { trading });
      for (const [ticker, price] of Object.entries(contents.oraclePrices ?? {})) {
        markets.observe(ticker, { oraclePrice: price.oraclePrice });
      }
    });
    const subaccount = options.subaccount
      ? watchSubaccount(socket, {
          owner: options.subaccount.owner,
          number: options.subaccount.number,
        })
      : undefined;
    const pending = new Map<Promise<unknown>, string>([
      [blocks.ready(), "v4_block_height"],
      [marketFeed.ready(), "v4_markets"],
    ]);
    if (subaccount) {
      const { owner, number } = options.subaccount!;
      pending.set(subaccount.ready(), `v4_subaccounts ${owner}/${number}`);
    }
    for (const first of pending.keys())
      first.then(
        () => pending.delete(first),
        () => {},
      );
    let timer: { clear(): void } | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setLongTimeout(
        () =>
          reject(
            new TimeoutError(
              `indexer first snapshots (${[...pending.values()].join(", ")})`,
              connectTimeoutMs,
            ),
          ),
        Math.max(0, connectTimeoutMs - (performance.now() - startedAt)),
      );
    });
    try {
      await Promise.race([Promise.all(pending.keys()), late]);
    } finally {
      timer?.clear();
    }
    return {
      socket,
      subaccount,
      live: () => connected && Date.now() - lastBlockAt < staleMs,
      stop: () => socket.close(),
    };
  } catch (error) {
    await socket.close();
    throw error;
  }
}
