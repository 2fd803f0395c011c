/**
 * A fork's module parameters: what the live network holds for each module the devnet runs, written
 * over the profile's genesis by the fork module (`fork-state.ts`). Each entry is optional (an absent
 * one keeps the profile's); a list entry replaces the profile's whole list (a denom, asset or chain
 * the live network does not configure is not configured on the fork either).
 */
import { type DescMessage, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { affiliates, bridge, clob, perpetuals, ratelimit, type revshare, type rewards } from "@perpx/proto";
import type { Context } from "../kernel/module.js";
import { AFFILIATES } from "../modules/affiliates/affiliates-state.js";
import { BRIDGE } from "../modules/bridge/keeper.js";
import { CLOB, keys as clobKeys } from "../modules/clob/state.js";
import type { Keepers } from "../modules/index.js";
import { PERPETUALS } from "../modules/perpetuals/perpetuals.js";
import { RATELIMIT } from "../modules/ratelimit/ratelimit.js";
import { padKey } from "../modules/records.js";

/**
 * The live network's module parameters a fork takes instead of its profile's, one optional entry
 * per module part (an absent entry keeps the profile's; a list replaces the profile's list).
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { rewards } from "@perpx/proto";
 *
 * const params: ForkParams = {
 *   rewards: create(rewards.ParamsSchema, {
 *     treasuryAccount: "rewards_treasury", denom: "aperpx", denomExponent: -18, marketId: 1, feeMultiplierPpm: 500_000,
 *   }),
 * };
 * params.rewards?.feeMultiplierPpm; // 500000
 * ```
 */
export interface ForkParams {
  /** The clob's block rate limits (orders and cancels per block window). */
  readonly blockRateLimits?: clob.BlockRateLimitConfiguration;
  /** The clob's open-order limits by equity tier. */
  readonly equityTiers?: clob.EquityTierLimitConfiguration;
  /** The rewards module's params (treasury, denom, fee multiplier). */
  readonly rewards?: rewards.Params;
  /** The revenue share of market mappers. */
  readonly marketMapperRevShare?: revshare.MarketMapperRevenueShareParams;
  /** The perpetuals module's params (funding rate clamp, premium vote clamp, min samples). */
  readonly perpetuals?: perpetuals.Params;
  /** The affiliate tiers (volume and stake to reach each, fee share). */
  readonly affiliateTiers?: affiliates.AffiliateTiers;
  /** The affiliate whitelist (fee share per whitelisted address). */
  readonly affiliateWhitelist?: affiliates.AffiliateWhitelist;
  /** The affiliate parameters (30-day caps per referred user). */
  readonly affiliateParameters?: affiliates.AffiliateParameters;
  /** The affiliate overrides (addresses with the top tier). */
  readonly affiliateOverrides?: affiliates.AffiliateOverrides;
  /** The bridge's event params, one per source chain. */
  readonly bridgeEventParams?: readonly bridge.EventParams[];
  /** The bridge's propose params. */
  readonly bridgeProposeParams?: bridge.ProposeParams;
  /** The bridge's safety params (disabled flag, delay). */
  readonly bridgeSafetyParams?: bridge.SafetyParams;
  /** The ratelimit module's limiters, one entry per denom. */
  readonly limitParams?: readonly ratelimit.LimitParams[];
  /** The ratelimit module's withdrawal controls, one entry per asset. */
  readonly withdrawalConfigs?: readonly ratelimit.AssetWithdrawalConfig[];
  /** The ratelimit module's daily withdrawal limits, one entry per chain and asset. */
  readonly dailyLimits?: readonly ratelimit.AssetChainDailyLimitConfig[];
}

/** Writes one message under `key` of `module`'s store, when given. */
function put<Desc extends DescMessage>(
  ctx: Context,
  module: string,
  key: string,
  schema: Desc,
  value: MessageShape<Desc> | undefined,
): void {
  if (value !== undefined) ctx.store(module).set(key, toBinary(schema, value));
}

/** Replaces every entry under `prefix` of `module`'s store with `values`, when given. */
function replaceAll<Desc extends DescMessage>(
  ctx: Context,
  module: string,
  prefix: string,
  schema: Desc,
  values: readonly MessageShape<Desc>[] | undefined,
  keyOf: (value: MessageShape<Desc>) => string,
): void {
  if (values === undefined) return;
  const store = ctx.store(module);
  for (const [key] of [...store.entries(prefix)]) store.delete(key);
  for (const value of values) store.set(`${prefix}${keyOf(value)}`, toBinary(schema, value));
}

/**
 * Writes a fork's module parameters over the profile's genesis.
 *
 * @param ctx - the genesis context.
 * @param keepers - the chain's keepers.
 * @param params - the live network's params.
 */
export function restoreForkParams(ctx: Context, keepers: Keepers, params: ForkParams): void {
  put(
    ctx,
    CLOB,
    clobKeys.blockRateLimitConfig,
    clob.BlockRateLimitConfigurationSchema,
    params.blockRateLimits,
  );
  put(ctx, CLOB, clobKeys.equityTierConfig, clob.EquityTierLimitConfigurationSchema, params.equityTiers);
  if (params.rewards !== undefined) keepers.rewards.setParams(ctx, params.rewards);
  if (params.marketMapperRevShare !== undefined) {
    keepers.revshare.setMarketMapperParams(ctx, params.marketMapperRevShare);
  }
  put(ctx, PERPETUALS, "params", perpetuals.ParamsSchema, params.perpetuals);
  put(ctx, AFFILIATES, "tiers", affiliates.AffiliateTiersSchema, params.affiliateTiers);
  put(ctx, AFFILIATES, "whitelist", affiliates.AffiliateWhitelistSchema, params.affiliateWhitelist);
  put(ctx, AFFILIATES, "parameters", affiliates.AffiliateParametersSchema, params.affiliateParameters);
  put(ctx, AFFILIATES, "overrides", affiliates.AffiliateOverridesSchema, params.affiliateOverrides);
  replaceAll(ctx, BRIDGE, "event_params/", bridge.EventParamsSchema, params.bridgeEventParams, (p) =>
    padKey(p.ethChainId, 20),
  );
  put(ctx, BRIDGE, "propose_params", bridge.ProposeParamsSchema, params.bridgeProposeParams);
  put(ctx, BRIDGE, "safety_params", bridge.SafetyParamsSchema, params.bridgeSafetyParams);
  replaceAll(
    ctx,
    RATELIMIT,
    "limit_params/",
    ratelimit.LimitParamsSchema,
    params.limitParams,
    (p) => p.denom,
  );
  replaceAll(
    ctx,
    RATELIMIT,
    "withdrawal_config/",
    ratelimit.AssetWithdrawalConfigSchema,
    params.withdrawalConfigs,
    (c) => padKey(c.assetId, 10),
  );
  replaceAll(
    ctx,
    RATELIMIT,
    "daily_limit/",
    ratelimit.AssetChainDailyLimitConfigSchema,
    params.dailyLimits,
    (l) => `${padKey(l.chainId, 20)}/${padKey(l.assetId, 10)}`,
  );
}
