/**
 * Reconnect delays: exponential backoff with jitter. The n-th attempt (from 0) waits a random time
 * in [d/2, d], d = min(maxDelayMs, initialDelayMs * 2^n), so many clients dropped together do not
 * come back in lockstep, and none waits less than half the nominal delay.
 */

/**
 * Reconnect policy of an indexer socket.
 *
 * @example
 * ```ts
 * const reconnect: ReconnectOptions = { initialDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 20, stableAfterMs: 10_000 };
 * ```
 */
export interface ReconnectOptions {
  /**
   * The nominal delay before the first reconnect attempt.
   * @default 250
   */
  readonly initialDelayMs?: number;
  /**
   * The cap of the nominal delay.
   * @default 10_000
   */
  readonly maxDelayMs?: number;
  /**
   * How long a connection must run without a failure (a drop, a stall, a lost or malformed
   * message, a refused subscription message) before the backoff starts over from
   * `initialDelayMs`. Until then every failure waits longer than the one before, up to
   * `maxDelayMs`.
   * @default 10_000
   */
  readonly stableAfterMs?: number;
  /**
   * Attempts in a row without reaching the server before the connection gives up and closes with
   * a `WebSocketClosedError`.
   * @default Infinity
   */
  readonly maxAttempts?: number;
}

/** The delay before reconnect attempt `attempt` (0-based), given a random number in [0, 1). */
export function backoffDelayMs(attempt: number, options: ReconnectOptions, random: number): number {
  const initial = options.initialDelayMs ?? 250;
  const max = options.maxDelayMs ?? 10_000;
  const nominal = Math.min(max, initial * 2 ** Math.min(attempt, 52));
  return Math.round(nominal / 2 + (random * nominal) / 2);
}
