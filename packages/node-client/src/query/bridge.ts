import { bridge } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { bech32Address, uint64 } from "../messages/validate.js";
import { definePagedQuery, defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

/**
 * Parameters naming one source chain of the bridge.
 * @example
 * ```ts
 * const params: EthChainParams = { ethChainId: 11155111n }; // Sepolia, the devnet's source chain
 * (await getBridgeEventParams(client, params))?.ethChainId; // 11155111n
 * ```
 */
export interface EthChainParams extends QueryOptions {
  /** The EVM chain id of the source chain; omitted means the chain's default (its first bridge). @default 0n */
  ethChainId?: bigint;
}

const chain = (p: EthChainParams) => ({ ethChainId: uint64(p.ethChainId ?? 0n, "ethChainId") });
const onlyChain = (id: bigint | undefined) =>
  id === undefined ? {} : { ethChainId: uint64(id, "ethChainId") };
const account = (address: string | undefined) => (address === undefined ? "" : bech32Address(address));

/**
 * The bridge's event parameters (denom, source chain id, contract address).
 * @param client - the node client (from `createNodeClient`).
 * @param params - the source chain (`EthChainParams`), with the call options.
 * @returns the params.
 * @example
 * ```ts
 * const params = await getBridgeEventParams(client);
 * ```
 */
export const getBridgeEventParams = defineQuery(
  "getBridgeEventParams",
  () => bridge.Query.method.eventParams,
  {
    request: chain,
    pick: (r) => r.params,
    optional: true,
  },
);

/**
 * The bridge's propose parameters.
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the params.
 * @example
 * ```ts
 * const params = await getBridgeProposeParams(client);
 * ```
 */
export const getBridgeProposeParams = defineQuery(
  "getBridgeProposeParams",
  () => bridge.Query.method.proposeParams,
  {
    pick: (r) => r.params,
  },
);

/**
 * The bridge's safety parameters (disabled flag, delay in blocks).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the params.
 * @example
 * ```ts
 * const { delayBlocks } = (await getBridgeSafetyParams(client))!;
 * ```
 */
export const getBridgeSafetyParams = defineQuery(
  "getBridgeSafetyParams",
  () => bridge.Query.method.safetyParams,
  {
    pick: (r) => r.params,
  },
);

/**
 * The last bridge event acknowledged in consensus (`nextId`, `ethBlockHeight`).
 * @param client - the node client (from `createNodeClient`).
 * @param params - the source chain (`EthChainParams`), with the call options.
 * @returns the event info.
 * @example
 * ```ts
 * const info = await getAcknowledgedBridgeEventInfo(client);
 * ```
 */
export const getAcknowledgedBridgeEventInfo = defineQuery(
  "getAcknowledgedBridgeEventInfo",
  () => bridge.Query.method.acknowledgedEventInfo,
  { request: chain, pick: (r) => r.info, optional: true },
);

/**
 * The last bridge event this node's daemon recognized (not yet in consensus).
 * @param client - the node client (from `createNodeClient`).
 * @param params - the source chain (`EthChainParams`), with the call options.
 * @returns the event info.
 * @example
 * ```ts
 * const info = await getRecognizedBridgeEventInfo(client);
 * ```
 */
export const getRecognizedBridgeEventInfo = defineQuery(
  "getRecognizedBridgeEventInfo",
  () => bridge.Query.method.recognizedEventInfo,
  { request: chain, pick: (r) => r.info, optional: true },
);

/**
 * Parameters of {@link getDelayedCompleteBridgeMessages}.
 * @example
 * ```ts
 * await getDelayedCompleteBridgeMessages(client, { address: wallet.address });
 * ```
 */
export interface DelayedBridgeParams extends QueryOptions {
  /** Only the deposits credited to this account. @default "" (all) */
  address?: string;
}

/**
 * Bridge deposits acknowledged but not yet credited, with the block they complete at.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the account (`DelayedBridgeParams`), with the call options.
 * @returns the delayed messages.
 * @example
 * ```ts
 * const pending = await getDelayedCompleteBridgeMessages(client, { address: wallet.address });
 * ```
 */
export const getDelayedCompleteBridgeMessages = defineQuery(
  "getDelayedCompleteBridgeMessages",
  () => bridge.Query.method.delayedCompleteBridgeMessages,
  {
    request: (p: DelayedBridgeParams) => ({ address: account(p.address) }),
    pick: (r) => r.messages,
    optional: true,
  },
);

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
 * Parameters of {@link getAggregatedWithdrawals}.
 * @example
 * ```ts
 * await getAggregatedWithdrawals(client, { readyForRelayOnly: true });
 * ```
 */
export interface AggregatedWithdrawalsParams extends QueryOptions {
  /** Only the withdrawals of this destination chain. @default undefined (all) */
  ethChainId?: bigint;
  /** Only withdrawals ready for relay. @default false */
  readyForRelayOnly?: boolean;
}

/**
 * Withdrawals with their collected signatures (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - the filters (`AggregatedWithdrawalsParams`), with the call options.
 * @returns the withdrawals.
 * @example
 * ```ts
 * const ready = await getAggregatedWithdrawals(client, { readyForRelayOnly: true });
 * ```
 */
export const getAggregatedWithdrawals = definePagedQuery(
  "getAggregatedWithdrawals",
  () => bridge.Query.method.aggregatedWithdrawals,
  {
    request: (p: AggregatedWithdrawalsParams) => ({
      readyForRelayOnly: p.readyForRelayOnly ?? false,
      ...onlyChain(p.ethChainId),
    }),
    pick: (r) => r.withdrawals,
    optional: true,
  },
);

/**
 * Parameters of {@link getAggregatedWithdrawal}.
 * @example
 * ```ts
 * await getAggregatedWithdrawal(client, { withdrawalId: 1n });
 * ```
 */
export interface AggregatedWithdrawalParams extends QueryOptions {
  /** The withdrawal id. */
  withdrawalId: bigint;
}

/**
 * One withdrawal with its signatures.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the withdrawal (`AggregatedWithdrawalParams`), with the call options.
 * @returns the withdrawal, or `undefined` when unknown.
 * @example
 * ```ts
 * const withdrawal = await getAggregatedWithdrawal(client, { withdrawalId: 1n });
 * ```
 */
export const getAggregatedWithdrawal = defineQuery(
  "getAggregatedWithdrawal",
  () => bridge.Query.method.aggregatedWithdrawal,
  {
    request: (p: AggregatedWithdrawalParams) => ({ withdrawalId: uint64(p.withdrawalId, "withdrawalId") }),
    pick: (r) => r.withdrawal,
    orUndefined: true,
  },
);
