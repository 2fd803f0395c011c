/**
 * Client ids for orders: a counter per subaccount and market, seeded from the clock (milliseconds
 * since the unix epoch, modulo 2^32) when first used, then incremented by one per order. A process
 * restarted after another does not reuse its ids unless that one placed more orders than
 * milliseconds passed between their starts (one a millisecond, sustained). The seed wraps every
 * 49.7 days: a long-term order older than that can share an id with a new one, which the chain then
 * refuses as a duplicate (it never replaces a stateful order). An id is never random, so a retry
 * with the same id is safe (the chain refuses the duplicate, it does not place a second order).
 */
const UINT32 = 0x1_0000_0000;

/**
 * Hands out client ids, unique per key (subaccount and market), seeded from the clock.
 *
 * @example
 * ```ts
 * const ids = new ClientIds(() => 1_700_000_000_123);
 * ids.next("perpx1.../0/BTC-USD"); // 3487918203
 * ids.next("perpx1.../0/BTC-USD"); // 3487918204
 * ```
 */
export class ClientIds {
  readonly #counters = new Map<string, number>();
  readonly #now: () => number;

  /** @param now - the clock, unix milliseconds. */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * The next id for `key`: the clock in milliseconds (mod 2^32) at first use, then one more each call.
   *
   * @param key - what the ids count for (a market's ticker).
   * @returns a client id (a 32-bit unsigned integer) not handed out before for this key.
   */
  next(key: string): number {
    const last = this.#counters.get(key);
    const id = last === undefined ? Math.floor(this.#now()) % UINT32 : (last + 1) % UINT32;
    this.#counters.set(key, id);
    return id;
  }
}
