import type { GasPrice, Network } from "@perpx/core";
import type { GrpcConnection } from "./transport/grpc.js";
import type { RestConnection } from "./transport/rest.js";
import type { RpcConnection } from "./transport/rpc-json.js";
import type { SequenceManager } from "./tx/sequence.js";

/**
 * How a transaction is broadcast.
 *
 * @example
 * ```ts
 * const mode: BroadcastMode = "commit";
 * ```
 */
export type BroadcastMode = "sync" | "async" | "commit";

/**
 * The defaults a node client applies to every transaction unless a call overrides them.
 *
 * @example
 * ```ts
 * client.txDefaults.gasMultiplier; // 1.6
 * ```
 */
export interface TxDefaults {
  /** Simulated gas is multiplied by this. */
  gasMultiplier: number;
  /** The fee denom. */
  feeDenom: string;
  /** How transactions are broadcast. */
  broadcastMode: BroadcastMode;
  /** How long `commit` waits for inclusion. */
  commitTimeoutMs: number;
  /** How often `commit` polls for the transaction. */
  pollIntervalMs: number;
  /** Classic sequences or timestamp nonces for stateful transactions. */
  nonceMode: "sequence" | "timestamp";
  /** The short-term order window, in blocks. */
  shortBlockWindow: number;
}

/**
 * The state every query and transaction function works on: the open transports, the default
 * timeout, the network facts and the per-account sequences. A `NodeClient` is one; the free
 * functions (`getBalances(client, ...)`) take any.
 *
 * @example
 * ```ts
 * import { cosmosBank } from "@perpx/proto";
 *
 * // A query of your own, for a client or any other connection.
 * async function usdcOf(connection: NodeConnection, address: string) {
 *   const request = { address, denom: "uusdc" };
 *   return (await unaryQuery(connection, { method: cosmosBank.Query.method.balance, request })).balance?.amount;
 * }
 * Number(await usdcOf(client, wallet.address)) > 0; // true
 * ```
 */
export interface NodeConnection {
  /** CometBFT RPC, when configured. */
  readonly rpc: RpcConnection | undefined;
  /** REST, when configured. */
  readonly rest: RestConnection | undefined;
  /** gRPC, when configured. */
  readonly grpc: GrpcConnection | undefined;
  /** The default per-call timeout, ms. */
  readonly timeoutMs: number;
  /** The network preset, when given. */
  readonly network: Network | undefined;
  /** The account sequences of transactions sent through this client. */
  readonly sequences: SequenceManager;
  /** Transaction defaults. */
  readonly txDefaults: TxDefaults;
}

/** What a client learns from the node once and keeps: private to the package. */
interface ChainFacts {
  chainId: string | undefined;
  gasPrices: readonly GasPrice[] | undefined;
}

// Keyed by the client's sequence manager, which every view of one client (`extend`) shares.
const facts = new WeakMap<SequenceManager, ChainFacts>();

/** Seeds a new client's chain facts from its options (the chain id and gas prices it was given). */
export function seedChainFacts(client: NodeConnection, known: ChainFacts): void {
  facts.set(client.sequences, { ...known });
}

/**
 * The chain facts a client caches (chain id, minimum gas prices): one private record per
 * connection, created on first use. Not exported from the package.
 */
export function chainFacts(client: NodeConnection): ChainFacts {
  let known = facts.get(client.sequences);
  if (!known) {
    known = { chainId: client.network?.chainId, gasPrices: client.network?.minimumGasPrices };
    facts.set(client.sequences, known);
  }
  return known;
}
