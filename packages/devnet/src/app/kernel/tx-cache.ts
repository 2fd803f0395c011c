/**
 * CometBFT's mempool cache (`mempool/cache.go`, `LRUTxCache`): the keys of the txs the node has
 * seen, least recently used first, at most `cache_size` of them (10,000 by default). A tx whose key
 * is in it is refused before CheckTx ("tx already exists in cache"); see `TxPipeline` for when keys
 * enter and leave.
 */

/** CometBFT's default `mempool.cache_size`. */
export const TX_CACHE_SIZE = 10_000;

/** An LRU set of tx keys (see the module comment); keys are the txs' `hashKey`s. */
export class TxCache {
  /** The keys in use order, least recent first (a `Map` keeps insertion order). */
  private readonly keys = new Map<string, true>();

  constructor(private readonly size: number = TX_CACHE_SIZE) {}

  /**
   * CometBFT's `Push`: adds `key` as the most recent one, evicting the least recent when full.
   * @returns false when `key` was there already (it becomes the most recent one).
   */
  push(key: string): boolean {
    if (this.keys.delete(key)) {
      this.keys.set(key, true);
      return false;
    }
    if (this.keys.size >= this.size) {
      const oldest = this.keys.keys().next();
      if (oldest.done !== true) this.keys.delete(oldest.value);
    }
    this.keys.set(key, true);
    return true;
  }

  /** True when `key` is in the cache (not a use: its place is unchanged). */
  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** Forgets `key` (a tx that may be sent again). */
  remove(key: string): void {
    this.keys.delete(key);
  }

  /** Number of keys held. */
  get count(): number {
    return this.keys.size;
  }
}
