/**
 * The chain's remaining read-only catalog, as rows over {@link defineQuery}: assets, oracle market
 * params, liquidity tiers and module params, the next ids governance will assign, fee discounts and
 * staking tiers, IBC packets waiting for their acknowledgement, and the per-subaccount settings
 * (leverage) and gates (withdrawals blocked) the trading queries do not cover.
 */
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
import { bech32Address, checkParams, subaccountId, uint32 } from "../messages/validate.js";
import { definePagedQuery, defineQuery, present } from "./define.js";
import type { ByIdParams } from "./markets.js";
import type { GetSubaccountParams } from "./subaccounts.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

const byId = (p: ByIdParams) => ({ id: uint32(p.id, "id") });
const byPerpetual = (p: PerpetualIdParams) => ({ perpetualId: uint32(p.perpetualId, "perpetualId") });

/**
 * One asset (USDC is id 0): denom, atomic resolution, market.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the asset id (`ByIdParams`), with the call options.
 * @returns the asset, or `undefined` for an unknown id.
 * @example
 * ```ts
 * const usdc = await getAsset(client, { id: 0 });
 * usdc?.denom; // "uusdc"
 * ```
 */
export const getAsset = defineQuery("getAsset", () => assets.Query.method.asset, {
  request: byId,
  pick: (r, path) => present(r.asset, path, "asset"),
  orUndefined: true,
});

/**
 * Every asset (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns every asset.
 * @example
 * ```ts
 * const all = await getAssets(client);
 * ```
 */
export const getAssets = definePagedQuery("getAssets", () => assets.Query.method.allAssets, {
  pick: (r) => r.asset,
});

/**
 * One oracle market's params: pair, exponent, minimum price change.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the market id (`ByIdParams`), with the call options.
 * @returns the params, or `undefined` for an unknown market id.
 * @example
 * ```ts
 * const btc = await getMarketParam(client, { id: 0 });
 * btc?.pair; // "BTC-USD"
 * ```
 */
export const getMarketParam = defineQuery("getMarketParam", () => prices.Query.method.marketParam, {
  request: byId,
  pick: (r, path) => present(r.marketParam, path, "market_param"),
  orUndefined: true,
});

/**
 * Every oracle market's params (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns every oracle market's params.
 * @example
 * ```ts
 * const markets = await getMarketParams(client);
 * ```
 */
export const getMarketParams = definePagedQuery(
  "getMarketParams",
  () => prices.Query.method.allMarketParams,
  {
    pick: (r) => r.marketParams,
  },
);

/**
 * Every liquidity tier (margin fractions and open-interest bounds) (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns every liquidity tier.
 * @example
 * ```ts
 * const tiers = await getLiquidityTiers(client);
 * ```
 */
export const getLiquidityTiers = definePagedQuery(
  "getLiquidityTiers",
  () => perpetuals.Query.method.allLiquidityTiers,
  {
    pick: (r) => r.liquidityTiers,
  },
);

/**
 * The perpetuals module's params (funding rate clamps, premium vote bounds).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the params.
 * @example
 * ```ts
 * const { fundingRateClampFactorPpm } = await getPerpetualsParams(client);
 * ```
 */
export const getPerpetualsParams = defineQuery("getPerpetualsParams", () => perpetuals.Query.method.params, {
  pick: (r, path) => present(r.params, path, "params"),
});

/**
 * The smart-account (accountplus) module's params: whether authenticators are active.
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the params.
 * @example
 * ```ts
 * const { isSmartAccountActive } = await getAccountplusParams(client);
 * ```
 */
export const getAccountplusParams = defineQuery(
  "getAccountplusParams",
  () => accountplus.Query.method.params,
  {
    pick: (r, path) => present(r.params, path, "params"),
  },
);

/**
 * The clob's liquidation configuration (insurance fund fee, position block limits, fillable price).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the configuration.
 * @example
 * ```ts
 * const config = await getLiquidationsConfig(client);
 * ```
 */
export const getLiquidationsConfig = defineQuery(
  "getLiquidationsConfig",
  () => clob.Query.method.liquidationsConfiguration,
  { pick: (r, path) => present(r.liquidationsConfig, path, "liquidations_config") },
);

/**
 * The ids the next market listing will take: oracle market, perpetual and clob pair.
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the next oracle market, perpetual and clob pair ids.
 * @example
 * ```ts
 * const { marketId, perpetualId, clobPairId } = await getNextIds(client);
 * ```
 */
export async function getNextIds(
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
 * Parameters of {@link getMarketFeeDiscount}.
 * @example
 * ```ts
 * await getMarketFeeDiscount(client, { clobPairId: 0 });
 * ```
 */
export interface MarketFeeDiscountParams extends QueryOptions {
  /** The clob pair. */
  clobPairId: number;
}

/**
 * A market's fee discount window, if it has one.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the clob pair (`MarketFeeDiscountParams`), with the call options.
 * @returns the discount, or `undefined` when the market has none.
 * @example
 * ```ts
 * const discount = await getMarketFeeDiscount(client, { clobPairId: 0 });
 * ```
 */
export const getMarketFeeDiscount = defineQuery(
  "getMarketFeeDiscount",
  () => feetiers.Query.method.perMarketFeeDiscountParams,
  {
    request: (p: MarketFeeDiscountParams) => ({ clobPairId: uint32(p.clobPairId, "clobPairId") }),
    pick: (r) => r.params,
    orUndefined: true,
  },
);

/**
 * Every market's fee discount window.
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns every market's discount window.
 * @example
 * ```ts
 * const discounts = await getMarketFeeDiscounts(client);
 * ```
 */
export const getMarketFeeDiscounts = defineQuery(
  "getMarketFeeDiscounts",
  () => feetiers.Query.method.allMarketFeeDiscountParams,
  { pick: (r) => r.params },
);

/**
 * The staking tiers: fee discounts by staked native tokens, per fee tier.
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the staking tiers.
 * @example
 * ```ts
 * const tiers = await getStakingTiers(client);
 * ```
 */
export const getStakingTiers = defineQuery("getStakingTiers", () => feetiers.Query.method.stakingTiers, {
  pick: (r) => r.stakingTiers,
});

/**
 * Parameters of {@link getUserStakingTier}.
 * @example
 * ```ts
 * await getUserStakingTier(client, { address: wallet.address });
 * ```
 */
export interface UserStakingTierParams extends QueryOptions {
  /** The account (either address form). */
  address: string;
}

/**
 * An account's staking discount: its fee tier, its staked native tokens (SerializableInt bytes) and
 * the discount in ppm.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the account (`UserStakingTierParams`), with the call options.
 * @returns the account's fee tier name, staked amount and discount.
 * @throws {InvalidAddressError} for a malformed address, before the query leaves.
 * @example
 * ```ts
 * const { feeTierName, discountPpm } = await getUserStakingTier(client, { address: wallet.address });
 * ```
 */
export const getUserStakingTier = defineQuery(
  "getUserStakingTier",
  () => feetiers.Query.method.userStakingTier,
  {
    request: (p: UserStakingTierParams) => ({ address: bech32Address(p.address) }),
    pick: (r) => r,
  },
);

/**
 * The IBC packets this chain sent that still wait for their acknowledgement or timeout: each one's
 * channel and sequence (the rate limiter undoes its outflow when a packet fails).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the pending packets.
 * @example
 * ```ts
 * const pending = await getPendingSendPackets(client);
 * pending.every((packet) => packet.channelId.startsWith("channel-")); // true
 * ```
 */
export const getPendingSendPackets = defineQuery(
  "getPendingSendPackets",
  () => ratelimit.Query.method.allPendingSendPackets,
  { pick: (r) => r.pendingSendPackets },
);

/**
 * Parameters of the per-perpetual subaccount queries.
 * @example
 * ```ts
 * await getCollateralPoolAddress(client, { perpetualId: 0 });
 * ```
 */
export interface PerpetualIdParams extends QueryOptions {
  /** The perpetual. */
  perpetualId: number;
}

/**
 * Whether withdrawals and transfers are blocked for a perpetual's collateral pool (after a
 * negative-TNC subaccount or a chain outage), and until which block.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the perpetual (`PerpetualIdParams`), with the call options.
 * @returns the blocked-until heights.
 * @example
 * ```ts
 * const { withdrawalsAndTransfersUnblockedAtBlock } = await getWithdrawalsBlockedInfo(client, { perpetualId: 0 });
 * ```
 */
export const getWithdrawalsBlockedInfo = defineQuery(
  "getWithdrawalsBlockedInfo",
  () => subaccounts.Query.method.getWithdrawalAndTransfersBlockedInfo,
  { request: byPerpetual, pick: (r) => r },
);

/**
 * The module account holding the collateral of a perpetual's positions.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the perpetual (`PerpetualIdParams`), with the call options.
 * @returns the pool's address.
 * @example
 * ```ts
 * const pool = await getCollateralPoolAddress(client, { perpetualId: 0 });
 * ```
 */
export const getCollateralPoolAddress = defineQuery(
  "getCollateralPoolAddress",
  () => subaccounts.Query.method.collateralPoolAddress,
  { request: byPerpetual, pick: (r) => r.collateralPoolAddress },
);

/**
 * A subaccount's leverage settings: the initial margin fraction chosen per clob pair (pairs at
 * their default are absent).
 * @param client - the node client (from `createNodeClient`).
 * @param params - the subaccount (`GetSubaccountParams`), with the call options.
 * @returns the custom initial margin fraction of each clob pair that has one.
 * @example
 * ```ts
 * await client.updateLeverage({ signer: wallet, subaccount, leverage: [{ clobPairId: 0, imfPpm: 200_000 }] });
 * const settings = await getLeverage(client, subaccount);
 * settings.find((s) => s.clobPairId === 0)?.imfPpm; // 200000
 * ```
 */
export const getLeverage = defineQuery("getLeverage", () => clob.Query.method.leverage, {
  request: (p: GetSubaccountParams) => {
    const { owner, number } = subaccountId({ owner: p.owner, number: p.number }, "subaccount");
    return { owner, number };
  },
  pick: (r): Array<{ clobPairId: number; imfPpm: number }> =>
    r.clobPairLeverage.map((entry) => ({ clobPairId: entry.clobPairId, imfPpm: entry.customImfPpm })),
});

/**
 * The market mapper revenue-share params (address, share, validity).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the params.
 * @example
 * ```ts
 * (await getMarketMapperRevShareParams(client)).validDays >= 0; // true
 * ```
 */
export const getMarketMapperRevShareParams = defineQuery(
  "getMarketMapperRevShareParams",
  () => revshare.Query.method.marketMapperRevenueShareParams,
  { pick: (r, path) => present(r.params, path, "params") },
);

/**
 * The rewards module's params (treasury, denom, fee multiplier).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the params.
 * @example
 * ```ts
 * (await getRewardsParams(client)).denom.length > 0; // true
 * ```
 */
export const getRewardsParams = defineQuery("getRewardsParams", () => rewards.Query.method.params, {
  pick: (r, path) => present(r.params, path, "params"),
});
