/**
 * The routes of the trading rewards (`spec/indexer-api.md` 1.7: x/rewards' payments, aggregated
 * as the reference's roundtable does) and of the vaults (1.10: the devnet's chain has no vault
 * module, so they answer what the reference answers with no vaults: empty lists), after the
 * reference's validation.
 */
import { INDEXER_ROUTES } from "@perpx/core/indexer";
import { iso } from "../format.js";
import type { Indexer } from "../indexer.js";
import { type RewardPeriod, rewardAmount } from "../models/trading-rewards.js";
import { ok, type Route } from "./routes.js";
import { isValidAddress } from "./utility-routes.js";
import type { RequestChecks } from "./validation.js";

const PERIODS = ["DAILY", "WEEKLY", "MONTHLY"];
const PERIOD_MESSAGE = `period must be a valid Trading Reward Aggregation Period, one of ${PERIODS}`;
const VAULT_RESOLUTIONS = ["hour", "day"];

/** The rewards routes' shared parameters (`CheckHistoricalBlockTradingRewardsSchema`). */
function rewardParams(checks: RequestChecks): {
  address: string;
  limit: number;
  time: Date | undefined;
  height: number | undefined;
} {
  const address = checks.oneOf("address", isValidAddress, "address must be a valid address", "params") ?? "";
  const limit = checks.limit();
  const time = checks.optionalIso("startingBeforeOrAt");
  const height = checks.optionalInt(
    "startingBeforeOrAtHeight",
    "startingBeforeOrAtHeight must be a non-negative integer",
    -1,
  );
  return { address, limit, time, height };
}

/** The vault routes' `resolution` (its message names `type`, as the reference's does). */
function vaultResolution(checks: RequestChecks): void {
  checks.oneOf(
    "resolution",
    (r) => VAULT_RESOLUTIONS.includes(r),
    `type must be one of ${VAULT_RESOLUTIONS}`,
    "query",
    true,
  );
}

/** `/v4/historicalBlockTradingRewards`: the address's rewards per block, newest first. */
function blockRewards(checks: RequestChecks, indexer: Indexer) {
  const { address, limit, time, height } = rewardParams(checks);
  const rewards = indexer.rewards
    .blockRewards(address)
    .filter((r) => (time === undefined || r.time <= time) && (height === undefined || r.height <= height))
    .slice(0, limit)
    .map((r) => ({
      tradingReward: rewardAmount(r.amount),
      createdAt: iso(r.time),
      createdAtHeight: r.height.toString(),
    }));
  return ok({ rewards });
}

/**
 * `/v4/historicalTradingRewardAggregations`: the address's aggregations of a period, newest first;
 * a period still running has no `endedAt` and `endedAtHeight` (the reference's database holds null,
 * its schema declares both optional strings).
 */
function rewardAggregations(checks: RequestChecks, indexer: Indexer) {
  const { address, limit, time, height } = rewardParams(checks);
  const period = checks.raw("period");
  // `period` carries two rules (a string, one of the periods) under one message: a missing
  // period fails both.
  if (period === undefined) checks.fail("period", PERIOD_MESSAGE, undefined, "query");
  checks.oneOf("period", (p) => PERIODS.includes(p), PERIOD_MESSAGE, "query");
  if (period === undefined || !PERIODS.includes(period)) return ok({ rewards: [] });
  const rewards = indexer.rewards
    .aggregationsOf(address, period as RewardPeriod)
    .filter(
      (a) =>
        (time === undefined || a.startedAt <= time) && (height === undefined || a.startedAtHeight <= height),
    )
    .slice(0, limit)
    .map((a) => ({
      tradingReward: rewardAmount(a.amount),
      startedAt: iso(a.startedAt),
      startedAtHeight: a.startedAtHeight.toString(),
      ...(a.endedAt === undefined ? {} : { endedAt: iso(a.endedAt) }),
      ...(a.endedAtHeight === undefined ? {} : { endedAtHeight: a.endedAtHeight.toString() }),
      period: a.period,
    }));
  return ok({ rewards });
}

/** The rewards and vault routes. */
export const programRoutes: readonly Route[] = [
  { path: INDEXER_ROUTES.getHistoricalBlockTradingRewards.path, cache: 10, handler: blockRewards },
  {
    path: INDEXER_ROUTES.getHistoricalTradingRewardAggregations.path,
    cache: 10,
    handler: rewardAggregations,
  },
  {
    path: INDEXER_ROUTES.getMegavaultHistoricalPnl.path,
    cache: 10,
    handler: (checks) => {
      vaultResolution(checks);
      return ok({ megavaultPnl: [] });
    },
  },
  {
    path: INDEXER_ROUTES.getVaultsHistoricalPnl.path,
    cache: 10,
    handler: (checks) => {
      vaultResolution(checks);
      return ok({ vaultsPnl: [] });
    },
  },
  { path: INDEXER_ROUTES.getMegavaultPositions.path, cache: 10, handler: () => ok({ positions: [] }) },
];
