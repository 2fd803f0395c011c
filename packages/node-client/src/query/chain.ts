import { timestampDate } from "@bufbuild/protobuf/wkt";
import { cosmosTendermint } from "@perpx/proto";
import { chainFacts, type NodeConnection } from "../connection.js";
import { QueryError } from "../errors.js";
import { checkParams } from "../messages/validate.js";
import type { CallOptions } from "../transport/call.js";
import type { CometRpc } from "../transport/rpc-json.js";
import { pickQueryTransport, type QueryOptions, rpcRead, unaryQuery } from "./unary.js";

/**
 * The latest committed block's height and time.
 * @example
 * ```ts
 * const { height, time, chainId }: LatestBlock = await getLatestBlock(client);
 * ```
 */
export interface LatestBlock {
  height: bigint;
  time: Date;
  chainId: string;
}

/**
 * The latest block's height and time: from RPC `status` when configured, else gRPC `GetLatestBlock`.
 * @param client - the node client (from `createNodeClient`).
 * @param options - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the latest block's height, time and chain id.
 * @example
 * ```ts
 * const { height, time } = await getLatestBlock(client);
 * ```
 */
export async function getLatestBlock(
  client: NodeConnection,
  options: QueryOptions = {},
): Promise<LatestBlock> {
  checkParams(options, "getLatestBlock", true);
  const transport = options.transport ?? (client.rpc ? "rpc" : pickQueryTransport(client));
  if (transport === "rpc") {
    const status = async (comet: CometRpc): Promise<LatestBlock> => {
      const { syncInfo, nodeInfo } = await comet.status();
      const time = new Date(syncInfo.latestBlockTime.getTime());
      return { height: BigInt(syncInfo.latestBlockHeight), time, chainId: nodeInfo.network };
    };
    return rpcRead(client, "status", status, options);
  }
  const response = await unaryQuery(client, {
    ...options,
    transport,
    method: cosmosTendermint.Service.method.getLatestBlock,
    request: {},
  });
  const header = response.sdkBlock?.header ?? response.block?.header;
  const path = "/cosmos.base.tendermint.v1beta1.Service/GetLatestBlock";
  if (!header?.time) throw new QueryError({ path, transport: "grpc", log: "no header" });
  return { height: header.height, time: timestampDate(header.time), chainId: header.chainId };
}

/**
 * The chain id: the client's (given or from its network preset), else read from the node once and cached.
 * @param client - the node client (from `createNodeClient`).
 * @param options - `CallOptions`, with the call options.
 * @returns the chain id.
 * @example
 * ```ts
 * await getChainId(client); // "perpx-local-1"
 * ```
 */
export async function getChainId(client: NodeConnection, options: CallOptions = {}): Promise<string> {
  checkParams(options, "getChainId", true);
  const known = chainFacts(client);
  if (known.chainId) return known.chainId;
  const { chainId } = await getLatestBlock(client, options);
  known.chainId = chainId;
  return chainId;
}

/**
 * The genesis document, as `/genesis` prints it.
 * @example
 * ```ts
 * const { chain_id, app_state }: GenesisDoc = await getGenesis(client);
 * ```
 */
export interface GenesisDoc {
  /** RFC 3339 time of the first block. */
  genesis_time: string;
  chain_id: string;
  /** The first height, a decimal string. */
  initial_height: string;
  consensus_params?: unknown;
  validators?: unknown[];
  /** The app hash, hex. */
  app_hash?: string;
  /** The application's genesis state, module by module. */
  app_state: Record<string, unknown>;
}

/**
 * The genesis document (`GET {node_rpc_url}/genesis` -> `result.genesis`). RPC only.
 * @param client - the node client (from `createNodeClient`).
 * @param options - `CallOptions`, with the call options.
 * @returns the genesis document (RPC only).
 * @example
 * ```ts
 * (await getGenesis(client)).chain_id; // "perpx-local-1"
 * ```
 */
export async function getGenesis(client: NodeConnection, options: CallOptions = {}): Promise<GenesisDoc> {
  checkParams(options, "getGenesis", true);
  return ((await rpcRead(client, "genesis", {}, options)) as { genesis: GenesisDoc }).genesis;
}

/**
 * A peer of the node, as `net_info` reports it.
 * @example
 * ```ts
 * const [first]: Peer[] = await getPeers(client);
 * ```
 */
export interface Peer {
  /** The peer's node id (hex). */
  id: string;
  /** The peer's IP as the node sees it. */
  remoteIp: string;
  /** The peer's P2P port: from its listen address, else 26656. */
  port: number;
  moniker: string;
  /** `id@ip:port`, ready for `persistent_peers`. */
  address: string;
}

/**
 * The default CometBFT P2P port.
 * @example
 * ```ts
 * DEFAULT_P2P_PORT; // 26656
 * ```
 */
export const DEFAULT_P2P_PORT = 26656;

type NetPeer = { node_info?: { id?: string; listen_addr?: string; moniker?: string }; remote_ip?: string };

/**
 * The node's peers (`GET {node_rpc_url}/net_info` -> `result.peers[]`). RPC only.
 * @param client - the node client (from `createNodeClient`).
 * @param options - `CallOptions`, with the call options.
 * @returns the node's peers (RPC only).
 * @example
 * ```ts
 * const peers = await getPeers(client);
 * peers.every((peer) => /^[0-9a-f]{40}@/.test(peer.address)); // true: node id @ host:port
 * ```
 */
export async function getPeers(client: NodeConnection, options: CallOptions = {}): Promise<Peer[]> {
  checkParams(options, "getPeers", true);
  const result = (await rpcRead(client, "net_info", {}, options)) as { peers?: NetPeer[] };
  return (result.peers ?? []).map((peer) => {
    const id = (peer.node_info?.id ?? "").toLowerCase();
    const remoteIp = peer.remote_ip ?? "";
    const listenPort = /:(\d+)$/.exec(peer.node_info?.listen_addr ?? "")?.[1];
    const port = listenPort ? Number(listenPort) : DEFAULT_P2P_PORT;
    const moniker = peer.node_info?.moniker ?? "";
    return { id, remoteIp, port, moniker, address: `${id}@${remoteIp}:${port}` };
  });
}
