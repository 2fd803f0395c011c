import { wrap } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { isQueryError } from "../errors.js";
import { checkParams } from "../messages/validate.js";
import { allPages } from "./pages.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

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
export async function getWrapRules(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<wrap.WrapRule[]> {
  checkParams(params, "getWrapRules", true);
  return allPages(client, {
    ...params,
    method: wrap.Query.method.wrapRules,
    request: {},
    pick: (r) => r.rules,
  });
}

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
export async function getWrapRule(
  client: NodeConnection,
  params: GetWrapRuleParams,
): Promise<wrap.WrapRule | undefined> {
  checkParams(params, "getWrapRule");
  try {
    const response = await unaryQuery(client, {
      ...params,
      method: wrap.Query.method.wrapRule,
      request: {
        portId: params.portId ?? "transfer",
        channelId: params.channelId,
        sourceDenom: params.sourceDenom,
      },
    });
    return response.rule;
  } catch (error) {
    if (isQueryError(error) && error.notFound) return undefined;
    throw error;
  }
}

/**
 * Parameters of {@link getBacking}.
 * @example
 * ```ts
 * await getBacking(client, { localDenom: "uusdc" });
 * ```
 */
export interface GetBackingParams extends QueryOptions {
  /**
   * The local denom whose vouchers are listed.
   * @default "uusdc"
   */
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
export async function getBacking(
  client: NodeConnection,
  params: GetBackingParams = {},
): Promise<wrap.VoucherBacking[]> {
  checkParams(params, "getBacking", true);
  const response = await unaryQuery(client, {
    ...params,
    method: wrap.Query.method.backing,
    request: { localDenom: params.localDenom ?? "uusdc" },
  });
  return response.backings;
}
