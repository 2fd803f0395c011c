import { ratelimit } from "@perpx/proto";
import { uint32, uint64 } from "../messages/validate.js";
import { defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

/**
 * The IBC withdrawal rate limits of every limited denom.
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the IBC withdrawal rate limits of every limited denom.
 * @example
 * ```ts
 * const limits = await getLimitParams(client);
 * ```
 */
export const getLimitParams = defineQuery("getLimitParams", () => ratelimit.Query.method.listLimitParams, {
  pick: (r) => r.limitParamsList,
});

/**
 * Parameters of {@link getCapacityByDenom}.
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
 * @param client - the node client (from `createNodeClient`).
 * @param params - `CapacityParams`, with the call options.
 * @returns what can still leave over IBC now, per limiter (SerializableInt bytes).
 * @example
 * ```ts
 * const capacities = await getCapacityByDenom(client, { denom: "uusdc" });
 * ```
 */
export const getCapacityByDenom = defineQuery(
  "getCapacityByDenom",
  () => ratelimit.Query.method.capacityByDenom,
  {
    request: (p: CapacityParams) => ({ denom: p.denom }),
    pick: (r) => r.limiterCapacityList,
  },
);

/**
 * Parameters of {@link getWithdrawalConfigs}.
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
 * @param client - the node client (from `createNodeClient`).
 * @param params - `WithdrawalConfigsParams`, with the call options.
 * @returns each asset's large-withdrawal threshold, timelock and withdrawal fee.
 * @example
 * ```ts
 * const configs = await getWithdrawalConfigs(client, { assetId: 0 });
 * ```
 */
export const getWithdrawalConfigs = defineQuery(
  "getWithdrawalConfigs",
  () => ratelimit.Query.method.assetWithdrawalConfigs,
  {
    request: (p: WithdrawalConfigsParams) =>
      p.assetId === undefined ? {} : { assetId: uint32(p.assetId, "assetId") },
    pick: (r) => r.configs,
    optional: true,
  },
);

/**
 * Parameters of {@link getDailyLimits} and {@link getDailyUsage}.
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
 * @param client - the node client (from `createNodeClient`).
 * @param params - the chain and asset (`DailyParams`, both optional), with the call options.
 * @returns the daily withdrawal limit of each chain and asset.
 * @example
 * ```ts
 * const limits = await getDailyLimits(client);
 * ```
 */
export const getDailyLimits = defineQuery("getDailyLimits", () => ratelimit.Query.method.dailyLimits, {
  request: dailyRequest,
  pick: (r) => r.limits,
  optional: true,
});

/**
 * Per chain and asset, how much of the daily limit is used and when it last reset.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the chain and asset (`DailyParams`, both optional), with the call options.
 * @returns per chain and asset, the amount of today's limit used and when it last reset.
 * @example
 * ```ts
 * const usage = await getDailyUsage(client, { assetId: 0 });
 * ```
 */
export const getDailyUsage = defineQuery("getDailyUsage", () => ratelimit.Query.method.dailyUsage, {
  request: dailyRequest,
  pick: (r) => r.usage,
  optional: true,
});
