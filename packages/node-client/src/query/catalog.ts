/**
 * The chain's remaining read-only catalog: assets, oracle market params, liquidity tiers and module
 * params, the next ids governance will assign, fee discounts and staking tiers, IBC packets waiting
 * for their acknowledgement, and the per-subaccount settings (leverage) and gates (withdrawals
 * blocked) the trading queries do not cover.
 */
import {
  accountplus,
  assets,
  clob,
  feetiers,
  perpetuals,
  prices,
  ratelimit,
  subaccounts,
} from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { isQueryError, QueryError } from "../errors.js";
import { bech32Address, checkParams, subaccountId, uint32 } from "../messages/validate.js";
import type { ByIdParams } from "./markets.js";
import { allPages } from "./pages.js";
import type { GetSubaccountParams } from "./subaccounts.js";
import { type QueryOptions, queryPath, unaryQuery } from "./unary.js";

function missing(path: string, what: string): QueryError {
  return new QueryError({ path, transport: "grpc", log: `the answer has no ${what}` });
}

/** The item a by-id query found, or `undefined` when the node says it does not exist. */
async function orUndefined<T>(query: Promise<T>): Promise<T | undefined> {
  try {
    return await query;
  } catch (error) {
    if (isQueryError(error) && error.notFound) return undefined;
    throw error;
  }
}

/**
 * One asset (USDC is id 0): denom, atomic resolution, market.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`ByIdParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns the asset, or `undefined` for an unknown id.
 *
 * @example
 * ```ts
 * const usdc = await getAsset(client, { id: 0 });
 * usdc?.denom; // "uusdc"
 * ```
 */
export async function getAsset(
  client: NodeConnection,
  params: ByIdParams,
): Promise<assets.Asset | undefined> {
  checkParams(params, "getAsset");
  const method = assets.Query.method.asset;
  return orUndefined(
    unaryQuery(client, { ...params, method: method, request: { id: uint32(params.id, "id") } }).then((r) => {
      if (!r.asset) throw missing(queryPath(method), "asset");
      return r.asset;
    }),
  );
}

/**
 * Every asset (all pages).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with every asset (all pages); rejects with `QueryError` when the node refuses
 *   the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const all = await getAssets(client);
 * ```
 */
export async function getAssets(client: NodeConnection, params: QueryOptions = {}): Promise<assets.Asset[]> {
  checkParams(params, "getAssets", true);
  return allPages(client, {
    ...params,
    method: assets.Query.method.allAssets,
    request: {},
    pick: (r) => r.asset,
  });
}

/**
 * One oracle market's params: pair, exponent, minimum price change.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`ByIdParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns the params, or `undefined` for an unknown market id.
 *
 * @example
 * ```ts
 * const btc = await getMarketParam(client, { id: 0 });
 * btc?.pair; // "BTC-USD"
 * ```
 */
export async function getMarketParam(
  client: NodeConnection,
  params: ByIdParams,
): Promise<prices.MarketParam | undefined> {
  checkParams(params, "getMarketParam");
  const method = prices.Query.method.marketParam;
  return orUndefined(
    unaryQuery(client, { ...params, method: method, request: { id: uint32(params.id, "id") } }).then((r) => {
      if (!r.marketParam) throw missing(queryPath(method), "market_param");
      return r.marketParam;
    }),
  );
}

/**
 * Every oracle market's params (all pages).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with every oracle market's params (all pages); rejects with `QueryError` when
 *   the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const markets = await getMarketParams(client);
 * ```
 */
export async function getMarketParams(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<prices.MarketParam[]> {
  checkParams(params, "getMarketParams", true);
  return allPages(client, {
    ...params,
    method: prices.Query.method.allMarketParams,
    request: {},
    pick: (r) => r.marketParams,
  });
}

/**
 * Every liquidity tier (margin fractions and open-interest bounds) (all pages).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with every liquidity tier (margin fractions and open-interest bounds) (all
 *   pages); rejects with `QueryError` when the node refuses the query (`notFound` set for a missing
 *   entry).
 * @example
 * ```ts
 * const tiers = await getLiquidityTiers(client);
 * ```
 */
export async function getLiquidityTiers(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<perpetuals.LiquidityTier[]> {
  checkParams(params, "getLiquidityTiers", true);
  return allPages(client, {
    ...params,
    method: perpetuals.Query.method.allLiquidityTiers,
    request: {},
    pick: (r) => r.liquidityTiers,
  });
}

/**
 * The perpetuals module's params (funding rate clamps, premium vote bounds).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the perpetuals module's params (funding rate clamps, premium vote bounds);
 *   rejects with `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const { fundingRateClampFactorPpm } = await getPerpetualsParams(client);
 * ```
 */
export async function getPerpetualsParams(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<perpetuals.Params> {
  checkParams(params, "getPerpetualsParams", true);
  const method = perpetuals.Query.method.params;
  const response = await unaryQuery(client, { ...params, method: method, request: {} });
  if (!response.params) throw missing(queryPath(method), "params");
  return response.params;
}

/**
 * The smart-account (accountplus) module's params: whether authenticators are active.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the smart-account (accountplus) module's params: whether authenticators
 *   are active; rejects with `QueryError` when the node refuses the query (`notFound` set for a
 *   missing entry).
 * @example
 * ```ts
 * const { isSmartAccountActive } = await getAccountplusParams(client);
 * ```
 */
export async function getAccountplusParams(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<accountplus.Params> {
  checkParams(params, "getAccountplusParams", true);
  const method = accountplus.Query.method.params;
  const response = await unaryQuery(client, { ...params, method: method, request: {} });
  if (!response.params) throw missing(queryPath(method), "params");
  return response.params;
}

/**
 * The clob's liquidation configuration (insurance fund fee, position block limits, fillable price).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the clob's liquidation configuration (insurance fund fee, position block
 *   limits, fillable price); rejects with `QueryError` when the node refuses the query (`notFound`
 *   set for a missing entry).
 * @example
 * ```ts
 * const config = await getLiquidationsConfig(client);
 * ```
 */
export async function getLiquidationsConfig(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<clob.LiquidationsConfig> {
  checkParams(params, "getLiquidationsConfig", true);
  const method = clob.Query.method.liquidationsConfiguration;
  const response = await unaryQuery(client, { ...params, method: method, request: {} });
  if (!response.liquidationsConfig) throw missing(queryPath(method), "liquidations_config");
  return response.liquidationsConfig;
}

/**
 * The ids the next market listing will take: oracle market, perpetual and clob pair.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the ids the next market listing will take: oracle market, perpetual and
 *   clob pair; rejects with `QueryError` when the node refuses the query (`notFound` set for a
 *   missing entry).
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
 *
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
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`MarketFeeDiscountParams`: each field is documented there), with
 *   the call options `signal` and `timeoutMs`.
 * @returns the discount, or `undefined` when the market has none.
 *
 * @example
 * ```ts
 * const discount = await getMarketFeeDiscount(client, { clobPairId: 0 });
 * ```
 */
export async function getMarketFeeDiscount(
  client: NodeConnection,
  params: MarketFeeDiscountParams,
): Promise<feetiers.PerMarketFeeDiscountParams | undefined> {
  checkParams(params, "getMarketFeeDiscount");
  const method = feetiers.Query.method.perMarketFeeDiscountParams;
  return orUndefined(
    unaryQuery(client, {
      ...params,
      method: method,
      request: { clobPairId: uint32(params.clobPairId, "clobPairId") },
    }).then((r) => r.params),
  );
}

/**
 * Every market's fee discount window.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with every market's fee discount window; rejects with `QueryError` when the
 *   node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const discounts = await getMarketFeeDiscounts(client);
 * ```
 */
export async function getMarketFeeDiscounts(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<feetiers.PerMarketFeeDiscountParams[]> {
  checkParams(params, "getMarketFeeDiscounts", true);
  return (
    await unaryQuery(client, {
      ...params,
      method: feetiers.Query.method.allMarketFeeDiscountParams,
      request: {},
    })
  ).params;
}

/**
 * The staking tiers: fee discounts by staked native tokens, per fee tier.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the staking tiers: fee discounts by staked native tokens, per fee tier;
 *   rejects with `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const tiers = await getStakingTiers(client);
 * ```
 */
export async function getStakingTiers(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<feetiers.StakingTier[]> {
  checkParams(params, "getStakingTiers", true);
  return (await unaryQuery(client, { ...params, method: feetiers.Query.method.stakingTiers, request: {} }))
    .stakingTiers;
}

/**
 * Parameters of {@link getUserStakingTier}.
 *
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
 * An account's staking discount: its fee tier, its staked native tokens (SerializableInt bytes) and the discount in ppm.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`UserStakingTierParams`: each field is documented there), with the
 *   call options `signal` and `timeoutMs`.
 * @returns resolves with an account's staking discount: its fee tier, its staked native tokens
 *   (SerializableInt bytes) and the discount in ppm; rejects with `QueryError` when the node
 *   refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const { feeTierName, discountPpm } = await getUserStakingTier(client, { address: wallet.address });
 * ```
 */
export async function getUserStakingTier(
  client: NodeConnection,
  params: UserStakingTierParams,
): Promise<feetiers.QueryUserStakingTierResponse> {
  checkParams(params, "getUserStakingTier");
  return unaryQuery(client, {
    ...params,
    method: feetiers.Query.method.userStakingTier,
    request: { address: bech32Address(params.address) },
  });
}

/**
 * The IBC packets this chain sent that still wait for their acknowledgement or timeout: each one's
 * channel and sequence (the rate limiter undoes its outflow when a packet fails).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the IBC packets this chain sent that still wait for their acknowledgement
 *   or timeout: each one's channel and sequence (the rate limiter undoes its outflow when a packet
 *   fails); rejects with `QueryError` when the node refuses the query (`notFound` set for a missing
 *   entry).
 * @example
 * ```ts
 * const pending = await getPendingSendPackets(client);
 * pending.every((packet) => packet.channelId.startsWith("channel-")); // true
 * ```
 */
export async function getPendingSendPackets(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<ratelimit.PendingSendPacket[]> {
  checkParams(params, "getPendingSendPackets", true);
  return (
    await unaryQuery(client, { ...params, method: ratelimit.Query.method.allPendingSendPackets, request: {} })
  ).pendingSendPackets;
}

/**
 * Parameters of the per-perpetual subaccount queries.
 *
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
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`PerpetualIdParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with whether withdrawals and transfers are blocked for a perpetual's collateral
 *   pool (after a negative-TNC subaccount or a chain outage), and until which block; rejects with
 *   `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const { withdrawalsAndTransfersUnblockedAtBlock } = await getWithdrawalsBlockedInfo(client, { perpetualId: 0 });
 * ```
 */
export async function getWithdrawalsBlockedInfo(
  client: NodeConnection,
  params: PerpetualIdParams,
): Promise<subaccounts.QueryGetWithdrawalAndTransfersBlockedInfoResponse> {
  checkParams(params, "getWithdrawalsBlockedInfo");
  return unaryQuery(client, {
    ...params,
    method: subaccounts.Query.method.getWithdrawalAndTransfersBlockedInfo,
    request: { perpetualId: uint32(params.perpetualId, "perpetualId") },
  });
}

/**
 * The module account holding the collateral of a perpetual's positions.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`PerpetualIdParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with the module account holding the collateral of a perpetual's positions;
 *   rejects with `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const pool = await getCollateralPoolAddress(client, { perpetualId: 0 });
 * ```
 */
export async function getCollateralPoolAddress(
  client: NodeConnection,
  params: PerpetualIdParams,
): Promise<string> {
  checkParams(params, "getCollateralPoolAddress");
  const response = await unaryQuery(client, {
    ...params,
    method: subaccounts.Query.method.collateralPoolAddress,
    request: { perpetualId: uint32(params.perpetualId, "perpetualId") },
  });
  return response.collateralPoolAddress;
}

/**
 * A subaccount's leverage settings: the initial margin fraction chosen per clob pair (pairs at
 * their default are absent).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`GetSubaccountParams`: each field is documented there), with the
 *   call options `signal` and `timeoutMs`.
 * @returns resolves with a subaccount's leverage settings: the initial margin fraction chosen per
 *   clob pair (pairs at their default are absent); rejects with `QueryError` when the node refuses
 *   the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * await client.updateLeverage({ signer: wallet, subaccount, leverage: [{ clobPairId: 0, imfPpm: 200_000 }] });
 * const settings = await getLeverage(client, subaccount);
 * settings.find((s) => s.clobPairId === 0)?.imfPpm; // 200000
 * ```
 */
export async function getLeverage(
  client: NodeConnection,
  params: GetSubaccountParams,
): Promise<Array<{ clobPairId: number; imfPpm: number }>> {
  checkParams(params, "getLeverage");
  const id = subaccountId({ owner: params.owner, number: params.number }, "subaccount");
  const response = await unaryQuery(client, {
    ...params,
    method: clob.Query.method.leverage,
    request: { owner: id.owner, number: id.number },
  });
  return response.clobPairLeverage.map((entry) => ({
    clobPairId: entry.clobPairId,
    imfPpm: entry.customImfPpm,
  }));
}
