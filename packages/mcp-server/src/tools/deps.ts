import type { AccountContext } from "../accounts.js";
import type { TradingLimits } from "../limits.js";
import type { RateLimiter } from "../rate-limit.js";
import type { McpStore } from "../store.js";

/**
 * What a session's tools act with.
 *
 * @example
 * ```ts
 * const deps: ToolDeps = {
 *   account,
 *   limits: resolveLimits({ maxOrderNotional: "500" }),
 *   store: openSqliteStore({ path: ":memory:" }),
 *   rateLimiter: createRateLimiter(),
 *   verifyTimeoutMs: 15_000,
 *   statefulSettleMs: 3_000,
 * };
 * deps.limits.maxOrderNotional; // "500"
 * ```
 */
export interface ToolDeps {
  /** The principal's context. */
  account: AccountContext;
  /** The limits in force for the principal (the server's, tightened by its own). */
  limits: TradingLimits;
  /** The persistent store. */
  store: McpStore;
  /** Counts write-tool calls per credential (`limits.maxWritesPerMinute`): the store's `writes`. */
  rateLimiter: RateLimiter;
  /** How long a write tool waits for an order's verified state before answering UNKNOWN, ms. */
  verifyTimeoutMs: number;
  /** How long a stateful order is watched after its inclusion before its state is answered, ms. */
  statefulSettleMs: number;
}
