/**
 * The live network's module params at one height, for a fork's genesis: each module the devnet runs
 * (clob limits, rewards, revenue share, perpetuals, affiliates, bridge, ratelimit), through the
 * node's generic typed query (`unaryQuery` over the module's `Query` service), so a module with no
 * dedicated client action is read the same way as one with.
 */
import type { DescMessage, DescMethodUnary, MessageShape } from "@bufbuild/protobuf";
import type { ForkParams } from "@perpx/devnet";
import { isQueryError, type NodeConnection } from "@perpx/node-client";
import { catalogQueries, unaryQuery } from "@perpx/node-client/queries";
import { affiliates, bridge, perpetuals, ratelimit } from "@perpx/proto";

const { getBlockRateLimits, getEquityTiers, getMarketMapperRevShareParams, getRewardsParams } =
  catalogQueries;

/** One query with an empty (all-default) request at `height`; undefined when the node has no such entry. */
async function ask<I extends DescMessage, O extends DescMessage>(
  node: NodeConnection,
  method: DescMethodUnary<I, O>,
  height: bigint,
): Promise<MessageShape<O> | undefined> {
  try {
    return await unaryQuery(node, { method, request: {}, height } as Parameters<typeof unaryQuery<I, O>>[1]);
  } catch (error) {
    if (isQueryError(error) && error.notFound) return undefined;
    throw error;
  }
}

/**
 * Reads the module params a fork's genesis takes, each at `height`.
 *
 * @param node - a node client of the live network.
 * @param height - the height every query is pinned to.
 * @returns the params; an entry the live node does not hold (a NotFound answer) is left out, so
 *   the profile's stays.
 */
export async function readForkParams(node: NodeConnection, height: bigint): Promise<ForkParams> {
  const at = { height };
  const [
    blockRateLimits,
    equityTiers,
    rewards,
    marketMapperRevShare,
    perps,
    tiers,
    whitelist,
    parameters,
    overrides,
    eventParams,
    proposeParams,
    safetyParams,
    limits,
    withdrawalConfigs,
    dailyLimits,
  ] = await Promise.all([
    getBlockRateLimits(node, at),
    getEquityTiers(node, at),
    getRewardsParams(node, at),
    getMarketMapperRevShareParams(node, at),
    ask(node, perpetuals.Query.method.params, height),
    ask(node, affiliates.Query.method.allAffiliateTiers, height),
    ask(node, affiliates.Query.method.affiliateWhitelist, height),
    ask(node, affiliates.Query.method.affiliateParameters, height),
    ask(node, affiliates.Query.method.affiliateOverrides, height),
    ask(node, bridge.Query.method.eventParams, height),
    ask(node, bridge.Query.method.proposeParams, height),
    ask(node, bridge.Query.method.safetyParams, height),
    ask(node, ratelimit.Query.method.listLimitParams, height),
    ask(node, ratelimit.Query.method.assetWithdrawalConfigs, height),
    ask(node, ratelimit.Query.method.dailyLimits, height),
  ]);
  const optional = <K extends keyof ForkParams>(key: K, value: ForkParams[K] | undefined) =>
    value === undefined ? {} : { [key]: value };
  return {
    blockRateLimits,
    equityTiers,
    rewards,
    marketMapperRevShare,
    ...optional("perpetuals", perps?.params),
    ...optional("affiliateTiers", tiers?.tiers),
    ...optional("affiliateWhitelist", whitelist?.whitelist),
    ...optional("affiliateParameters", parameters?.parameters),
    ...optional("affiliateOverrides", overrides?.overrides),
    ...optional("bridgeEventParams", eventParams?.allParams),
    ...optional("bridgeProposeParams", proposeParams?.params),
    ...optional("bridgeSafetyParams", safetyParams?.params),
    ...optional("limitParams", limits?.limitParamsList),
    ...optional("withdrawalConfigs", withdrawalConfigs?.configs),
    ...optional("dailyLimits", dailyLimits?.limits),
  };
}
