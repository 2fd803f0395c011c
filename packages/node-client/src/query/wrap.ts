import { wrap } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { isQueryError } from "../errors.js";
import { checkParams } from "../messages/validate.js";
import { allPages } from "./pages.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

/**
 * Every wrapping rule in force (port, channel, source denom -> local denom).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with every wrapping rule in force (port, channel, source denom -> local denom);
 *   rejects with `QueryError` when the node refuses the query (`notFound` set for a missing entry).
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
 * @param params - what to read (`GetWrapRuleParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with the wrapping rule of one (port, channel, source denom), or `undefined`
 *   when none matches; rejects with `QueryError` when the node refuses the query (`notFound` set
 *   for a missing entry).
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
 * @param params - what to read (`GetBackingParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with the vouchers backing a local denom, each with amount issued and remaining
 *   balance; rejects with `QueryError` when the node refuses the query (`notFound` set for a
 *   missing entry).
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
