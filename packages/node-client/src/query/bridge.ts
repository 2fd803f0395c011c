import { bridge } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { isQueryError } from "../errors.js";
import { bech32Address, checkParams, uint64 } from "../messages/validate.js";
import { allPages } from "./pages.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

/**
 * Parameters naming one source chain of the bridge.
 *
 * @example
 * ```ts
 * const params: EthChainParams = { ethChainId: 11155111n }; // Sepolia, the devnet's source chain
 * (await getBridgeEventParams(client, params))?.ethChainId; // 11155111n
 * ```
 */
export interface EthChainParams extends QueryOptions {
  /**
   * The EVM chain id of the source chain; omitted means the chain's default (its first bridge).
   * @default 0n
   */
  ethChainId?: bigint;
}

/**
 * The bridge's event parameters (denom, source chain id, contract address).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`EthChainParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with the bridge's event parameters (denom, source chain id, contract address);
 *   rejects with `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const params = await getBridgeEventParams(client);
 * ```
 */
export async function getBridgeEventParams(
  client: NodeConnection,
  params: EthChainParams = {},
): Promise<bridge.EventParams | undefined> {
  checkParams(params, "getBridgeEventParams", true);
  const response = await unaryQuery(client, {
    ...params,
    method: bridge.Query.method.eventParams,
    request: { ethChainId: uint64(params.ethChainId ?? 0n, "ethChainId") },
  });
  return response.params;
}

/**
 * The bridge's propose parameters.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the bridge's propose parameters; rejects with `QueryError` when the node
 *   refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const params = await getBridgeProposeParams(client);
 * ```
 */
export async function getBridgeProposeParams(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<bridge.ProposeParams | undefined> {
  checkParams(params, "getBridgeProposeParams", true);
  return (await unaryQuery(client, { ...params, method: bridge.Query.method.proposeParams, request: {} }))
    .params;
}

/**
 * The bridge's safety parameters (disabled flag, delay in blocks).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with the bridge's safety parameters (disabled flag, delay in blocks); rejects
 *   with `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const { delayBlocks } = (await getBridgeSafetyParams(client))!;
 * ```
 */
export async function getBridgeSafetyParams(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<bridge.SafetyParams | undefined> {
  checkParams(params, "getBridgeSafetyParams", true);
  return (await unaryQuery(client, { ...params, method: bridge.Query.method.safetyParams, request: {} }))
    .params;
}

/**
 * The last bridge event acknowledged in consensus (`nextId`, `ethBlockHeight`).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`EthChainParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with the last bridge event acknowledged in consensus (`nextId`,
 *   `ethBlockHeight`); rejects with `QueryError` when the node refuses the query (`notFound` set
 *   for a missing entry).
 * @example
 * ```ts
 * const info = await getAcknowledgedBridgeEventInfo(client);
 * ```
 */
export async function getAcknowledgedBridgeEventInfo(
  client: NodeConnection,
  params: EthChainParams = {},
): Promise<bridge.BridgeEventInfo | undefined> {
  checkParams(params, "getAcknowledgedBridgeEventInfo", true);
  const response = await unaryQuery(client, {
    ...params,
    method: bridge.Query.method.acknowledgedEventInfo,
    request: { ethChainId: uint64(params.ethChainId ?? 0n, "ethChainId") },
  });
  return response.info;
}

/**
 * The last bridge event this node's daemon recognized (not yet in consensus).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`EthChainParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with the last bridge event this node's daemon recognized (not yet in
 *   consensus); rejects with `QueryError` when the node refuses the query (`notFound` set for a
 *   missing entry).
 * @example
 * ```ts
 * const info = await getRecognizedBridgeEventInfo(client);
 * ```
 */
export async function getRecognizedBridgeEventInfo(
  client: NodeConnection,
  params: EthChainParams = {},
): Promise<bridge.BridgeEventInfo | undefined> {
  checkParams(params, "getRecognizedBridgeEventInfo", true);
  const response = await unaryQuery(client, {
    ...params,
    method: bridge.Query.method.recognizedEventInfo,
    request: { ethChainId: uint64(params.ethChainId ?? 0n, "ethChainId") },
  });
  return response.info;
}

/**
 * Parameters of {@link getDelayedCompleteBridgeMessages}.
 *
 * @example
 * ```ts
 * await getDelayedCompleteBridgeMessages(client, { address: wallet.address });
 * ```
 */
export interface DelayedBridgeParams extends QueryOptions {
  /**
   * Only the deposits credited to this account.
   * @default "" (all)
   */
  address?: string;
}

/**
 * Bridge deposits acknowledged but not yet credited, with the block they complete at.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`DelayedBridgeParams`: each field is documented there), with the
 *   call options `signal` and `timeoutMs`.
 * @returns resolves with bridge deposits acknowledged but not yet credited, with the block they
 *   complete at; rejects with `QueryError` when the node refuses the query (`notFound` set for a
 *   missing entry).
 * @example
 * ```ts
 * const pending = await getDelayedCompleteBridgeMessages(client, { address: wallet.address });
 * ```
 */
export async function getDelayedCompleteBridgeMessages(
  client: NodeConnection,
  params: DelayedBridgeParams = {},
): Promise<bridge.DelayedCompleteBridgeMessage[]> {
  checkParams(params, "getDelayedCompleteBridgeMessages", true);
  const response = await unaryQuery(client, {
    ...params,
    method: bridge.Query.method.delayedCompleteBridgeMessages,
    request: { address: params.address === undefined ? "" : bech32Address(params.address) },
  });
  return response.messages;
}

/**
 * Parameters of {@link getBridgeEvents}.
 *
 * @example
 * ```ts
 * await getBridgeEvents(client, { address: wallet.address, ethChainId: 11155111n });
 * ```
 */
export interface BridgeEventsParams extends QueryOptions {
  /**
   * Only the events of this source chain.
   * @default undefined (every source chain)
   */
  ethChainId?: bigint;
  /**
   * Only the events credited to this account.
   * @default "" (all)
   */
  address?: string;
}

/**
 * Bridge events with their status (all pages).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`BridgeEventsParams`: each field is documented there), with the
 *   call options `signal` and `timeoutMs`.
 * @returns resolves with bridge events with their status (all pages); rejects with `QueryError`
 *   when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const events = await getBridgeEvents(client, { address: wallet.address });
 * ```
 */
export async function getBridgeEvents(
  client: NodeConnection,
  params: BridgeEventsParams = {},
): Promise<bridge.BridgeEventRecord[]> {
  checkParams(params, "getBridgeEvents", true);
  return allPages(client, {
    ...params,
    method: bridge.Query.method.bridgeEvents,
    request: {
      address: params.address === undefined ? "" : bech32Address(params.address),
      ...(params.ethChainId === undefined ? {} : { ethChainId: uint64(params.ethChainId, "ethChainId") }),
    },
    pick: (r) => r.events,
  });
}

/**
 * Parameters of {@link getAggregatedWithdrawals}.
 *
 * @example
 * ```ts
 * await getAggregatedWithdrawals(client, { readyForRelayOnly: true });
 * ```
 */
export interface AggregatedWithdrawalsParams extends QueryOptions {
  /**
   * Only the withdrawals of this destination chain.
   * @default undefined (all)
   */
  ethChainId?: bigint;
  /**
   * Only withdrawals ready for relay.
   * @default false
   */
  readyForRelayOnly?: boolean;
}

/**
 * Withdrawals with their collected signatures (all pages).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`AggregatedWithdrawalsParams`: each field is documented there),
 *   with the call options `signal` and `timeoutMs`.
 * @returns resolves with withdrawals with their collected signatures (all pages); rejects with
 *   `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const ready = await getAggregatedWithdrawals(client, { readyForRelayOnly: true });
 * ```
 */
export async function getAggregatedWithdrawals(
  client: NodeConnection,
  params: AggregatedWithdrawalsParams = {},
): Promise<bridge.AggregatedWithdrawal[]> {
  checkParams(params, "getAggregatedWithdrawals", true);
  return allPages(client, {
    ...params,
    method: bridge.Query.method.aggregatedWithdrawals,
    request: {
      readyForRelayOnly: params.readyForRelayOnly ?? false,
      ...(params.ethChainId === undefined ? {} : { ethChainId: uint64(params.ethChainId, "ethChainId") }),
    },
    pick: (r) => r.withdrawals,
  });
}

/**
 * Parameters of {@link getAggregatedWithdrawal}.
 *
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
 * One withdrawal with its signatures, or `undefined` when unknown.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`AggregatedWithdrawalParams`: each field is documented there), with
 *   the call options `signal` and `timeoutMs`.
 * @returns resolves with one withdrawal with its signatures, or `undefined` when unknown; rejects
 *   with `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const withdrawal = await getAggregatedWithdrawal(client, { withdrawalId: 1n });
 * ```
 */
export async function getAggregatedWithdrawal(
  client: NodeConnection,
  params: AggregatedWithdrawalParams,
): Promise<bridge.AggregatedWithdrawal | undefined> {
  checkParams(params, "getAggregatedWithdrawal");
  try {
    const response = await unaryQuery(client, {
      ...params,
      method: bridge.Query.method.aggregatedWithdrawal,
      request: { withdrawalId: uint64(params.withdrawalId, "withdrawalId") },
    });
    return response.withdrawal;
  } catch (error) {
    if (isQueryError(error) && error.notFound) return undefined;
    throw error;
  }
}
