import { wrap } from "@perpx/proto";
import { definePagedQuery, defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

/**
 * Every wrapping rule in force (port, channel, source denom -> local denom).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns every wrapping rule in force (port, channel, source denom -> local denom).
 * @example
 * ```ts
 * const rules = await getWrapRules(client);
 * ```
 */
export const getWrapRules = definePagedQuery("getWrapRules", () => wrap.Query.method.wrapRules, {
  pick: (r) => r.rules,
});

/**
 * Parameters of {@link getWrapRule}: the rule's key.
 * @example
 * ```ts
 * await getWrapRule(client, { channelId: "channel-0", sourceDenom: "uusdc" });
 * ```
 */
export interface GetWrapRuleParams extends QueryOptions {
  /** @default "transfer" */
  portId?: string;
  /** The channel, `channel-<n>`. */
  channelId: string;
  /** The denom on the source chain, e.g. `uusdc`. */
  sourceDenom: string;
}

/**
 * The wrapping rule of one (port, channel, source denom), or `undefined` when none matches.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetWrapRuleParams`, with the call options.
 * @returns the wrapping rule of one (port, channel, source denom), or `undefined` when none matches.
 * @example
 * ```ts
 * const rule = await getWrapRule(client, { channelId: "channel-0", sourceDenom: "uusdc" });
 * ```
 */
export const getWrapRule = defineQuery("getWrapRule", () => wrap.Query.method.wrapRule, {
  request: (p: GetWrapRuleParams) => ({
    portId: p.portId ?? "transfer",
    channelId: p.channelId,
    sourceDenom: p.sourceDenom,
  }),
  pick: (r) => r.rule,
  orUndefined: true,
});

/**
 * Parameters of {@link getBacking}.
 * @example
 * ```ts
 * await getBacking(client, { localDenom: "uusdc" });
 * ```
 */
export interface GetBackingParams extends QueryOptions {
  /** The local denom whose vouchers are listed. @default "uusdc" */
  localDenom?: string;
}

/**
 * The vouchers backing a local denom, each with amount issued and remaining balance.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetBackingParams`, with the call options.
 * @returns the vouchers backing a local denom, each with amount issued and remaining balance.
 * @example
 * ```ts
 * const backings = await getBacking(client);
 * backings; // []: nothing wrapped on a fresh devnet
 * ```
 */
export const getBacking = defineQuery("getBacking", () => wrap.Query.method.backing, {
  request: (p: GetBackingParams) => ({ localDenom: p.localDenom ?? "uusdc" }),
  pick: (r) => r.backings,
  optional: true,
});
