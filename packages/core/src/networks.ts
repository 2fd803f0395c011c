import { DEFAULT_PREFIX, VALOPER_PREFIX } from "@perpx/address";
import type { Endpoints } from "./endpoint-table.js";
import { UnknownNetworkError } from "./errors.js";
import { deepFreeze } from "./freeze.js";
import {
  LATEST_VERSION,
  MAINNET_UPGRADES,
  TESTNET_UPGRADES,
  type Upgrade,
  type UpgradeHistory,
} from "./upgrades.js";

/**
 * The names of the network presets.
 *
 * @example
 * ```ts
 * const name: NetworkName = "testnet";
 * ```
 */
export type NetworkName = "mainnet" | "testnet" | "local";

/**
 * The preset names, in the order they are listed in errors and docs.
 *
 * @example
 * ```ts
 * NETWORK_NAMES.includes("local"); // true
 * ```
 */
export const NETWORK_NAMES: readonly NetworkName[] = /* @__PURE__ */ deepFreeze([
  "mainnet",
  "testnet",
  "local",
]);

/**
 * A bank denom and how to show it.
 *
 * @example
 * ```ts
 * const usdc: Denom = { denom: "uusdc", decimals: 6, symbol: "USDC" };
 * ```
 */
export interface Denom {
  /** The bank denom, e.g. `"aperpx"`. */
  readonly denom: string;
  /** Decimals between the base unit and the display unit (1 display unit = 10^decimals base units). */
  readonly decimals: number;
  /** The display symbol, e.g. `"PERPX"`. */
  readonly symbol: string;
}

/**
 * A fee denom and its minimum gas price, an exact decimal string of base units per unit of gas.
 *
 * @example
 * ```ts
 * const price: GasPrice = { denom: "uusdc", amount: "0.025" };
 * ```
 */
export interface GasPrice {
  /** The fee denom. */
  readonly denom: string;
  /** Minimum price of one unit of gas in base units of `denom`, as an exact decimal string. */
  readonly amount: string;
}

/**
 * The native token's bank denom.
 *
 * @example
 * ```ts
 * NATIVE_DENOM; // "aperpx"
 * ```
 */
export const NATIVE_DENOM = "aperpx";
/**
 * Decimals of the native token (1 PERPX = 10^18 aperpx), on chain and on the EVM side.
 *
 * @example
 * ```ts
 * 10n ** BigInt(NATIVE_DECIMALS); // 1 PERPX in aperpx
 * ```
 */
export const NATIVE_DECIMALS = 18;
/**
 * The native token's display symbol.
 *
 * @example
 * ```ts
 * NATIVE_SYMBOL; // "PERPX"
 * ```
 */
export const NATIVE_SYMBOL = "PERPX";
/**
 * USDC's bank denom (collateral; 1 uusdc = 10^-6 USDC = 1 quote quantum).
 *
 * @example
 * ```ts
 * USDC_DENOM; // "uusdc"
 * ```
 */
export const USDC_DENOM = "uusdc";
/**
 * Decimals of USDC.
 *
 * @example
 * ```ts
 * USDC_DECIMALS; // 6
 * ```
 */
export const USDC_DECIMALS = 6;
/**
 * The asset id of USDC in the assets module (the quote asset of every perpetual).
 *
 * @example
 * ```ts
 * USDC_ASSET_ID; // 0
 * ```
 */
export const USDC_ASSET_ID = 0;
/**
 * Atomic resolution of the quote asset (USDC): one quote quantum is 10^-6 USDC.
 *
 * @example
 * ```ts
 * QUOTE_ATOMIC_RESOLUTION; // -6
 * ```
 */
export const QUOTE_ATOMIC_RESOLUTION = -6;

/**
 * Minimum gas prices of the specification, per fee denom, on both networks.
 *
 * @example
 * ```ts
 * MINIMUM_GAS_PRICES; // [{ denom: "aperpx", amount: "25000000000" }, { denom: "uusdc", amount: "0.025" }]
 * ```
 */
export const MINIMUM_GAS_PRICES: readonly GasPrice[] = /* @__PURE__ */ deepFreeze([
  { denom: NATIVE_DENOM, amount: "25000000000" },
  { denom: USDC_DENOM, amount: "0.025" },
]);

/**
 * Short-term orders: `goodTilBlock` may be at most this many blocks above the next height (the
 * chain's `ShortBlockWindow`: 40 since the v9.5 line, 20 before).
 *
 * @example
 * ```ts
 * const latestHeight = 1_000;
 * const maxGoodTilBlock = latestHeight + 1 + SHORT_BLOCK_WINDOW;
 * maxGoodTilBlock; // 1_041
 * ```
 */
export const SHORT_BLOCK_WINDOW = 40;
/**
 * Stateful orders: `goodTilBlockTime` may be at most this many seconds (95 days) after the previous
 * block's time.
 *
 * @example
 * ```ts
 * STATEFUL_ORDER_TIME_WINDOW_SECONDS === 95 * 24 * 60 * 60; // true
 * ```
 */
export const STATEFUL_ORDER_TIME_WINDOW_SECONDS = 95 * 24 * 60 * 60;
/**
 * Nodes take a state-sync snapshot every this many blocks.
 *
 * @example
 * ```ts
 * const height = 12_345;
 * height - (height % STATE_SYNC_SNAPSHOT_INTERVAL_BLOCKS); // 12_000
 * ```
 */
export const STATE_SYNC_SNAPSHOT_INTERVAL_BLOCKS = 2000;
/**
 * The indexer protocol version; feed channels are prefixed `v4_`.
 *
 * @example
 * ```ts
 * `${INDEXER_PROTOCOL_VERSION}_orderbook`; // "v4_orderbook"
 * ```
 */
export const INDEXER_PROTOCOL_VERSION = "v4";
/**
 * The path of the indexer WebSocket below `{indexer_ws_url}`.
 *
 * @example
 * ```ts
 * const url = `ws://127.0.0.1:3003${INDEXER_WS_PATH}`;
 * url; // "ws://127.0.0.1:3003/v4/ws"
 * ```
 */
export const INDEXER_WS_PATH = "/v4/ws";

/**
 * The path of the CometBFT JSON-RPC WebSocket below `{node_rpc_url}`.
 *
 * @example
 * ```ts
 * `ws://127.0.0.1:26657${NODE_RPC_WEBSOCKET_PATH}`; // "ws://127.0.0.1:26657/websocket"
 * ```
 */
export const NODE_RPC_WEBSOCKET_PATH = "/websocket";
/**
 * The faucet's request path below `{faucet_url}` (`POST`, JSON body `{ "address": ... }`).
 *
 * @example
 * ```ts
 * `http://127.0.0.1:8000${FAUCET_TOKENS_PATH}`; // "http://127.0.0.1:8000/faucet/tokens"
 * ```
 */
export const FAUCET_TOKENS_PATH = "/faucet/tokens";
/**
 * The agent (MCP) server's Streamable HTTP path below `{mcp_url}`.
 *
 * @example
 * ```ts
 * `https://mcp.example.com${MCP_PATH}`; // "https://mcp.example.com/mcp"
 * ```
 */
export const MCP_PATH = "/mcp";

/**
 * One EVM source chain of the bridge: where USDC deposits come from. The bridge contract address is
 * the same on both source chains; the USDC token is each chain's canonical one.
 *
 * @example
 * ```ts
 * import { testnet } from "@perpx/core";
 *
 * testnet.bridgeSources?.l1.evmChainId; // 11155111 (Sepolia)
 * ```
 */
export interface BridgeSourceChain {
  /** The chain's name, e.g. `"sepolia"`. */
  readonly name: string;
  /** Its EIP-155 chain id. */
  readonly evmChainId: number;
  /** The bridge contract (holds deposited USDC), EIP-55. */
  readonly bridgeAddress: `0x${string}`;
  /** The canonical USDC token, EIP-55. */
  readonly usdcAddress: `0x${string}`;
}

const MAINNET_BRIDGE = "0xe41b8078924F72986B82C17fAD16Ac073729a8B5";
const TESTNET_BRIDGE = "0x241f803e6C1d2dd0E13F4c099A9E641E8Df11b27";
const LOCAL_BRIDGE = "0xD51a4e63634a3df727518Be0b664E9a6B29f9320";
const SEPOLIA_USDC = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238";
const ARBITRUM_SEPOLIA_USDC = "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d";

/**
 * A network preset: every constant of the specification for one network, plus default endpoints
 * (only the local devnet has any; mainnet and testnet endpoints come from the caller or the
 * environment, see {@link resolveNetwork}).
 *
 * @example
 * ```ts
 * import { testnet } from "@perpx/core";
 *
 * testnet.chainId; // "perpx-testnet-1"
 * testnet.evmChainId; // 202006
 * ```
 */
export interface Network extends UpgradeHistory {
  /** The preset's name. */
  readonly name: NetworkName;
  /** The Cosmos chain id. */
  readonly chainId: string;
  /** The EVM chain id (EIP-155). */
  readonly evmChainId: number;
  /** The EVM chain id as `eth_chainId` returns it, e.g. `"0x1b570"`. */
  readonly evmChainIdHex: `0x${string}`;
  /** The EVM native currency, shaped as viem's `Chain["nativeCurrency"]`. */
  readonly evmNativeCurrency: { readonly name: string; readonly symbol: string; readonly decimals: number };
  /** Bech32 prefix of account addresses (`perpx1...`). */
  readonly bech32Prefix: string;
  /** Bech32 prefix of validator operator addresses (`perpxvaloper1...`). */
  readonly valoperPrefix: string;
  /** The native token (`aperpx`, 18 decimals, PERPX). */
  readonly nativeToken: Denom;
  /** USDC, the collateral (`uusdc`, 6 decimals), asset id 0. */
  readonly usdc: Denom & { readonly assetId: number };
  /** The fee denoms and their minimum gas prices. */
  readonly minimumGasPrices: readonly GasPrice[];
  /** Applied upgrades, oldest first. */
  readonly upgrades: readonly Upgrade[];
  /** The version the chain ran from its first block, when known (the local devnet's). */
  readonly genesisVersion?: string | undefined;
  /** The version running now: the last upgrade's, or the genesis version. */
  readonly latestVersion: string;
  /** See {@link SHORT_BLOCK_WINDOW}. */
  readonly shortBlockWindow: number;
  /** See {@link STATEFUL_ORDER_TIME_WINDOW_SECONDS}. */
  readonly statefulOrderTimeWindowSeconds: number;
  /** See {@link STATE_SYNC_SNAPSHOT_INTERVAL_BLOCKS}. */
  readonly stateSyncSnapshotIntervalBlocks: number;
  /** See {@link INDEXER_PROTOCOL_VERSION}. */
  readonly indexerProtocolVersion: string;
  /** See {@link INDEXER_WS_PATH}. */
  readonly indexerWsPath: string;
  /** Whether the network has a faucet (testnet and the local devnet). */
  readonly hasFaucet: boolean;
  /** Endpoints used when neither the caller nor the environment gives one. */
  readonly defaultEndpoints: Readonly<Partial<Endpoints>>;
  /** The bridge's EVM source chains (an L1 and an L2); every preset has them. */
  readonly bridgeSources?: { readonly l1: BridgeSourceChain; readonly l2: BridgeSourceChain } | undefined;
}

function preset(
  fields: Pick<
    Network,
    "name" | "chainId" | "evmChainId" | "upgrades" | "hasFaucet" | "defaultEndpoints" | "bridgeSources"
  > & {
    genesisVersion?: string;
  },
): Network {
  const last = fields.upgrades.at(-1)?.version;
  return deepFreeze({
    ...fields,
    evmChainIdHex: `0x${fields.evmChainId.toString(16)}`,
    evmNativeCurrency: { name: NATIVE_SYMBOL, symbol: NATIVE_SYMBOL, decimals: NATIVE_DECIMALS },
    bech32Prefix: DEFAULT_PREFIX,
    valoperPrefix: VALOPER_PREFIX,
    nativeToken: { denom: NATIVE_DENOM, decimals: NATIVE_DECIMALS, symbol: NATIVE_SYMBOL },
    usdc: { denom: USDC_DENOM, decimals: USDC_DECIMALS, symbol: "USDC", assetId: USDC_ASSET_ID },
    minimumGasPrices: MINIMUM_GAS_PRICES,
    latestVersion: last ?? fields.genesisVersion ?? LATEST_VERSION,
    shortBlockWindow: SHORT_BLOCK_WINDOW,
    statefulOrderTimeWindowSeconds: STATEFUL_ORDER_TIME_WINDOW_SECONDS,
    stateSyncSnapshotIntervalBlocks: STATE_SYNC_SNAPSHOT_INTERVAL_BLOCKS,
    indexerProtocolVersion: INDEXER_PROTOCOL_VERSION,
    indexerWsPath: INDEXER_WS_PATH,
  });
}

/**
 * The mainnet preset (`perpx-mainnet-1`, EVM chain id 111984). It has no default endpoints.
 *
 * @example
 * ```ts
 * import { mainnet, resolveNetwork } from "@perpx/core";
 *
 * const config = resolveNetwork({ network: mainnet, endpoints: { nodeRpc: "https://rpc.example.com" } });
 * ```
 */
export const mainnet: Network = /* @__PURE__ */ preset({
  name: "mainnet",
  chainId: "perpx-mainnet-1",
  evmChainId: 111984,
  upgrades: MAINNET_UPGRADES,
  hasFaucet: false,
  defaultEndpoints: {},
  bridgeSources: {
    l1: {
      name: "ethereum",
      evmChainId: 1,
      bridgeAddress: MAINNET_BRIDGE,
      usdcAddress: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
    },
    l2: {
      name: "arbitrum",
      evmChainId: 42161,
      bridgeAddress: MAINNET_BRIDGE,
      usdcAddress: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
    },
  },
});

/**
 * The testnet preset (`perpx-testnet-1`, EVM chain id 202006). It has no default endpoints.
 *
 * @example
 * ```ts
 * import { resolveNetwork, testnet } from "@perpx/core";
 *
 * const config = resolveNetwork({ network: testnet, env: process.env });
 * ```
 */
export const testnet: Network = /* @__PURE__ */ preset({
  name: "testnet",
  chainId: "perpx-testnet-1",
  evmChainId: 202006,
  upgrades: TESTNET_UPGRADES,
  hasFaucet: true,
  defaultEndpoints: {},
  bridgeSources: {
    l1: { name: "sepolia", evmChainId: 11155111, bridgeAddress: TESTNET_BRIDGE, usdcAddress: SEPOLIA_USDC },
    l2: {
      name: "arbitrum-sepolia",
      evmChainId: 421614,
      bridgeAddress: TESTNET_BRIDGE,
      usdcAddress: ARBITRUM_SEPOLIA_USDC,
    },
  },
});

const LOCALHOST = "127.0.0.1";

/**
 * The local devnet preset (`perpx-local-1`, EVM chain id 31337), pointing at the devnet's default
 * ports on 127.0.0.1. It has no upgrade history and runs {@link LATEST_VERSION} from its first block.
 *
 * @example
 * ```ts
 * import { getEndpoint, local, resolveNetwork } from "@perpx/core";
 *
 * getEndpoint(resolveNetwork({ network: local }), "nodeRpc"); // "http://127.0.0.1:26657"
 * ```
 */
export const local: Network = /* @__PURE__ */ preset({
  name: "local",
  chainId: "perpx-local-1",
  evmChainId: 31337,
  upgrades: [],
  genesisVersion: LATEST_VERSION,
  hasFaucet: true,
  defaultEndpoints: {
    nodeRpc: `http://${LOCALHOST}:26657`,
    nodeRest: `http://${LOCALHOST}:1317`,
    grpc: `http://${LOCALHOST}:9090`,
    evmRpc: `http://${LOCALHOST}:8545`,
    evmWs: `ws://${LOCALHOST}:8546`,
    indexer: `http://${LOCALHOST}:3002`,
    indexerWs: `ws://${LOCALHOST}:3003`,
    faucet: `http://${LOCALHOST}:8000`,
    devnetControl: `http://${LOCALHOST}:26659`,
    sourceL1Rpc: `http://${LOCALHOST}:8547`,
    sourceL2Rpc: `http://${LOCALHOST}:8548`,
  },
  bridgeSources: {
    l1: { name: "sepolia", evmChainId: 11155111, bridgeAddress: LOCAL_BRIDGE, usdcAddress: SEPOLIA_USDC },
    l2: {
      name: "arbitrum-sepolia",
      evmChainId: 421614,
      bridgeAddress: LOCAL_BRIDGE,
      usdcAddress: ARBITRUM_SEPOLIA_USDC,
    },
  },
});

/**
 * Every preset by name.
 *
 * @example
 * ```ts
 * NETWORKS.testnet.chainId; // "perpx-testnet-1"
 * ```
 */
export const NETWORKS: Readonly<Record<NetworkName, Network>> = /* @__PURE__ */ deepFreeze({
  mainnet,
  testnet,
  local,
});

/**
 * True when `name` is the name of a preset.
 *
 * @param name - the name to check; any value is accepted.
 * @returns `true` for `mainnet`, `testnet` or `local`, narrowing `name` to a {@link NetworkName}.
 * @example
 * ```ts
 * isNetworkName("testnet"); // true
 * isNetworkName("devnet"); // false
 * ```
 */
export function isNetworkName(name: unknown): name is NetworkName {
  return typeof name === "string" && (NETWORK_NAMES as readonly string[]).includes(name);
}

/**
 * Looks up a preset by name.
 *
 * @param name - `"mainnet"`, `"testnet"` or `"local"`.
 * @param source - where the name came from (e.g. `"PERPX_NETWORK"`), shown in the error.
 * @returns the preset.
 * @throws {UnknownNetworkError} when there is no preset of that name.
 *
 * @example
 * ```ts
 * getNetwork("mainnet").evmChainIdHex; // "0x1b570"
 * ```
 */
export function getNetwork(name: string, source?: string): Network {
  if (isNetworkName(name)) return NETWORKS[name];
  throw new UnknownNetworkError(String(name), NETWORK_NAMES, source);
}

/**
 * Finds the preset whose chain id is `chainId`.
 *
 * @param chainId - a Cosmos chain id, e.g. `"perpx-testnet-1"`.
 * @returns the preset, or `undefined` when none has that chain id.
 *
 * @example
 * ```ts
 * networkByChainId("perpx-local-1")?.name; // "local"
 * ```
 */
export function networkByChainId(chainId: string): Network | undefined {
  return NETWORK_NAMES.map((name) => NETWORKS[name]).find((network) => network.chainId === chainId);
}
