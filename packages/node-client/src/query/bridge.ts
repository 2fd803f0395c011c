/** The bridge module's reads (params, events, delayed deposits, withdrawals) over {@link defineQuery}. */
import { bridge } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { bech32Address, uint64 } from "../messages/validate.js";
import { definePagedQuery, defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

/** One source chain of the bridge (its EVM chain id; 0n or omitted: the chain's first bridge). */
type EthChainParams = QueryOptions & { ethChainId?: bigint };

const chain = (p: EthChainParams) => ({ ethChainId: uint64(p.ethChainId ?? 0n, "ethChainId") });
const onlyChain = (id: bigint | undefined) =>
  id === undefined ? {} : { ethChainId: uint64(id, "ethChainId") };
const account = (address: string | undefined) => (address === undefined ? "" : bech32Address(address));

/**
 * Parameters of {@link getBridgeEvents}.
 * @example
 * ```ts
 * await getBridgeEvents(client, { address: wallet.address, ethChainId: 11155111n });
 * ```
 */
export interface BridgeEventsParams extends QueryOptions {
  /** Only the events of this source chain. @default undefined (every source chain) */
  ethChainId?: bigint;
  /** Only the events credited to this account. @default "" (all) */
  address?: string;
}

/**
 * Bridge events with their status (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - the filters (`BridgeEventsParams`), with the call options.
 * @returns the events.
 * @example
 * ```ts
 * const events = await getBridgeEvents(client, { address: wallet.address });
 * ```
 */
export const getBridgeEvents: (
  client: NodeConnection,
  params?: BridgeEventsParams,
) => Promise<bridge.BridgeEventRecord[]> = definePagedQuery(
  "getBridgeEvents",
  () => bridge.Query.method.bridgeEvents,
  {
    request: (p: BridgeEventsParams) => ({ address: account(p.address), ...onlyChain(p.ethChainId) }),
    pick: (r) => r.events,
    optional: true,
  },
);

/**
 * The bridge's other queries, each `query(client, params)` with the call options in its params:
 * `getBridgeEventParams`, `getAcknowledgedBridgeEventInfo` (the last event in consensus) and
 * `getRecognizedBridgeEventInfo` (the last one this node's daemon saw), each of one source chain
 * (`{ ethChainId? }`); `getBridgeProposeParams`, `getBridgeSafetyParams`;
 * `getDelayedCompleteBridgeMessages({ address? })` (deposits acknowledged, not yet credited);
 * `getAggregatedWithdrawals({ ethChainId?, readyForRelayOnly? })` (all pages) and
 * `getAggregatedWithdrawal({ withdrawalId })` (`undefined` when unknown).
 * @example
 * ```ts
 * (await bridgeQueries.getBridgeEventParams(client, { ethChainId: 11155111n }))?.ethChainId; // 11155111n
 * const delayed = await bridgeQueries.getDelayedCompleteBridgeMessages(client, { address: wallet.address });
 * ```
 */
export const bridgeQueries = {
  getBridgeEventParams: defineQuery("getBridgeEventParams", () => bridge.Query.method.eventParams, {
    request: chain,
    pick: (r) => r.params,
    optional: true,
  }),
  getBridgeProposeParams: defineQuery("getBridgeProposeParams", () => bridge.Query.method.proposeParams, {
    pick: (r) => r.params,
  }),
  getBridgeSafetyParams: defineQuery("getBridgeSafetyParams", () => bridge.Query.method.safetyParams, {
    pick: (r) => r.params,
  }),
  getAcknowledgedBridgeEventInfo: defineQuery(
    "getAcknowledgedBridgeEventInfo",
    () => bridge.Query.method.acknowledgedEventInfo,
    { request: chain, pick: (r) => r.info, optional: true },
  ),
  getRecognizedBridgeEventInfo: defineQuery(
    "getRecognizedBridgeEventInfo",
    () => bridge.Query.method.recognizedEventInfo,
    { request: chain, pick: (r) => r.info, optional: true },
  ),
  getDelayedCompleteBridgeMessages: defineQuery(
    "getDelayedCompleteBridgeMessages",
    () => bridge.Query.method.delayedCompleteBridgeMessages,
    {
      request: (p: QueryOptions & { address?: string }) => ({ address: account(p.address) }),
      pick: (r) => r.messages,
      optional: true,
    },
  ),
  getAggregatedWithdrawals: definePagedQuery(
    "getAggregatedWithdrawals",
    () => bridge.Query.method.aggregatedWithdrawals,
    {
      request: (p: EthChainParams & { readyForRelayOnly?: boolean }) => ({
        readyForRelayOnly: p.readyForRelayOnly ?? false,
        ...onlyChain(p.ethChainId),
      }),
      pick: (r) => r.withdrawals,
      optional: true,
    },
  ),
  getAggregatedWithdrawal: defineQuery(
    "getAggregatedWithdrawal",
    () => bridge.Query.method.aggregatedWithdrawal,
    {
      request: (p: QueryOptions & { withdrawalId: bigint }) => ({
        withdrawalId: uint64(p.withdrawalId, "withdrawalId"),
      }),
      pick: (r) => r.withdrawal,
      orUndefined: true,
    },
  ),
} as const;
