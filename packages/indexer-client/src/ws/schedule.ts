/**
 * The connection's retry schedule: every failure (a dropped or stalled socket, a lost or
 * malformed message, a refused message of one subscription) waits the next backoff delay before
 * the reconnect or the resync it causes, and the schedule starts over only once the connection has
 * run `stableAfterMs` without a failure. A server that fails right after every connect therefore
 * meets growing delays, never a loop of immediate retries.
 */
import { backoffDelayMs, type ReconnectOptions } from "./backoff.js";

/** The backoff schedule of one indexer connection. */
export class RetrySchedule {
  /** Failures since the schedule last started over. */
  private step = 0;
  /** When the current healthy stretch began (a `connected`, or the last failure after it). */
  private healthySince: number | undefined;
  private readonly stableAfterMs: number;

  /**
   * @param policy - delays and the stable period.
   * @param random - the jitter source, in [0, 1).
   * @param now - the clock.
   */
  constructor(
    private readonly policy: ReconnectOptions,
    private readonly random: () => number,
    private readonly now: () => number = Date.now,
  ) {
    this.stableAfterMs = policy.stableAfterMs ?? 10_000;
  }

  /** The server said `connected`: a healthy stretch may begin. */
  connected(): void {
    this.healthySince = this.now();
  }

  /** The socket is gone: no healthy stretch until the next `connected`. */
  disconnected(): void {
    this.healthySince = undefined;
  }

  /**
   * A failure: starts the schedule over when the connection had been healthy for
   * `stableAfterMs`, then answers the delay before the retry it calls for.
   *
   * @returns the delay, ms.
   */
  nextDelayMs(): number {
    const now = this.now();
    if (this.healthySince !== undefined && now - this.healthySince >= this.stableAfterMs) this.step = 0;
    if (this.healthySince !== undefined) this.healthySince = now;
    const delayMs = backoffDelayMs(this.step, this.policy, this.random());
    this.step++;
    return delayMs;
  }
}
