import type { Market, NodeClient } from "@perpx/node-client";

/**
 * Markets by ticker, loaded from the node once and kept: `get` answers from the cache (loading a
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
  get(ticker: string): Promise<Market>;
  /** The cached market, if any (no network). */
  cached(ticker: string): Market | undefined;
  /** Reloads every cached market (or only `ticker`). */
  refresh(ticker?: string): Promise<void>;
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
   * How often cached markets are reloaded, ms; 0 turns the schedule off.
   * @default 10000
   */
  refreshIntervalMs?: number;
}

/**
 * Builds a {@link MarketCache} over the node's `getMarket`.
 *
 * @example
 * ```ts
 * const markets = createMarketCache({ node });
 * ```
 */
export function createMarketCache(options: MarketCacheOptions): MarketCache {
  const { node } = options;
  const markets = new Map<string, Market>();
  const loading = new Map<string, Promise<Market>>();
  const load = (ticker: string) => {
    const pending = loading.get(ticker);
    if (pending) return pending;
    const next = node
      .getMarket({ ticker })
      .then((market) => {
        markets.set(ticker, market);
        return market;
      })
      .finally(() => loading.delete(ticker));
    loading.set(ticker, next);
    return next;
  };
  const refresh = async (ticker?: string) => {
    const tickers = ticker === undefined ? [...markets.keys()] : [ticker];
    await Promise.all(tickers.map(load));
  };
  const interval = options.refreshIntervalMs ?? 10_000;
  const timer =
    interval > 0
      ? setInterval(() => {
          refresh().catch(() => {
            // The cache keeps the last markets; the next tick tries again.
          });
        }, interval)
      : undefined;
  timer?.unref?.();
  return {
    get: (ticker) => {
      const market = markets.get(ticker);
      return market ? Promise.resolve(market) : load(ticker);
    },
    cached: (ticker) => markets.get(ticker),
    refresh,
    stop: () => clearInterval(timer),
  };
}
