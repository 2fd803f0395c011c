import { ratelimit } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { checkParams, uint32, uint64 } from "../messages/validate.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

/**
 * The IBC withdrawal rate limits of every limited denom.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the IBC withdrawal rate limits of every limited denom; rejects with
 *   `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const limits = await getLimitParams(client);
 * ```
 */
export async function getLimitParams(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<ratelimit.LimitParams[]> {
  checkParams(params, "getLimitParams", true);
  return (
    await unaryQuery(client, { ...params, method: ratelimit.Query.method.listLimitParams, request: {} })
  ).limitParamsList;
}

/**
 * Parameters of {@link getCapacityByDenom}.
 *
 * @example
 * ```ts
 * await getCapacityByDenom(client, { denom: "uusdc" });
 * ```
 */
export interface CapacityParams extends QueryOptions {
  /** The denom, e.g. `uusdc`. */
  denom: string;
}

/**
 * What can still leave over IBC now, per limiter, for one denom (SerializableInt bytes;
 * {@link limiterCapacities} reads them as bigints).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`CapacityParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with what can still leave over IBC now, per limiter, for one denom
 *   (SerializableInt bytes; reads them as bigints); rejects with `QueryError` when the node refuses
 *   the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const capacities = await getCapacityByDenom(client, { denom: "uusdc" });
 * ```
 */
export async function getCapacityByDenom(
  client: NodeConnection,
  params: CapacityParams,
): Promise<ratelimit.LimiterCapacity[]> {
  checkParams(params, "getCapacityByDenom");
  return (
    await unaryQuery(client, {
      ...params,
      method: ratelimit.Query.method.capacityByDenom,
      request: { denom: params.denom },
    })
  ).limiterCapacityList;
}

/**
 * Parameters of {@link getWithdrawalConfigs}.
 *
 * @example
 * ```ts
 * await getWithdrawalConfigs(client, { assetId: 0 });
 * ```
 */
export interface WithdrawalConfigsParams extends QueryOptions {
  /**
   * Only this asset.
   * @default undefined (every asset)
   */
  assetId?: number;
}

/**
 * Per-asset withdrawal controls: large-withdrawal threshold, timelock, withdrawal fee.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`WithdrawalConfigsParams`: each field is documented there), with
 *   the call options `signal` and `timeoutMs`.
 * @returns resolves with each asset's large-withdrawal threshold, timelock and withdrawal fee;
 *   rejects with `QueryError` when the node refuses the query.
 * @example
 * ```ts
 * const configs = await getWithdrawalConfigs(client, { assetId: 0 });
 * ```
 */
export async function getWithdrawalConfigs(
  client: NodeConnection,
  params: WithdrawalConfigsParams = {},
): Promise<ratelimit.AssetWithdrawalConfig[]> {
  checkParams(params, "getWithdrawalConfigs", true);
  const request = params.assetId === undefined ? {} : { assetId: uint32(params.assetId, "assetId") };
  return (
    await unaryQuery(client, { ...params, method: ratelimit.Query.method.assetWithdrawalConfigs, request })
  ).configs;
}

/**
 * Parameters of {@link getDailyLimits} and {@link getDailyUsage}.
 *
 * @example
 * ```ts
 * await getDailyUsage(client, { chainId: 1n, assetId: 0 });
 * ```
 */
export interface DailyParams extends QueryOptions {
  /**
   * Only this chain.
   * @default undefined (every chain)
   */
  chainId?: bigint;
  /**
   * Only this asset.
   * @default undefined (every asset)
   */
  assetId?: number;
}

function dailyRequest(params: DailyParams) {
  return {
    ...(params.chainId === undefined ? {} : { chainId: uint64(params.chainId, "chainId") }),
    ...(params.assetId === undefined ? {} : { assetId: uint32(params.assetId, "assetId") }),
  };
}

/**
 * Per chain and asset, the daily withdrawal limit.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`DailyParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with the daily withdrawal limit of each chain and asset; rejects with
 *   `QueryError` when the node refuses the query.
 * @example
 * ```ts
 * const limits = await getDailyLimits(client);
 * ```
 */
export async function getDailyLimits(
  client: NodeConnection,
  params: DailyParams = {},
): Promise<ratelimit.AssetChainDailyLimitConfig[]> {
  checkParams(params, "getDailyLimits", true);
  return (
    await unaryQuery(client, {
      ...params,
      method: ratelimit.Query.method.dailyLimits,
      request: dailyRequest(params),
    })
  ).limits;
}

/**
 * Per chain and asset, how much of the daily limit is used and when it last reset.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`DailyParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with, per chain and asset, the amount of today's limit used and when it last
 *   reset; rejects with `QueryError` when the node refuses the query.
 * @example
 * ```ts
 * const usage = await getDailyUsage(client, { assetId: 0 });
 * ```
 */
export async function getDailyUsage(
  client: NodeConnection,
  params: DailyParams = {},
): Promise<ratelimit.AssetChainWithdrawalDailyUsage[]> {
  checkParams(params, "getDailyUsage", true);
  return (
    await unaryQuery(client, {
      ...params,
      method: ratelimit.Query.method.dailyUsage,
      request: dailyRequest(params),
    })
  ).usage;
}
