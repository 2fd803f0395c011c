/**
 * Client ids for orders: a counter per subaccount and market, seeded from the clock (seconds since
 * the unix epoch, modulo 2^32) when first used, then incremented by one per order. Two processes
 * started a second apart do not collide until one of them has placed as many orders as seconds
 * passed between them; an id is never random, so a retry with the same id is safe (the chain
 * refuses the duplicate, it does not place a second order).
 */
const UINT32 = 0x1_0000_0000;

/**
 * Hands out client ids, unique per key (subaccount and market), seeded from the clock.
 *
 * @example
 * ```ts
 * const ids = new ClientIds(() => 1_700_000_000_000);
 * ids.next("perpx1.../0/BTC-USD"); // 1700000000
 * ids.next("perpx1.../0/BTC-USD"); // 1700000001
 * ```
 */
export class ClientIds {
  readonly #counters = new Map<string, number>();
  readonly #now: () => number;

  /** @param now - the clock, unix milliseconds. */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The next id for `key`: the clock in seconds at first use, then one more each call. */
  next(key: string): number {
    const last = this.#counters.get(key);
    const id = last === undefined ? Math.floor(this.#now() / 1000) % UINT32 : (last + 1) % UINT32;
    this.#counters.set(key, id);
    return id;
  }
}
