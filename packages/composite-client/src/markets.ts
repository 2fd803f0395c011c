import { checkDelayMs, decimalToUnits, type LongTimeout, setLongTimeout } from "@perpx/core";
import type { PerpetualMarketResponseObject, TradingPerpetualMarketUpdate } from "@perpx/core/indexer";
import type { IndexerClient } from "@perpx/indexer-client";
import type { Market, NodeClient } from "@perpx/node-client";

/**
 * A market as the client caches it: the node's market (perpetual, clob pair, oracle price) joined
 * with the indexer's perpetual market when an indexer is configured.
 *
 * @example
 * ```ts
 * const btc: CompositeMarket = await client.getMarket({ ticker: "BTC-USD" });
 * btc.indexer?.ticker; // "BTC-USD"
 * ```
 */
export interface CompositeMarket extends Market {
  /** The indexer's view of the market (volume, open interest, funding), when there is an indexer. */
  readonly indexer: PerpetualMarketResponseObject | undefined;
}

/**
 * Markets by ticker, loaded from the node (and the indexer, when there is one) once and kept: `get` answers from the cache (loading a
 * ticker not seen before), `refresh` reloads every cached ticker (oracle prices included), and a
 * schedule refreshes them in the background.
 *
 * @example
 * ```ts
 * const markets = createMarketCache({ node, refreshIntervalMs: 10_000 });
 * const btc = await markets.get("BTC-USD");
 * markets.stop();
 * ```
 */
export interface MarketCache {
  /** The market, from the cache or loaded once. Rejects with the node's typed error for an unknown ticker. */
  get(ticker: string): Promise<CompositeMarket>;
  /** The cached market, if any (no network). */
  cached(ticker: string): CompositeMarket | undefined;
  /** Reloads every cached market (or only `ticker`). */
  refresh(ticker?: string): Promise<void>;
  /**
   * Applies what the indexer's `v4_markets` feed says of a cached market (a new oracle price, or
   * changed trading fields), without a network call. An oracle price finer than the chain's
   * exponent is ignored (the next refresh reads the node's).
   */
  observe(ticker: string, change: { oraclePrice?: string; trading?: TradingPerpetualMarketUpdate }): void;
  /** Stops the schedule. */
  stop(): void;
}

/**
 * Options of {@link createMarketCache}.
 *
 * @example
 * ```ts
 * const options: MarketCacheOptions = { node, refreshIntervalMs: 0 }; // no schedule
 * ```
 */
export interface MarketCacheOptions {
  /** The node client markets are read from. */
  node: NodeClient;
  /**
   * The indexer whose perpetual market is joined to each market.
   * @default undefined (the node's market alone)
   */
  indexer?: IndexerClient | undefined;
  /**
   * How often cached markets are reloaded, ms; 0 turns the schedule off.
   * @default 10000
   */
  refreshIntervalMs?: number;
  /**
   * Skips a scheduled refresh while it answers true (a live feed keeps the markets instead).
   * @default never skipped
   */
  skipRefresh?: () => boolean;
}

/**
 * Builds a {@link MarketCache} over the node's `getMarket`.
 *
 * @param options - the node client, optionally the indexer client, and the refresh interval (see
 *   `MarketCacheOptions`).
 * @returns the cache: `get(ticker)` loads a market once and keeps it refreshed, `cached(ticker)`
 *   answers without a call, `stop()` ends the refreshes.
 * @throws {InvalidArgumentError} naming `refreshIntervalMs` unless it is 0 or a positive number.
 * @example
 * ```ts
 * const markets = createMarketCache({ node });
 * ```
 */
export function createMarketCache(options: MarketCacheOptions): MarketCache {
  const { node } = options;
  const interval = checkDelayMs(options.refreshIntervalMs ?? 10_000, "refreshIntervalMs", true);
  const markets = new Map<string, CompositeMarket>();
  const loading = new Map<string, Promise<CompositeMarket>>();
  const load = (ticker: string) => {
    const pending = loading.get(ticker);
    if (pending) return pending;
    // Both in parallel; the node's answer decides (its typed error names the known tickers).
    const next = Promise.allSettled([
      node.getMarket({ ticker }),
      options.indexer?.getPerpetualMarkets({ ticker }).then((r) => r.markets[ticker]),
    ])
      .then(([market, indexed]) => {
        if (market.status === "rejected") throw market.reason;
        if (indexed.status === "rejected") throw indexed.reason;
        const joined: CompositeMarket = { ...market.value, indexer: indexed.value };
        markets.set(ticker, joined);
        return joined;
      })
      .finally(() => loading.delete(ticker));
    loading.set(ticker, next);
    return next;
  };
  const refresh = async (ticker?: string) => {
    const tickers = ticker === undefined ? [...markets.keys()] : [ticker];
    await Promise.all(tickers.map(load));
  };
  // An interval of any size: each tick arms the next (setInterval fires one past 2^31 ms at once).
  let timer: LongTimeout | undefined;
  let stopped = false;
  const schedule = () => {
    timer = setLongTimeout(() => {
      if (stopped) return;
      schedule();
      if (options.skipRefresh?.()) return;
      refresh().catch(() => {
        // The cache keeps the last markets; the next tick tries again.
      });
    }, interval).unref();
  };
  if (interval > 0) schedule();
  return {
    get: (ticker) => {
      const market = markets.get(ticker);
      return market ? Promise.resolve(market) : load(ticker);
    },
    cached: (ticker) => markets.get(ticker),
    refresh,
    observe: (ticker, change) => {
      const market = markets.get(ticker);
      if (!market) return;
      let next: CompositeMarket = market;
      if (change.oraclePrice !== undefined && market.oracle.exponent <= 0) {
        try {
          const price = decimalToUnits(change.oraclePrice, -market.oracle.exponent);
          next = { ...next, oraclePrice: change.oraclePrice, oracle: { ...market.oracle, price } };
        } catch {
          // Finer than the chain's exponent: keep the node's price until the next refresh.
        }
      }
      if (change.trading && next.indexer) {
        next = { ...next, indexer: { ...next.indexer, ...change.trading } };
      }
      if (next !== market) markets.set(ticker, next);
    },
    stop: () => {
      stopped = true;
      timer?.clear();
    },
  };
}
