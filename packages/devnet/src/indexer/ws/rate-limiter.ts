/**
 * The reference's per-connection rate limiter: a fixed window per key that opens with the first
 * attempt; the attempt that brings the count above `points` inside the window is refused.
 */

/** A client trying many distinct keys cannot grow the table past this many live windows for long. */
const PRUNE_AT = 256;

/** Points allowed per window and the window length. */
export interface RateLimit {
  readonly points: number;
  readonly windowMs: number;
}

/** Counts attempts per key; `now` is injectable for tests. */
export class RateLimiter {
  readonly #limit: RateLimit;
  readonly #now: () => number;
  readonly #windows = new Map<string, { startMs: number; count: number }>();

  constructor(limit: RateLimit, now: () => number = Date.now) {
    this.#limit = limit;
    this.#now = now;
  }

  /** Records an attempt; `true` when it is over the limit. */
  exceeded(key: string): boolean {
    const now = this.#now();
    const window = this.#windows.get(key);
    if (window === undefined || now - window.startMs >= this.#limit.windowMs) {
      if (window === undefined && this.#windows.size >= PRUNE_AT) this.#prune(now);
      this.#windows.set(key, { startMs: now, count: 1 });
      return false;
    }
    window.count += 1;
    return window.count > this.#limit.points;
  }

  #prune(now: number): void {
    for (const [key, window] of this.#windows) {
      if (now - window.startMs >= this.#limit.windowMs) this.#windows.delete(key);
    }
  }
}
