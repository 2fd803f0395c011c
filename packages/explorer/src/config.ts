/**
 * What the explorer page is told about its network (`/config.json`): the chain, and the endpoints
 * its clients talk to, resolved from `@perpx/core`'s network presets.
 */
import {
  type EndpointName,
  type Env,
  getEndpoint,
  indexerSocketUrl,
  type NetworkName,
  resolveNetwork,
} from "@perpx/core";

/**
 * The network the page explores: served as `/config.json`.
 *
 * @example
 * ```ts
 * const config: ExplorerConfig = explorerConfig({ network: "local" });
 * config.chainId; // "perpx-local-1"
 * ```
 */
export interface ExplorerConfig {
  /** The preset's name. */
  readonly network: string;
  /** The chain id of the preset. */
  readonly chainId: string;
  /** The endpoints the page uses. */
  readonly endpoints: {
    /** CometBFT RPC over HTTP. */
    readonly nodeRpc: string;
    /** Cosmos REST (and gRPC-web). */
    readonly nodeRest: string;
    /** Indexer REST. */
    readonly indexer: string;
    /** The full indexer WebSocket URL (with `/v4/ws`). */
    readonly indexerWs: string;
  };
}

/**
 * Options of {@link explorerConfig}.
 *
 * @example
 * ```ts
 * const options: ExplorerConfigOptions = { network: "testnet", env: { PERPX_NODE_RPC_URL: "https://rpc.example" } };
 * ```
 */
export interface ExplorerConfigOptions {
  /** The network preset. */
  readonly network: NetworkName;
  /** Endpoints given explicitly; they win over `env` and the preset. */
  readonly endpoints?: Readonly<Partial<Record<EndpointName, string>>>;
  /** Where `PERPX_*_URL` variables are read from. @default {} */
  readonly env?: Env;
}

/**
 * The page's configuration for a network: its chain id and its node RPC, node REST, indexer REST
 * and indexer WebSocket endpoints.
 *
 * @param options - the network preset, and endpoints given explicitly or through `env`.
 * @returns the preset's name and chain id, and the four endpoints the page talks to.
 * @throws {MissingEndpointError} naming the endpoint and its environment variable when the preset
 *   has no default for it (testnet and mainnet) and none is given.
 * @throws {InvalidArgumentError} for an endpoint that is not a valid URL of its kind.
 *
 * @example
 * ```ts
 * explorerConfig({ network: "local" }).endpoints.indexerWs; // "ws://127.0.0.1:3003/v4/ws"
 * ```
 */
export function explorerConfig(options: ExplorerConfigOptions): ExplorerConfig {
  const resolved = resolveNetwork({
    network: options.network,
    endpoints: options.endpoints ?? {},
    env: options.env ?? {},
  });
  return {
    network: resolved.network.name,
    chainId: resolved.network.chainId,
    endpoints: {
      nodeRpc: getEndpoint(resolved, "nodeRpc"),
      nodeRest: getEndpoint(resolved, "nodeRest"),
      indexer: getEndpoint(resolved, "indexer"),
      indexerWs: indexerSocketUrl(resolved),
    },
  };
}
