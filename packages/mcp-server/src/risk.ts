import { indexerOf } from "./accounts.js";
import type { ToolDeps } from "./tools/deps.js";

/**
 * The daily-loss breaker of an account: the equity at its first reading of the UTC day, the equity
 * now, the loss between them, and whether the breaker tripped (it stays tripped until the day ends,
 * across restarts).
 *
 * @example
 * ```ts
 * const { tripped } = await dailyLoss(deps);
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
  /** True once the loss reached the limit this day. */
  tripped: boolean;
}

/**
 * Reads the account's equity (`chainEquity` when the caller read it from the chain, else the
 * indexer's), records the day's first reading, and trips the breaker when the loss
 * reached the limit.
 *
 * @example
 * ```ts
 * (await dailyLoss(deps)).tripped; // false
 * await dailyLoss(deps, "1000.5"); // with the equity read from the chain
 * ```
 */
export async function dailyLoss(deps: ToolDeps, chainEquity?: string): Promise<DailyLoss> {
  const owner = deps.account.principal.account;
  const day = new Date().toISOString().slice(0, 10);
  const equity =
    chainEquity ??
    (await indexerOf(deps.account).getSubaccount({ address: owner, subaccountNumber: 0 })).subaccount.equity;
  const startEquity = await deps.store.dayStartEquity(owner, day, equity);
  const loss = Math.max(0, Number(startEquity) - Number(equity));
  let tripped = await deps.store.breakerTripped(owner, day);
  if (!tripped && loss >= Number(deps.limits.maxDailyLoss)) {
    await deps.store.tripBreaker(owner, day);
    tripped = true;
  }
  return {
    day,
    startEquity,
    equity,
    loss: String(loss),
    limit: deps.limits.maxDailyLoss,
    tripped,
  };
}
