/**
 * The retry policy of indexer calls: which answers are retried (429 and 5xx, and transport
 * failures), how long to wait (exponential backoff with full jitter, never less than what the
 * server asked for) and how a server's wait is read from its headers.
 */
import { InvalidArgumentError } from "@perpx/errors";

/**
 * How a client retries. A GET to the indexer is idempotent, so every call may be retried.
 *
 * @example
 * ```ts
 * const retry: RetryOptions = { retries: 5, baseDelayMs: 100, maxDelayMs: 2_000 };
 * ```
 */
export interface RetryOptions {
  /**
   * Retries after the first attempt (0 disables retrying).
   * @default 3
   */
  readonly retries?: number;
  /**
   * The first backoff, in milliseconds; attempt `n` waits a random time up to `baseDelayMs * 2^n`.
   * @default 250
   */
  readonly baseDelayMs?: number;
  /**
   * The longest wait between two attempts, in milliseconds. A server asking for a longer wait
   * (`Retry-After`) is not retried: the call fails with `IndexerRateLimitError` carrying the wait.
   * @default 10000
   */
  readonly maxDelayMs?: number;
  /**
   * Also retry when the request got no answer at all (connection refused or reset).
   * @default true
   */
  readonly retryTransportErrors?: boolean;
}

/** A checked, complete retry policy. */
export interface RetryPolicy {
  readonly retries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly retryTransportErrors: boolean;
}

/**
 * Checks retry options and fills in the defaults; `false` disables retrying.
 *
 * @param options - the caller's options.
 * @returns the complete policy.
 * @throws InvalidArgumentError naming the option that is out of range.
 * @example
 * ```ts
 * retryPolicyOf({ retries: 1 }); // { retries: 1, baseDelayMs: 250, maxDelayMs: 10000, retryTransportErrors: true }
 * retryPolicyOf(false).retries; // 0
 * ```
 */
export function retryPolicyOf(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false)
    return { retries: 0, baseDelayMs: 250, maxDelayMs: 10_000, retryTransportErrors: false };
  const retries = options?.retries ?? 3;
  const baseDelayMs = options?.baseDelayMs ?? 250;
  const maxDelayMs = options?.maxDelayMs ?? 10_000;
  if (!Number.isSafeInteger(retries) || retries < 0) {
    throw new InvalidArgumentError("retry.retries", `must be a non-negative integer, got ${String(retries)}`);
  }
  if (!Number.isFinite(baseDelayMs) || baseDelayMs < 0) {
    throw new InvalidArgumentError(
      "retry.baseDelayMs",
      `must be a non-negative number, got ${String(baseDelayMs)}`,
    );
  }
  if (!Number.isFinite(maxDelayMs) || maxDelayMs < baseDelayMs) {
    throw new InvalidArgumentError(
      "retry.maxDelayMs",
      `must be a number >= baseDelayMs, got ${String(maxDelayMs)}`,
    );
  }
  return { retries, baseDelayMs, maxDelayMs, retryTransportErrors: options?.retryTransportErrors ?? true };
}

/**
 * True for the statuses worth another attempt: 429 and every 5xx.
 *
 * @param status - an HTTP status.
 * @returns whether to retry.
 * @example
 * ```ts
 * isRetryableStatus(429); // true
 * isRetryableStatus(503); // true
 * isRetryableStatus(404); // false
 * ```
 */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * The wait a 429 asks for, in milliseconds, from its headers. `Retry-After` is read as the indexer
 * sends it, in **milliseconds** (not HTTP's seconds); an HTTP date is accepted too. Without it,
 * `RateLimit-Reset` (epoch milliseconds) gives the wait. A proxy that sends seconds (`Retry-After:
 * 2`) is still safe: the client waits at least its own backoff (see {@link backoffDelayMs}).
 *
 * @param headers - the answer's headers.
 * @param now - the current time, epoch milliseconds.
 * @returns the wait, or undefined when the headers say nothing usable.
 * @example
 * ```ts
 * retryAfterMsOf(new Headers({ "retry-after": "1500" }), 0); // 1500
 * retryAfterMsOf(new Headers({ "ratelimit-reset": "10400" }), 10_000); // 400
 * retryAfterMsOf(new Headers(), 0); // undefined
 * ```
 */
export function retryAfterMsOf(headers: Headers, now: number): number | undefined {
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = headers.get("ratelimit-reset")?.trim();
  if (reset && /^\d+$/.test(reset)) return Math.max(0, Number(reset) - now);
  return undefined;
}

/**
 * The wait before retry number `attempt` (0 for the first retry): a random time up to
 * `baseDelayMs * 2^attempt` (full jitter), capped at `maxDelayMs`, and never less than what the
 * server asked for.
 *
 * @param policy - the retry policy.
 * @param attempt - which retry this is, from 0.
 * @param serverMs - the wait the server asked for, if any.
 * @param random - a number in [0, 1).
 * @returns the wait in milliseconds.
 * @example
 * ```ts
 * const policy = retryPolicyOf({ baseDelayMs: 100, maxDelayMs: 1_000 });
 * backoffDelayMs(policy, 2, undefined, 0.5); // 200
 * backoffDelayMs(policy, 2, 700, 0.5); // 700
 * backoffDelayMs(policy, 10, undefined, 0.999); // 999
 * ```
 */
export function backoffDelayMs(
  policy: RetryPolicy,
  attempt: number,
  serverMs: number | undefined,
  random: number,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  const jittered = Math.floor(ceiling * random);
  return Math.min(policy.maxDelayMs, Math.max(jittered, Math.ceil(serverMs ?? 0)));
}
