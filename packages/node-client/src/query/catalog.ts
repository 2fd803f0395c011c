/** The chain's read-only catalog (assets, module params, next ids, fees, gates) over {@link defineQuery}. */
import {
  accountplus,
  assets,
  clob,
  feetiers,
  perpetuals,
  prices,
  ratelimit,
  revshare,
  rewards,
  subaccounts,
} from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { present } from "../errors/query.js";
import { bech32Address, checkParams, uint32 } from "../messages/validate.js";
import { definePagedQuery, defineQuery } from "./define.js";
import type { ByIdParams } from "./markets.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

/** A perpetual, with the call options. */
type PerpetualIdParams = QueryOptions & { perpetualId: number };

const byId = (p: ByIdParams) => ({ id: uint32(p.id, "id") });
const byPerpetual = (p: PerpetualIdParams) => ({ perpetualId: uint32(p.perpetualId, "perpetualId") });

/**
 * The ids the next market listing takes: oracle market, perpetual and clob pair (three methods).
 * @param client - the node client.
 * @param params - the call options.
 * @returns the next ids.
 */
async function getNextIds(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<{ marketId: number; perpetualId: number; clobPairId: number }> {
  checkParams(params, "getNextIds", true);
  const [market, perpetual, pair] = await Promise.all([
    unaryQuery(client, { ...params, method: prices.Query.method.nextMarketId, request: {} }),
    unaryQuery(client, { ...params, method: perpetuals.Query.method.nextPerpetualId, request: {} }),
    unaryQuery(client, { ...params, method: clob.Query.method.nextClobPairId, request: {} }),
  ]);
  return {
    marketId: market.nextMarketId,
    perpetualId: perpetual.nextPerpetualId,
    clobPairId: pair.nextClobPairId,
  };
}

/**
 * The catalog's queries, each `query(client, params)` with the call options in its params. By id:
 * `getAsset({ id })`, `getMarketParam({ id })` (`undefined` for an unknown id). Every page: `getAssets`,
 * `getMarketParams`, `getLiquidityTiers`. Module params: `getPerpetualsParams`, `getAccountplusParams`,
 * `getLiquidationsConfig`, `getMarketMapperRevShareParams`, `getRewardsParams`, `getBlockRateLimits`,
 * `getEquityTiers`. `getNextIds` (oracle market, perpetual and clob pair). Fees:
 * `getMarketFeeDiscount({ clobPairId })` (`undefined` when none), `getMarketFeeDiscounts`,
 * `getStakingTiers`, `getUserStakingTier({ address })`. `getPendingSendPackets` (IBC packets awaiting
 * acknowledgement). Per perpetual: `getWithdrawalsBlockedInfo({ perpetualId })`,
 * `getCollateralPoolAddress({ perpetualId })`. A bad id or address is refused with a typed error naming it
 * before the query leaves.
 * @example
 * ```ts
 * (await catalogQueries.getAsset(client, { id: 0 }))?.denom; // "uusdc"
 * (await catalogQueries.getMarketParam(client, { id: 0 }))?.pair; // "BTC-USD"
 * (await catalogQueries.getBlockRateLimits(client)).maxStatefulOrdersPerNBlocks.length > 0; // true
 * ```
 */
export const catalogQueries = {
  getAsset: defineQuery("getAsset", () => assets.Query.method.asset, {
    request: byId,
    pick: (r, path) => present(r.asset, path, "asset"),
    orUndefined: true,
  }),
  getAssets: definePagedQuery("getAssets", () => assets.Query.method.allAssets, { pick: (r) => r.asset }),
  getMarketParam: defineQuery("getMarketParam", () => prices.Query.method.marketParam, {
    request: byId,
    pick: (r, path) => present(r.marketParam, path, "market_param"),
    orUndefined: true,
  }),
  getMarketParams: definePagedQuery("getMarketParams", () => prices.Query.method.allMarketParams, {
    pick: (r) => r.marketParams,
  }),
  getLiquidityTiers: definePagedQuery("getLiquidityTiers", () => perpetuals.Query.method.allLiquidityTiers, {
    pick: (r) => r.liquidityTiers,
  }),
  getPerpetualsParams: defineQuery("getPerpetualsParams", () => perpetuals.Query.method.params, {
    pick: (r, path) => present(r.params, path, "params"),
  }),
  getAccountplusParams: defineQuery("getAccountplusParams", () => accountplus.Query.method.params, {
    pick: (r, path) => present(r.params, path, "params"),
  }),
  getLiquidationsConfig: defineQuery(
    "getLiquidationsConfig",
    () => clob.Query.method.liquidationsConfiguration,
    { pick: (r, path) => present(r.liquidationsConfig, path, "liquidations_config") },
  ),
  getMarketMapperRevShareParams: defineQuery(
    "getMarketMapperRevShareParams",
    () => revshare.Query.method.marketMapperRevenueShareParams,
    { pick: (r, path) => present(r.params, path, "params") },
  ),
  getRewardsParams: defineQuery("getRewardsParams", () => rewards.Query.method.params, {
    pick: (r, path) => present(r.params, path, "params"),
  }),
  getBlockRateLimits: defineQuery("getBlockRateLimits", () => clob.Query.method.blockRateLimitConfiguration, {
    pick: (r, path) => present(r.blockRateLimitConfig, path, "block_rate_limit_config"),
  }),
  getEquityTiers: defineQuery("getEquityTiers", () => clob.Query.method.equityTierLimitConfiguration, {
    pick: (r, path) => present(r.equityTierLimitConfig, path, "equity_tier_limit_config"),
  }),
  getNextIds,
  getMarketFeeDiscount: defineQuery(
    "getMarketFeeDiscount",
    () => feetiers.Query.method.perMarketFeeDiscountParams,
    {
      request: (p: QueryOptions & { clobPairId: number }) => ({
        clobPairId: uint32(p.clobPairId, "clobPairId"),
      }),
      pick: (r) => r.params,
      orUndefined: true,
    },
  ),
  getMarketFeeDiscounts: defineQuery(
    "getMarketFeeDiscounts",
    () => feetiers.Query.method.allMarketFeeDiscountParams,
    { pick: (r) => r.params },
  ),
  getStakingTiers: defineQuery("getStakingTiers", () => feetiers.Query.method.stakingTiers, {
    pick: (r) => r.stakingTiers,
  }),
  getUserStakingTier: defineQuery("getUserStakingTier", () => feetiers.Query.method.userStakingTier, {
    request: (p: QueryOptions & { address: string }) => ({ address: bech32Address(p.address) }),
    pick: (r) => r,
  }),
  getPendingSendPackets: defineQuery(
    "getPendingSendPackets",
    () => ratelimit.Query.method.allPendingSendPackets,
    { pick: (r) => r.pendingSendPackets },
  ),
  getWithdrawalsBlockedInfo: defineQuery(
    "getWithdrawalsBlockedInfo",
    () => subaccounts.Query.method.getWithdrawalAndTransfersBlockedInfo,
    { request: byPerpetual, pick: (r) => r },
  ),
  getCollateralPoolAddress: defineQuery(
    "getCollateralPoolAddress",
    () => subaccounts.Query.method.collateralPoolAddress,
    { request: byPerpetual, pick: (r) => r.collateralPoolAddress },
  ),
} as const;
