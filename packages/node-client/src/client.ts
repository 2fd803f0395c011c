import { assertKnownKeys, type GasPrice, type Network, optionKeys, SHORT_BLOCK_WINDOW } from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";
import { platformTransports } from "#transport-platform";
import { type BroadcastMode, type NodeConnection, seedChainFacts } from "./connection.js";
import { checkParams } from "./messages/validate.js";
import { type NodeActions, nodeActions } from "./nodeActions.js";
import { getAccountSequence } from "./query/auth.js";
import { checkTimeout } from "./transport/call.js";
import type { GrpcInput, GrpcOptions } from "./transport/grpc-options.js";
import { openRest, type RestOptions } from "./transport/rest.js";
import type { RpcOptions } from "./transport/rpc-json.js";
import { SequenceManager } from "./tx/sequence.js";

/**
 * Options of {@link createNodeClient}. At least one transport is required.
 *
 * @example
 * ```ts
 * import { local } from "@perpx/core";
 *
 * const options: NodeClientOptions = { nodeRpc: "http://127.0.0.1:26657", network: local, timeoutMs: 5_000 };
 * ```
 */
export interface NodeClientOptions {
  /**
   * CometBFT RPC: `http(s)://` or `ws(s)://` URL, `{ url, fetch, headers }`, or `{ rpcClient }`.
   * @default undefined
   */
  nodeRpc?: RpcOptions;
  /**
   * Cosmos REST: URL or `{ url, fetch, headers }`.
   * @default undefined
   */
  nodeRest?: string | RestOptions;
  /**
   * gRPC: URL, `{ url, caCert, headers, interceptors }`, or an injected connect `Transport`.
   * @default undefined
   */
  grpc?: GrpcInput;
  /**
   * A network preset: chain id, gas prices, short-block window, upgrade history.
   * @default undefined (facts read from the node)
   */
  network?: Network;
  /**
   * The chain id.
   * @default network.chainId, else read from the node
   */
  chainId?: string;
  /**
   * Minimum gas prices per fee denom.
   * @default network.minimumGasPrices, else read from the node
   */
  gasPrices?: readonly GasPrice[];
  /**
   * Default per-call timeout, ms.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * Simulated gas is multiplied by this.
   * @default 1.6
   */
  gasMultiplier?: number;
  /**
   * Fee denom.
   * @default "uusdc"
   */
  feeDenom?: string;
  /**
   * Broadcast mode.
   * @default "commit"
   */
  broadcastMode?: BroadcastMode;
  /**
   * How long `commit` waits for inclusion, ms.
   * @default 60000
   */
  commitTimeoutMs?: number;
  /**
   * How often `commit` polls for the transaction, ms.
   * @default 500
   */
  pollIntervalMs?: number;
  /**
   * Sequences or timestamp nonces for stateful transactions.
   * @default "sequence"
   */
  nonceMode?: "sequence" | "timestamp";
  /**
   * Short-term order window, blocks.
   * @default network.shortBlockWindow, else 40 (core's SHORT_BLOCK_WINDOW)
   */
  shortBlockWindow?: number;
  /**
   * Added to the clock for timestamp nonces, ms.
   * @default 0
   */
  timestampOffsetMs?: number;
  /**
   * The clock for timestamp nonces (unix ms).
   * @default Date.now
   */
  now?: () => number;
}

const BROADCAST_MODES: readonly BroadcastMode[] = ["sync", "async", "commit"];
const OPTION_KEYS = optionKeys<NodeClientOptions>({
  nodeRpc: true,
  nodeRest: true,
  grpc: true,
  network: true,
  chainId: true,
  gasPrices: true,
  timeoutMs: true,
  gasMultiplier: true,
  feeDenom: true,
  broadcastMode: true,
  commitTimeoutMs: true,
  pollIntervalMs: true,
  nonceMode: true,
  shortBlockWindow: true,
  timestampOffsetMs: true,
  now: true,
});
const RPC_KEYS = optionKeys<Exclude<RpcOptions, string>>({
  url: true,
  headers: true,
  fetch: true,
  webSocket: true,
  rpcClient: true,
});
const REST_KEYS = optionKeys<RestOptions>({ url: true, headers: true, fetch: true });
const GRPC_KEYS = optionKeys<GrpcOptions>({
  url: true,
  protocol: true,
  caCert: true,
  headers: true,
  interceptors: true,
  fetch: true,
});

/** Refuses an option (or a transport's option) the client does not know, naming it. */
function checkOptionKeys(options: NodeClientOptions): void {
  assertKnownKeys(options, OPTION_KEYS, "createNodeClient");
  const { nodeRpc, nodeRest, grpc } = options;
  if (typeof nodeRpc === "object") assertKnownKeys(nodeRpc, RPC_KEYS, "createNodeClient", "nodeRpc");
  if (typeof nodeRest === "object") assertKnownKeys(nodeRest, REST_KEYS, "createNodeClient", "nodeRest");
  // An injected connect Transport has methods, not options.
  if (typeof grpc === "object" && grpc !== null && !("unary" in grpc)) {
    assertKnownKeys(grpc, GRPC_KEYS, "createNodeClient", "grpc");
  }
}

/**
 * A function that acts on a node: `action(client, params)`.
 *
 * @example
 * ```ts
 * const getHeight: NodeAction = async (client) => (await getLatestBlock(client)).height;
 * ```
 */
export type NodeAction = (client: NodeConnection, ...params: never[]) => unknown;

/**
 * The methods a table of actions gives a client: `action(client, params)` becomes `client.action(params)`.
 *
 * @example
 * ```ts
 * type Methods = BoundActions<{ getHeight: (client: NodeConnection) => Promise<bigint> }>; // { getHeight(): Promise<bigint> }
 * ```
 */
export type BoundActions<A> = {
  readonly [K in keyof A]: A[K] extends (client: NodeConnection, ...params: infer P) => infer R
    ? (...params: P) => R
    : never;
};

/**
 * A client of one perpx node: its connection (transports, defaults, sequences) and a method for
 * every action of {@link nodeActions}. `client.getBalances(p)` is `getBalances(client, p)`.
 *
 * @example
 * ```ts
 * import { local } from "@perpx/core";
 *
 * const node = createNodeClient({ nodeRpc: process.env.PERPX_NODE_RPC_URL ?? "http://127.0.0.1:26657", network: local });
 * const balances = await node.getBalances({ address: wallet.address });
 * balances.some((coin) => coin.denom === "uusdc"); // true
 * node.close();
 * ```
 */
export type NodeClient = NodeConnection &
  BoundActions<NodeActions> & {
    /** Closes every transport: no socket, timer or listener stays behind. */
    close(): void;
    /**
     * A client with more actions: your own `action(client, params)` functions become methods too.
     *
     * @example
     * ```ts
     * const mine = client.extend({ getHeight: async (c: NodeConnection) => (await getLatestBlock(c)).height });
     * await mine.getHeight();
     * ```
     */
    extend<A extends Record<string, NodeAction>>(actions: A): NodeClient & BoundActions<A>;
  };

function bindActions<T extends NodeConnection, A extends Record<string, NodeAction>>(
  client: T,
  actions: A,
): T & BoundActions<A> {
  const bound = client as T & Record<string, unknown>;
  for (const [name, action] of Object.entries(actions)) {
    Object.defineProperty(bound, name, {
      value: (...params: never[]) => action(client, ...params),
      enumerable: true,
    });
  }
  return bound as T & BoundActions<A>;
}

function openConnection(options: NodeClientOptions): NodeConnection & { close(): void } {
  checkParams(options, "createNodeClient");
  checkOptionKeys(options);
  if (!options.nodeRpc && !options.nodeRest && !options.grpc) {
    throw new InvalidArgumentError("options", "configure at least one of nodeRpc, nodeRest and grpc");
  }
  const broadcastMode = options.broadcastMode ?? "commit";
  if (!BROADCAST_MODES.includes(broadcastMode)) {
    throw new InvalidArgumentError(
      "broadcastMode",
      `must be sync, async or commit, got ${String(broadcastMode)}`,
    );
  }
  const nonceMode = options.nonceMode ?? "sequence";
  if (nonceMode !== "sequence" && nonceMode !== "timestamp") {
    throw new InvalidArgumentError("nonceMode", `must be sequence or timestamp, got ${String(nonceMode)}`);
  }
  const gasMultiplier = options.gasMultiplier ?? 1.6;
  if (!Number.isFinite(gasMultiplier) || gasMultiplier <= 0) {
    throw new InvalidArgumentError(
      "gasMultiplier",
      `must be a positive number, got ${String(gasMultiplier)}`,
    );
  }
  const shortBlockWindow =
    options.shortBlockWindow ?? options.network?.shortBlockWindow ?? SHORT_BLOCK_WINDOW;
  if (!Number.isInteger(shortBlockWindow) || shortBlockWindow <= 0) {
    throw new InvalidArgumentError(
      "shortBlockWindow",
      `must be a positive integer, got ${String(shortBlockWindow)}`,
    );
  }
  const timeoutMs = checkTimeout(options.timeoutMs ?? 10_000);
  const txDefaults = Object.freeze({
    gasMultiplier,
    feeDenom: options.feeDenom ?? "uusdc",
    broadcastMode,
    commitTimeoutMs: checkTimeout(options.commitTimeoutMs ?? 60_000, "commitTimeoutMs"),
    pollIntervalMs: checkTimeout(options.pollIntervalMs ?? 500, "pollIntervalMs"),
    nonceMode,
    shortBlockWindow,
  });
  const rpc = options.nodeRpc ? platformTransports.openRpc(options.nodeRpc) : undefined;
  const rest = options.nodeRest ? openRest(options.nodeRest) : undefined;
  const grpc = options.grpc ? platformTransports.openGrpc(options.grpc) : undefined;
  const connection: NodeConnection & { close(): void } = {
    rpc,
    rest,
    grpc,
    timeoutMs,
    network: options.network,
    txDefaults,
    sequences: new SequenceManager({
      fetchAccount: (address) => getAccountSequence(connection, { address }),
      ...(options.now ? { now: options.now } : {}),
      ...(options.timestampOffsetMs === undefined ? {} : { timestampOffsetMs: options.timestampOffsetMs }),
    }),
    close() {
      rpc?.close();
      grpc?.close();
    },
  };
  seedChainFacts(connection, {
    chainId: options.chainId ?? options.network?.chainId,
    gasPrices: options.gasPrices ?? options.network?.minimumGasPrices,
  });
  return connection;
}

function clientOf<A extends Record<string, NodeAction>>(
  connection: NodeConnection & { close(): void },
  actions: A,
): NodeClient & BoundActions<A> {
  const client = bindActions({ ...connection }, { ...nodeActions, ...actions }) as unknown as NodeClient &
    BoundActions<A>;
  Object.defineProperty(client, "extend", {
    value: <B extends Record<string, NodeAction>>(more: B) => clientOf(connection, { ...actions, ...more }),
  });
  return client;
}

/**
 * Creates a node client. Nothing is dialled or loaded until the first call: each transport's
 * library loads on its first use, and the chain id and gas prices are read once when needed.
 *
 * @param options - see `NodeClientOptions`: each option is documented there, with its default.
 * @returns the client: every query and transaction action bound to these options, plus `close()`;
 *   nothing is connected until its first call.
 * @throws {InvalidArgumentError} without any transport, or for a bad option.
 *
 * @example
 * ```ts
 * import { local } from "@perpx/core";
 *
 * const client = createNodeClient({ nodeRpc: process.env.PERPX_NODE_RPC_URL ?? "http://127.0.0.1:26657", network: local });
 * await client.getChainId(); // "perpx-local-1"
 * client.close();
 * ```
 */
export function createNodeClient(options: NodeClientOptions): NodeClient {
  return clientOf(openConnection(options), {});
}
