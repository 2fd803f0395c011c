import type { Principal } from "./auth.js";
import { ToolFailure } from "./tools/result.js";

/**
 * Write-tool calls per credential over a sliding window: each credential (a trading key) may make
 * at most its limit of calls in any window; a call over it is refused with the time until one
 * frees up. The store provides it: counted in the server's memory with SQLite, in the database
 * (shared by every instance) with Postgres.
 *
 * @example
 * ```ts
 * const limiter = createRateLimiter();
 * await limiter.take("perpx1key", 2, 0); // { allowed: true }
 * await limiter.take("perpx1key", 2, 10); // { allowed: true }
 * await limiter.take("perpx1key", 2, 20); // { allowed: false, retryAfterMs: 59980 }
 * ```
 */
export interface RateLimiter {
  /**
   * Counts one call of `key` at `now` (ms, default the clock) when fewer than `limit` were counted
   * in the window before it; otherwise counts nothing and answers how long until one is allowed.
   */
  take(
    key: string,
    limit: number,
    now?: number,
  ): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }>;
}

/**
 * A {@link RateLimiter} over windows of `windowMs`, in this process's memory. A key is forgotten
 * once its last call has left the window, so many one-off keys (addresses) do not pile up.
 *
 * @param windowMs - the window's length.
 * @param calls - where the calls' times are kept by key (a fresh map by default; pass one to
 *   watch it).
 * @returns the limiter.
 *
 * @example
 * ```ts
 * const limiter = createRateLimiter(1_000);
 * await limiter.take("perpx1key", 1, 0); // { allowed: true }
 * await limiter.take("perpx1key", 1, 999); // { allowed: false, retryAfterMs: 1 }
 * await limiter.take("perpx1key", 1, 1_000); // { allowed: true }
 * ```
 */
export function createRateLimiter(windowMs = 60_000, calls: Map<string, number[]> = new Map()): RateLimiter {
  let swept = Number.NEGATIVE_INFINITY;
  /** Forgets, once a window, every key whose last call left the window (memory stays bounded). */
  const sweep = (now: number) => {
    if (now - swept < windowMs) return;
    swept = now;
    for (const [key, times] of calls) {
      if (times[times.length - 1]! <= now - windowMs) calls.delete(key);
    }
  };
  return {
    async take(key, limit, now = Date.now()) {
      sweep(now);
      const recent = (calls.get(key) ?? []).filter((at) => at > now - windowMs);
      if (recent.length < limit) {
        recent.push(now);
        calls.set(key, recent);
        return { allowed: true };
      }
      if (recent.length === 0) calls.delete(key);
      else calls.set(key, recent);
      // The call `limit` places back leaves the window first; limit 0 never allows one.
      const oldest = recent[recent.length - limit];
      return { allowed: false, retryAfterMs: oldest === undefined ? windowMs : oldest + windowMs - now };
    },
  };
}

/**
 * Counts a write-tool call of a credential, or refuses it with `RATE_LIMITED` and a retry-after
 * hint (`retryAfterMs`, `retryAfterSeconds`) before anything is checked, signed or sent.
 *
 * @throws {ToolFailure} RATE_LIMITED over the limit.
 *
 * @example
 * ```ts
 * const limiter = createRateLimiter();
 * await takeWrite(limiter, "perpx1key", 1, "place_order");
 * await takeWrite(limiter, "perpx1key", 1, "place_order"); // throws ToolFailure
 * ```
 */
export async function takeWrite(
  limiter: RateLimiter,
  key: string,
  perMinute: number,
  tool: string,
): Promise<void> {
  const taken = await limiter.take(key, perMinute);
  if (taken.allowed) return;
  throw new ToolFailure(
    "RATE_LIMITED",
    `${tool} refused: this credential may make ${perMinute} write call(s) a minute; retry in ${Math.ceil(taken.retryAfterMs / 1000)} s. Nothing was sent.`,
    { retryAfterMs: taken.retryAfterMs, retryAfterSeconds: Math.ceil(taken.retryAfterMs / 1000) },
  );
}

/**
 * What a credential's write calls are counted under: its trading key's address (every token of one
 * key shares its budget), or the token's fingerprint for a session without a key.
 *
 * @example
 * ```ts
 * import { encodeCredential } from "@perpx/core";
 *
 * credentialKey(principal) === principal.tradingKey?.wallet.address; // true: a trading key's calls count under its address
 * const readOnly = encodeCredential({ masterAddress: principal.account });
 * credentialKey(principalOf(`Bearer ${readOnly}`)) === fingerprintOf(readOnly); // true
 * ```
 */
export function credentialKey(principal: Principal): string {
  return principal.tradingKey?.wallet.address ?? principal.fingerprint;
}
