/** The rate-limit module's reads (IBC withdrawal limits, per-asset controls), as rows over {@link defineQuery}. */
import { ratelimit } from "@perpx/proto";
import { uint32, uint64 } from "../messages/validate.js";
import { defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

/** Only this chain and this asset (each optional: every one), with the call options. */
type DailyParams = QueryOptions & { chainId?: bigint; assetId?: number };

const onlyAsset = (assetId: number | undefined) =>
  assetId === undefined ? {} : { assetId: uint32(assetId, "assetId") };
const daily = (p: DailyParams) => ({
  ...(p.chainId === undefined ? {} : { chainId: uint64(p.chainId, "chainId") }),
  ...onlyAsset(p.assetId),
});

/**
 * The rate-limit queries, each `query(client, params)` with the call options in its params:
 * `getLimitParams` (the IBC withdrawal limits of every limited denom),
 * `getCapacityByDenom({ denom })` (what can still leave now, per limiter, SerializableInt bytes that
 * {@link limiterCapacities} reads as bigints), `getWithdrawalConfigs({ assetId? })` (threshold,
 * timelock and fee per asset), and per chain and asset (`{ chainId?, assetId? }`) `getDailyLimits`
 * and `getDailyUsage` (what is used and when it last reset).
 * @example
 * ```ts
 * const capacities = await ratelimitQueries.getCapacityByDenom(client, { denom: "uusdc" });
 * const usage = await ratelimitQueries.getDailyUsage(client, { assetId: 0 });
 * ```
 */
export const ratelimitQueries = {
  getLimitParams: defineQuery("getLimitParams", () => ratelimit.Query.method.listLimitParams, {
    pick: (r) => r.limitParamsList,
  }),
  getCapacityByDenom: defineQuery("getCapacityByDenom", () => ratelimit.Query.method.capacityByDenom, {
    request: (p: QueryOptions & { denom: string }) => ({ denom: p.denom }),
    pick: (r) => r.limiterCapacityList,
  }),
  getWithdrawalConfigs: defineQuery(
    "getWithdrawalConfigs",
    () => ratelimit.Query.method.assetWithdrawalConfigs,
    {
      request: (p: QueryOptions & { assetId?: number }) => onlyAsset(p.assetId),
      pick: (r) => r.configs,
      optional: true,
    },
  ),
  getDailyLimits: defineQuery("getDailyLimits", () => ratelimit.Query.method.dailyLimits, {
    request: daily,
    pick: (r) => r.limits,
    optional: true,
  }),
  getDailyUsage: defineQuery("getDailyUsage", () => ratelimit.Query.method.dailyUsage, {
    request: daily,
    pick: (r) => r.usage,
    optional: true,
  }),
} as const;
