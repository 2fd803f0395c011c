/**
 * The routes of programs our chain does not run: trading rewards (`spec/indexer-api.md` 1.7) and
 * the vaults (1.10). The devnet's chain has no rewards or vault module, so no event ever feeds
 * them: they answer what the reference answers for a chain with no such data (empty lists), after
 * the reference's validation.
 */
import { ok, type Route } from "./routes.js";
import { isValidAddress } from "./utility-routes.js";
import type { RequestChecks } from "./validation.js";

const PERIODS = ["DAILY", "WEEKLY", "MONTHLY"];
const PERIOD_MESSAGE = `period must be a valid Trading Reward Aggregation Period, one of ${PERIODS}`;
const VAULT_RESOLUTIONS = ["hour", "day"];

/** The rewards routes' shared parameters (`CheckHistoricalBlockTradingRewardsSchema`). */
function rewardParams(checks: RequestChecks): void {
  checks.oneOf("address", isValidAddress, "address must be a valid address", "params");
  checks.limit();
  checks.optionalIso("startingBeforeOrAt");
  checks.optionalInt(
    "startingBeforeOrAtHeight",
    "startingBeforeOrAtHeight must be a non-negative integer",
    -1,
  );
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

/** The rewards and vault routes. */
export const programRoutes: readonly Route[] = [
  {
    path: "/v4/historicalBlockTradingRewards/:address",
    cache: 10,
    handler: (checks) => {
      rewardParams(checks);
      return ok({ rewards: [] });
    },
  },
  {
    path: "/v4/historicalTradingRewardAggregations/:address",
    cache: 10,
    handler: (checks) => {
      rewardParams(checks);
      const period = checks.raw("period");
      // `period` carries two rules (a string, one of the periods) under one message: a missing
      // period fails both.
      if (period === undefined) checks.fail("period", PERIOD_MESSAGE, undefined, "query");
      checks.oneOf("period", (p) => PERIODS.includes(p), PERIOD_MESSAGE, "query");
      return ok({ rewards: [] });
    },
  },
  {
    path: "/v4/vault/v1/megavault/historicalPnl",
    cache: 10,
    handler: (checks) => {
      vaultResolution(checks);
      return ok({ megavaultPnl: [] });
    },
  },
  {
    path: "/v4/vault/v1/vaults/historicalPnl",
    cache: 10,
    handler: (checks) => {
      vaultResolution(checks);
      return ok({ vaultsPnl: [] });
    },
  },
  { path: "/v4/vault/v1/megavault/positions", cache: 10, handler: () => ok({ positions: [] }) },
];
