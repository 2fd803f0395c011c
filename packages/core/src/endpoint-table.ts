import { deepFreeze } from "./freeze.js";

/**
 * The names of the endpoints a network can have (see {@link ENDPOINT_VARIABLES} for what each is
 * for, its environment variable and whether a network needs it).
 *
 * @example
 * ```ts
 * const name: EndpointName = "indexerWs";
 * ```
 */
export type EndpointName =
  | "nodeRpc"
  | "nodeRest"
  | "grpc"
  | "evmRpc"
  | "evmWs"
  | "indexer"
  | "indexerWs"
  | "faucet"
  | "mcp"
  | "explorer"
  | "devnetControl"
  | "sourceL1Rpc"
  | "sourceL2Rpc";

/**
 * Endpoint URLs by name. URLs are bases, without a trailing slash.
 *
 * @example
 * ```ts
 * const endpoints: Partial<Endpoints> = { nodeRpc: "https://rpc.example.com", indexer: "https://indexer.example.com" };
 * ```
 */
export type Endpoints = Record<EndpointName, string>;

/**
 * One row of {@link ENDPOINT_VARIABLES}: how an endpoint is configured and what it is for.
 *
 * @example
 * ```ts
 * const row: EndpointVariable = ENDPOINT_VARIABLES.nodeRpc;
 * row.envVar; // "PERPX_NODE_RPC_URL"
 * ```
 */
export interface EndpointVariable {
  /** The environment variable that configures the endpoint, e.g. `"PERPX_NODE_RPC_URL"`. */
  readonly envVar: string;
  /** Whether a trading bot needs it on every network (the rest are optional). */
  readonly required: boolean;
  /** What the endpoint is for, in one line. */
  readonly purpose: string;
  /** The URL schemes it accepts, e.g. `["http:", "https:"]`. */
  readonly schemes: readonly string[];
  /** The specification's placeholder for it, or `"perpx only"`. */
  readonly specPlaceholder: string;
}

const HTTP = ["http:", "https:"] as const;
const WS = ["ws:", "wss:"] as const;

/**
 * The one table of endpoints: for each, its environment variable, whether it is required, what it
 * is for and its URL schemes. Required endpoints are what a trading bot cannot do without (the node
 * to sign and broadcast, the indexer and its socket for the book, fills, orders and the account);
 * everything else is optional and only the features that use it need it. The `.env` templates
 * ({@link envTemplate}), the devnet's `--print-env` and the READMEs' variable names all come from
 * here.
 *
 * @example
 * ```ts
 * ENDPOINT_VARIABLES.indexer.required; // true
 * ENDPOINT_VARIABLES.faucet.envVar; // "PERPX_FAUCET_URL"
 * ```
 */
export const ENDPOINT_VARIABLES: Readonly<Record<EndpointName, EndpointVariable>> =
  /* @__PURE__ */ deepFreeze({
    nodeRpc: {
      envVar: "PERPX_NODE_RPC_URL",
      required: true,
      purpose: "CometBFT JSON-RPC of a node (HTTP; WebSocket at /websocket): sign, broadcast, follow blocks",
      schemes: HTTP,
      specPlaceholder: "{node_rpc_url}",
    },
    nodeRest: {
      envVar: "PERPX_NODE_REST_URL",
      required: false,
      purpose: "Cosmos REST of a node: queries (grpc-web also rides on it)",
      schemes: HTTP,
      specPlaceholder: "{node_rest_url}",
    },
    grpc: {
      envVar: "PERPX_GRPC_URL",
      required: false,
      purpose: "gRPC of a node (https:// with TLS on mainnet and testnet; http:// is h2c, the devnet's)",
      schemes: HTTP,
      specPlaceholder: "{grpc_host}",
    },
    evmRpc: {
      envVar: "PERPX_EVM_RPC_URL",
      required: false,
      purpose: "EVM JSON-RPC over HTTP: EVM wallets and wrapped USDC",
      schemes: HTTP,
      specPlaceholder: "{evm_rpc_url}",
    },
    evmWs: {
      envVar: "PERPX_EVM_WS_URL",
      required: false,
      purpose: "EVM JSON-RPC over WebSocket: EVM subscriptions",
      schemes: WS,
      specPlaceholder: "{evm_ws_url}",
    },
    indexer: {
      envVar: "PERPX_INDEXER_URL",
      required: true,
      purpose: "indexer REST (/v4/... below it): markets, the account, fills, orders, candles",
      schemes: HTTP,
      specPlaceholder: "{indexer_url}",
    },
    indexerWs: {
      envVar: "PERPX_INDEXER_WS_URL",
      required: true,
      purpose: "indexer WebSocket (socket at /v4/ws below it): live book, trades, fills and account",
      schemes: WS,
      specPlaceholder: "{indexer_ws_url}",
    },
    faucet: {
      envVar: "PERPX_FAUCET_URL",
      required: false,
      purpose: "faucet (POST /faucet/tokens below it): test USDC; testnet and the devnet only",
      schemes: HTTP,
      specPlaceholder: "{faucet_url}",
    },
    mcp: {
      envVar: "PERPX_MCP_URL",
      required: false,
      purpose: "agent (MCP) server (/mcp below it)",
      schemes: HTTP,
      specPlaceholder: "{mcp_url}",
    },
    explorer: {
      envVar: "PERPX_EXPLORER_URL",
      required: false,
      purpose: "block explorer: links to transactions and accounts",
      schemes: HTTP,
      specPlaceholder: "{explorer_url}",
    },
    devnetControl: {
      envVar: "PERPX_DEVNET_CONTROL_URL",
      required: false,
      purpose: "the local devnet's control server (/devnet/...): prices, blocks, approve-agent; devnet only",
      schemes: HTTP,
      specPlaceholder: "perpx only",
    },
    sourceL1Rpc: {
      envVar: "PERPX_SOURCE_L1_RPC_URL",
      required: false,
      purpose: "JSON-RPC of the bridge's L1 source chain: bridge deposits from it",
      schemes: HTTP,
      specPlaceholder: "perpx only",
    },
    sourceL2Rpc: {
      envVar: "PERPX_SOURCE_L2_RPC_URL",
      required: false,
      purpose: "JSON-RPC of the bridge's L2 source chain: bridge deposits from it",
      schemes: HTTP,
      specPlaceholder: "perpx only",
    },
  });

/**
 * The endpoint names, in the table's order.
 *
 * @example
 * ```ts
 * for (const name of ENDPOINT_NAMES) console.log(name, ENDPOINT_ENV_VARS[name]);
 * ```
 */
export const ENDPOINT_NAMES: readonly EndpointName[] = /* @__PURE__ */ deepFreeze(
  Object.keys(ENDPOINT_VARIABLES) as EndpointName[],
);

/**
 * The environment variable that configures each endpoint (the `envVar` column of
 * {@link ENDPOINT_VARIABLES}).
 *
 * @example
 * ```ts
 * ENDPOINT_ENV_VARS.indexerWs; // "PERPX_INDEXER_WS_URL"
 * ```
 */
export const ENDPOINT_ENV_VARS: Readonly<Record<EndpointName, string>> = /* @__PURE__ */ deepFreeze(
  Object.fromEntries(ENDPOINT_NAMES.map((name) => [name, ENDPOINT_VARIABLES[name].envVar])) as Record<
    EndpointName,
    string
  >,
);

/**
 * The environment variable that picks the network preset when the caller does not.
 *
 * @example
 * ```ts
 * resolveNetwork({ env: { [NETWORK_ENV_VAR]: "testnet" } }).network.name; // "testnet"
 * ```
 */
export const NETWORK_ENV_VAR = "PERPX_NETWORK";

/**
 * One row of {@link OTHER_ENV_VARS}: a documented variable that is not an endpoint.
 *
 * @example
 * ```ts
 * const row: OtherEnvVar = OTHER_ENV_VARS.PERPX_NETWORK;
 * row.inTemplate; // true
 * ```
 */
export interface OtherEnvVar {
  /** What the variable is for and who reads it, in one line. */
  readonly purpose: string;
  /** Whether the per-network `.env` templates ({@link envTemplate}) list it. */
  readonly inTemplate: boolean;
}

/**
 * The one table of the documented environment variables that are not endpoints (the endpoints'
 * are {@link ENDPOINT_VARIABLES}). No README names a `PERPX_*` variable outside the two tables.
 *
 * @example
 * ```ts
 * Object.keys(OTHER_ENV_VARS).includes("PERPX_GRPC_CA"); // true
 * ```
 */
export const OTHER_ENV_VARS: Readonly<Record<string, OtherEnvVar>> = /* @__PURE__ */ deepFreeze({
  [NETWORK_ENV_VAR]: {
    purpose: "the network preset: mainnet, testnet or local (the devnet); default local",
    inTemplate: true,
  },
  PERPX_GRPC_CA: {
    purpose:
      "PEM of the CA that signed the gRPC endpoint's certificate, when it is no system CA (the devnet's caPem)",
    inTemplate: true,
  },
  PERPX_MNEMONIC: {
    purpose:
      "24 words of the wallet the examples and the quick start trade with (a secret: keep it out of git)",
    inTemplate: true,
  },
  PERPX_EVM_MNEMONIC: {
    purpose: "24 words of the EVM wallet the bridge-deposit example spends from (a secret)",
    inTemplate: false,
  },
  PERPX_MCP_OAUTH_SECRET: {
    purpose: "perpx-mcp in OAuth mode: the key (32+ characters) that encrypts the trading keys it stores",
    inTemplate: false,
  },
  PERPX_APPROVE_AGENT_URL: {
    purpose: "perpx-mcp in OAuth mode off a devnet: the approve-agent service that registers trading keys",
    inTemplate: false,
  },
  PERPX_MNEMONIC_0: { purpose: "docs runner: the devnet's test account 0 (public keys)", inTemplate: false },
  PERPX_MNEMONIC_1: { purpose: "docs runner: the devnet's test account 1 (public keys)", inTemplate: false },
  PERPX_MNEMONIC_2: { purpose: "docs runner: the devnet's test account 2 (public keys)", inTemplate: false },
  PERPX_MNEMONIC_3: { purpose: "docs runner: the devnet's test account 3 (public keys)", inTemplate: false },
});
