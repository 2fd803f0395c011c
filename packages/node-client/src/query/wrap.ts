/** The wrap module's reads (wrapping rules, the vouchers backing a denom), as rows over {@link defineQuery}. */
import { wrap } from "@perpx/proto";
import { definePagedQuery, defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

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

/**
 * The wrap module's rule queries, each `query(client, params)` with the call options in its params:
 * `getWrapRules` (every rule in force: port, channel, source denom to local denom; all pages) and
 * `getWrapRule({ channelId, sourceDenom, portId? })` (port `transfer` by default; `undefined` when
 * none matches).
 * @example
 * ```ts
 * await wrapQueries.getWrapRule(client, { channelId: "channel-9", sourceDenom: "unknown" }); // undefined
 * const rules = await wrapQueries.getWrapRules(client);
 * ```
 */
export const wrapQueries = {
  getWrapRules: definePagedQuery("getWrapRules", () => wrap.Query.method.wrapRules, { pick: (r) => r.rules }),
  getWrapRule: defineQuery("getWrapRule", () => wrap.Query.method.wrapRule, {
    request: (p: QueryOptions & { portId?: string; channelId: string; sourceDenom: string }) => ({
      portId: p.portId ?? "transfer",
      channelId: p.channelId,
      sourceDenom: p.sourceDenom,
    }),
    pick: (r) => r.rule,
    orUndefined: true,
  }),
} as const;
