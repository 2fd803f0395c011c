import { describe, expect, it } from "vitest";
import { isUnknownNetworkError, UnknownNetworkError } from "./errors.js";
import {
  FAUCET_TOKENS_PATH,
  getNetwork,
  INDEXER_PROTOCOL_VERSION,
  INDEXER_WS_PATH,
  isNetworkName,
  local,
  MCP_PATH,
  MINIMUM_GAS_PRICES,
  mainnet,
  NATIVE_DECIMALS,
  NATIVE_DENOM,
  NETWORKS,
  NODE_RPC_WEBSOCKET_PATH,
  networkByChainId,
  SHORT_BLOCK_WINDOW,
  STATE_SYNC_SNAPSHOT_INTERVAL_BLOCKS,
  STATEFUL_ORDER_TIME_WINDOW_SECONDS,
  testnet,
  USDC_ASSET_ID,
  USDC_DECIMALS,
  USDC_DENOM,
} from "./networks.js";
import { MAINNET_UPGRADES, TESTNET_UPGRADES } from "./upgrades.js";

describe("network presets", () => {
  it("carry the chain ids and EVM chain ids of the specification", () => {
    expect([mainnet.chainId, testnet.chainId, local.chainId]).toEqual([
      "perpx-mainnet-1",
      "perpx-testnet-1",
      "perpx-local-1",
    ]);
    expect(mainnet.evmChainId).toBe(111984);
    expect(mainnet.evmChainIdHex).toBe("0x1b570");
    expect(testnet.evmChainId).toBe(202006);
    expect(testnet.evmChainIdHex).toBe("0x31516");
    expect(local.evmChainId).toBe(31337);
    expect(local.evmChainIdHex).toBe("0x7a69");
  });

  it("carry the denoms, decimals, asset id and prefixes", () => {
    for (const network of [mainnet, testnet, local]) {
      expect(network.nativeToken).toEqual({ denom: "aperpx", decimals: 18, symbol: "PERPX" });
      expect(network.evmNativeCurrency).toEqual({ name: "PERPX", symbol: "PERPX", decimals: 18 });
      expect(network.usdc).toEqual({ denom: "uusdc", decimals: 6, symbol: "USDC", assetId: 0 });
      expect(network.bech32Prefix).toBe("perpx");
      expect(network.valoperPrefix).toBe("perpxvaloper");
    }
    expect([NATIVE_DENOM, NATIVE_DECIMALS, USDC_DENOM, USDC_DECIMALS, USDC_ASSET_ID]).toEqual([
      "aperpx",
      18,
      "uusdc",
      6,
      0,
    ]);
  });

  it("carry the minimum gas prices as exact decimal strings", () => {
    expect(MINIMUM_GAS_PRICES).toEqual([
      { denom: "aperpx", amount: "25000000000" },
      { denom: "uusdc", amount: "0.025" },
    ]);
    for (const network of [mainnet, testnet, local])
      expect(network.minimumGasPrices).toBe(MINIMUM_GAS_PRICES);
  });

  it("carry the windows, intervals and indexer protocol", () => {
    expect(SHORT_BLOCK_WINDOW).toBe(40);
    expect(STATEFUL_ORDER_TIME_WINDOW_SECONDS).toBe(95 * 86_400);
    expect(STATE_SYNC_SNAPSHOT_INTERVAL_BLOCKS).toBe(2000);
    expect(INDEXER_PROTOCOL_VERSION).toBe("v4");
    expect(INDEXER_WS_PATH).toBe("/v4/ws");
    expect([NODE_RPC_WEBSOCKET_PATH, FAUCET_TOKENS_PATH, MCP_PATH]).toEqual([
      "/websocket",
      "/faucet/tokens",
      "/mcp",
    ]);
    for (const network of [mainnet, testnet, local]) {
      expect(network.shortBlockWindow).toBe(40);
      expect(network.statefulOrderTimeWindowSeconds).toBe(8_208_000);
      expect(network.stateSyncSnapshotIntervalBlocks).toBe(2000);
      expect(network.indexerProtocolVersion).toBe("v4");
      expect(network.indexerWsPath).toBe("/v4/ws");
    }
  });

  it("carry the upgrade histories and latest version", () => {
    expect(mainnet.upgrades).toBe(MAINNET_UPGRADES);
    expect(testnet.upgrades).toBe(TESTNET_UPGRADES);
    expect(local.upgrades).toEqual([]);
    expect(mainnet.latestVersion).toBe("v27.5");
    expect(testnet.latestVersion).toBe("v27.5");
    expect(local.latestVersion).toBe("v27.5");
    expect(local.genesisVersion).toBe("v27.5");
    expect(mainnet.genesisVersion).toBeUndefined();
  });

  it("have default endpoints only on the local devnet, at its ports on 127.0.0.1", () => {
    expect(mainnet.defaultEndpoints).toEqual({});
    expect(testnet.defaultEndpoints).toEqual({});
    expect(local.defaultEndpoints).toEqual({
      nodeRpc: "http://127.0.0.1:26657",
      nodeRest: "http://127.0.0.1:1317",
      grpc: "http://127.0.0.1:9090",
      evmRpc: "http://127.0.0.1:8545",
      evmWs: "ws://127.0.0.1:8546",
      indexer: "http://127.0.0.1:3002",
      indexerWs: "ws://127.0.0.1:3003",
      faucet: "http://127.0.0.1:8000",
      devnetControl: "http://127.0.0.1:26659",
      sourceL1Rpc: "http://127.0.0.1:8547",
      sourceL2Rpc: "http://127.0.0.1:8548",
    });
    expect([mainnet.hasFaucet, testnet.hasFaucet, local.hasFaucet]).toEqual([false, true, true]);
  });

  it("are deeply frozen, so one user cannot change them for all", () => {
    expect(Object.isFrozen(mainnet)).toBe(true);
    expect(Object.isFrozen(mainnet.upgrades)).toBe(true);
    expect(Object.isFrozen(mainnet.upgrades[0])).toBe(true);
    expect(Object.isFrozen(local.defaultEndpoints)).toBe(true);
    expect(Object.isFrozen(MINIMUM_GAS_PRICES[0])).toBe(true);
    expect(() => {
      (mainnet as { chainId: string }).chainId = "x";
    }).toThrow(TypeError);
  });
});

describe("getNetwork", () => {
  it("returns presets by name", () => {
    expect(getNetwork("mainnet")).toBe(mainnet);
    expect(getNetwork("testnet")).toBe(testnet);
    expect(getNetwork("local")).toBe(local);
    expect(NETWORKS.local).toBe(local);
  });

  it("throws UnknownNetworkError naming the name, the known names and the source", () => {
    let caught: unknown;
    try {
      getNetwork("devnet", "PERPX_NETWORK");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnknownNetworkError);
    expect(isUnknownNetworkError(caught)).toBe(true);
    const error = caught as UnknownNetworkError;
    expect(error.code).toBe("UNKNOWN_NETWORK");
    expect(error.network).toBe("devnet");
    expect(error.known).toEqual(["mainnet", "testnet", "local"]);
    expect(error.message).toContain('"devnet"');
    expect(error.message).toContain("PERPX_NETWORK");
    expect(error.message).toContain("mainnet, testnet, local");
  });

  it("does not accept inherited property names", () => {
    expect(isNetworkName("toString")).toBe(false);
    expect(() => getNetwork("constructor")).toThrow(UnknownNetworkError);
  });
});

describe("networkByChainId", () => {
  it("finds presets by chain id", () => {
    expect(networkByChainId("perpx-mainnet-1")).toBe(mainnet);
    expect(networkByChainId("perpx-local-1")).toBe(local);
    expect(networkByChainId("cosmoshub-4")).toBeUndefined();
  });
});
