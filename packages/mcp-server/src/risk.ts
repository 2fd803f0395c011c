import { Exact } from "@perpx/core";
import { isIndexerNotFoundError } from "@perpx/indexer-client";
import { indexerOf } from "./accounts.js";
import type { ToolDeps } from "./tools/deps.js";

/**
 * The daily-loss breaker of an account: the equity at its first reading of the UTC day, the equity
 * now, the loss between them, and whether the breaker tripped (it stays tripped until the day ends,
 * across restarts). Amounts are decimal strings.
 *
 * @example
 * ```ts
 * const { tripped, limit } = await dailyLoss(deps);
 * tripped; // false
 * limit; // "1000"
 * ```
 */
export interface DailyLoss {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  /** Equity at the day's first reading. */
  startEquity: string;
  /** Equity now. */
  equity: string;
  /** `startEquity - equity`, at least 0. */
  loss: string;
  /** The limit. */
  limit: string;
  /** True once the loss went above the limit this day. */
  tripped: boolean;
}

/**
 * Reads the account's equity (`chainEquity` when the caller read it from the chain, else the
 * indexer's), records the day's first reading, and trips the breaker when the loss went
 * above the limit.
 *
 * @example
 * ```ts
 * (await dailyLoss(deps)).tripped; // false
 * (await dailyLoss(deps, "1000000")).loss; // "0": with the equity read from the chain
 * ```
 */
export async function dailyLoss(deps: ToolDeps, chainEquity?: string): Promise<DailyLoss> {
  const owner = deps.account.principal.account;
  const day = new Date().toISOString().slice(0, 10);
  const equity = chainEquity ?? (await indexedEquity(deps, owner));
  const startEquity = await deps.store.dayStartEquity(owner, day, equity);
  const loss = dayLoss(startEquity, equity);
  let tripped = await deps.store.breakerTripped(owner, day);
  if (!tripped && breakerTrips(loss, deps.limits.maxDailyLoss)) {
    await deps.store.tripBreaker(owner, day);
    tripped = true;
  }
  return {
    day,
    startEquity,
    equity,
    loss,
    limit: deps.limits.maxDailyLoss,
    tripped,
  };
}

/** The indexer's equity of the owner's subaccount 0: "0" for one it has not seen (never funded). */
async function indexedEquity(deps: ToolDeps, owner: string): Promise<string> {
  try {
    return (await indexerOf(deps.account).getSubaccount({ owner, number: 0 })).subaccount.equity;
  } catch (error) {
    if (isIndexerNotFoundError(error)) return "0";
    throw error;
  }
}

/**
 * The loss of a day: how far equity fell below the day's first reading, exactly; `"0"` when it did
 * not fall.
 *
 * @example
 * ```ts
 * dayLoss("1000", "987.65"); // "12.35"
 * dayLoss("1000", "1000.5"); // "0"
 * ```
 */
export function dayLoss(startEquity: string, equity: string): string {
  return Exact.max(0, new Exact(startEquity).minus(equity)).toFixed();
}

/**
 * Whether a day's loss trips the breaker: a loss exactly at `maxDailyLoss` is still allowed, any
 * loss above it trips.
 *
 * @example
 * ```ts
 * breakerTrips("1000", "1000"); // false
 * breakerTrips("1000.000001", "1000"); // true
 * ```
 */
export function breakerTrips(loss: string, maxDailyLoss: string): boolean {
  return new Exact(loss).greaterThan(maxDailyLoss);
}
