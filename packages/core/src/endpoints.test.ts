import { InvalidArgumentError, isInvalidArgumentError } from "@perpx/errors";
import { afterEach, describe, expect, it } from "vitest";
import { ENDPOINT_ENV_VARS, ENDPOINT_NAMES } from "./endpoint-table.js";
import { getEndpoint, indexerSocketUrl, resolveNetwork, validateEndpointUrl } from "./endpoints.js";
import { isMissingEndpointError, MissingEndpointError, UnknownNetworkError } from "./errors.js";
import { local, mainnet, testnet } from "./networks.js";

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("ENDPOINT_ENV_VARS", () => {
  it("names the environment variable of every endpoint", () => {
    expect(ENDPOINT_ENV_VARS).toEqual({
      nodeRpc: "PERPX_NODE_RPC_URL",
      nodeRest: "PERPX_NODE_REST_URL",
      grpc: "PERPX_GRPC_URL",
      evmRpc: "PERPX_EVM_RPC_URL",
      evmWs: "PERPX_EVM_WS_URL",
      indexer: "PERPX_INDEXER_URL",
      indexerWs: "PERPX_INDEXER_WS_URL",
      faucet: "PERPX_FAUCET_URL",
      mcp: "PERPX_MCP_URL",
      explorer: "PERPX_EXPLORER_URL",
      devnetControl: "PERPX_DEVNET_CONTROL_URL",
      sourceL1Rpc: "PERPX_SOURCE_L1_RPC_URL",
      sourceL2Rpc: "PERPX_SOURCE_L2_RPC_URL",
    });
    expect([...ENDPOINT_NAMES].sort()).toEqual(Object.keys(ENDPOINT_ENV_VARS).sort());
  });
});

describe("resolveNetwork: the network", () => {
  it("defaults to local when neither the option nor PERPX_NETWORK is given", () => {
    expect(resolveNetwork().network).toBe(local);
    expect(resolveNetwork({ env: {} }).network).toBe(local);
    expect(resolveNetwork({ env: { PERPX_NETWORK: "" } }).network).toBe(local);
  });

  it("takes PERPX_NETWORK from env when the option is not given", () => {
    expect(resolveNetwork({ env: { PERPX_NETWORK: "testnet" } }).network).toBe(testnet);
    expect(resolveNetwork({ env: { PERPX_NETWORK: " mainnet " } }).network).toBe(mainnet);
  });

  it("prefers the option over PERPX_NETWORK", () => {
    expect(resolveNetwork({ network: "mainnet", env: { PERPX_NETWORK: "testnet" } }).network).toBe(mainnet);
    expect(resolveNetwork({ network: testnet, env: { PERPX_NETWORK: "mainnet" } }).network).toBe(testnet);
  });

  it("throws UnknownNetworkError naming where a bad name came from", () => {
    const fromEnv = thrown(() => resolveNetwork({ env: { PERPX_NETWORK: "moonnet" } }));
    expect(fromEnv).toBeInstanceOf(UnknownNetworkError);
    expect((fromEnv as Error).message).toContain("PERPX_NETWORK");
    const fromOption = thrown(() => resolveNetwork({ network: "moonnet" as "mainnet" }));
    expect((fromOption as Error).message).toContain("options.network");
  });
});

describe("resolveNetwork: endpoints", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("uses the local preset's defaults", () => {
    const config = resolveNetwork({ network: "local" });
    expect(getEndpoint(config, "nodeRpc")).toBe("http://127.0.0.1:26657");
    expect(getEndpoint(config, "nodeRest")).toBe("http://127.0.0.1:1317");
    expect(getEndpoint(config, "grpc")).toBe("http://127.0.0.1:9090");
    expect(getEndpoint(config, "evmRpc")).toBe("http://127.0.0.1:8545");
    expect(getEndpoint(config, "evmWs")).toBe("ws://127.0.0.1:8546");
    expect(getEndpoint(config, "indexer")).toBe("http://127.0.0.1:3002");
    expect(getEndpoint(config, "indexerWs")).toBe("ws://127.0.0.1:3003");
    expect(getEndpoint(config, "faucet")).toBe("http://127.0.0.1:8000");
    expect(getEndpoint(config, "devnetControl")).toBe("http://127.0.0.1:26659");
  });

  it("reads every endpoint from its environment variable", () => {
    const env = Object.fromEntries(
      ENDPOINT_NAMES.map((name) => [
        ENDPOINT_ENV_VARS[name],
        name === "evmWs" || name === "indexerWs"
          ? `wss://${name}.example.com`
          : `https://${name}.example.com/`,
      ]),
    );
    const config = resolveNetwork({ network: "testnet", env });
    for (const name of ENDPOINT_NAMES) {
      const scheme = name === "evmWs" || name === "indexerWs" ? "wss" : "https";
      expect(getEndpoint(config, name)).toBe(`${scheme}://${name}.example.com`);
    }
  });

  it("prefers the caller's endpoints over the environment and the preset", () => {
    const config = resolveNetwork({
      network: "local",
      endpoints: { nodeRpc: "http://10.0.0.1:26657", indexer: new URL("http://10.0.0.2:3002/") },
      env: { PERPX_NODE_RPC_URL: "http://10.0.0.9:26657", PERPX_NODE_REST_URL: "http://10.0.0.3:1317" },
    });
    expect(getEndpoint(config, "nodeRpc")).toBe("http://10.0.0.1:26657");
    expect(getEndpoint(config, "indexer")).toBe("http://10.0.0.2:3002");
    expect(getEndpoint(config, "nodeRest")).toBe("http://10.0.0.3:1317");
    expect(getEndpoint(config, "grpc")).toBe("http://127.0.0.1:9090");
  });

  it("treats undefined and empty values as not given", () => {
    const config = resolveNetwork({
      network: "local",
      endpoints: { nodeRpc: undefined, nodeRest: "" },
      env: { PERPX_NODE_RPC_URL: "", PERPX_NODE_REST_URL: "  " },
    });
    expect(getEndpoint(config, "nodeRpc")).toBe("http://127.0.0.1:26657");
    expect(getEndpoint(config, "nodeRest")).toBe("http://127.0.0.1:1317");
  });

  it("never reads process.env itself (env defaults to {})", () => {
    process.env.PERPX_NETWORK = "testnet";
    process.env.PERPX_INDEXER_URL = "https://from-process-env.example.com";
    const config = resolveNetwork({ network: "mainnet" });
    expect(config.endpoints.indexer).toBeUndefined();
    expect(resolveNetwork().network).toBe(local);
  });

  it("keeps query strings and keeps the result frozen", () => {
    const config = resolveNetwork({
      network: "mainnet",
      endpoints: { evmRpc: "https://rpc.example.com/v1/?key=abc" },
    });
    expect(getEndpoint(config, "evmRpc")).toBe("https://rpc.example.com/v1/?key=abc");
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.endpoints)).toBe(true);
  });
});

describe("getEndpoint", () => {
  it("throws MissingEndpointError naming the endpoint, its variable and the network", () => {
    const config = resolveNetwork({ network: "mainnet", env: {} });
    const error = thrown(() => getEndpoint(config, "indexer"));
    expect(error).toBeInstanceOf(MissingEndpointError);
    expect(isMissingEndpointError(error)).toBe(true);
    const missing = error as MissingEndpointError;
    expect(missing.code).toBe("MISSING_ENDPOINT");
    expect(missing.endpoint).toBe("indexer");
    expect(missing.envVar).toBe("PERPX_INDEXER_URL");
    expect(missing.network).toBe("mainnet");
    expect(missing.message).toContain("indexer");
    expect(missing.message).toContain("PERPX_INDEXER_URL");
  });

  it("has no MCP or explorer endpoint on the local devnet", () => {
    const config = resolveNetwork({ network: "local" });
    expect(() => getEndpoint(config, "mcp")).toThrow(/PERPX_MCP_URL/);
    expect(() => getEndpoint(config, "explorer")).toThrow(/PERPX_EXPLORER_URL/);
  });
});

describe("resolveNetwork: requireEndpoints", () => {
  it("refuses testnet with nothing set in one error naming every missing endpoint and its variable", () => {
    const error = thrown(() =>
      resolveNetwork({ env: { PERPX_NETWORK: "testnet" }, requireEndpoints: true }),
    ) as MissingEndpointError;
    expect(isMissingEndpointError(error)).toBe(true);
    expect(error.network).toBe("testnet");
    expect(error.missing.map((m) => m.endpoint)).toEqual(ENDPOINT_NAMES);
    expect(error.missing.filter((m) => m.required).map((m) => m.envVar)).toEqual([
      "PERPX_NODE_RPC_URL",
      "PERPX_INDEXER_URL",
      "PERPX_INDEXER_WS_URL",
    ]);
    for (const name of ENDPOINT_NAMES) expect(error.message).toContain(ENDPOINT_ENV_VARS[name]);
    expect(error.message).toMatch(/Required, set each: PERPX_NODE_RPC_URL \(nodeRpc\), PERPX_INDEXER_URL/);
    expect(error.message).toMatch(/Optional, not set: PERPX_NODE_REST_URL \(nodeRest\)/);
  });

  it("passes once the required endpoints are set, and lists only what is still missing", () => {
    const env = {
      PERPX_NETWORK: "testnet",
      PERPX_NODE_RPC_URL: "https://rpc.example.com",
      PERPX_INDEXER_URL: "https://indexer.example.com",
    };
    const error = thrown(() => resolveNetwork({ env, requireEndpoints: true })) as MissingEndpointError;
    expect(error.missing.filter((m) => m.required).map((m) => m.endpoint)).toEqual(["indexerWs"]);
    expect(error.endpoint).toBe("indexerWs");
    const config = resolveNetwork({
      env: { ...env, PERPX_INDEXER_WS_URL: "wss://indexer.example.com" },
      requireEndpoints: true,
    });
    expect(config.endpoints.nodeRpc).toBe("https://rpc.example.com");
    expect(resolveNetwork({ network: "local", requireEndpoints: true }).network.name).toBe("local");
  });
});

describe("URL validation", () => {
  it.each([
    ["nodeRpc", "not a url"],
    ["nodeRpc", "ws://127.0.0.1:26657"],
    ["indexerWs", "https://indexer.example.com"],
    ["evmWs", "http://127.0.0.1:8546"],
    ["grpc", "grpc.example.com:443"],
    ["faucet", "http://faucet.example.com/#x"],
    ["indexer", "ftp://indexer.example.com"],
  ] as const)("refuses %s = %s, naming the option", (name, url) => {
    const error = thrown(() => resolveNetwork({ network: "mainnet", endpoints: { [name]: url } }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe(`endpoints.${name}`);
  });

  it("names the environment variable of a bad URL from the environment", () => {
    const error = thrown(() =>
      resolveNetwork({ network: "testnet", env: { PERPX_EVM_WS_URL: "https://evm.example" } }),
    );
    expect(isInvalidArgumentError(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe("PERPX_EVM_WS_URL");
    expect((error as Error).message).toContain("ws or wss");
  });

  it("hides a password in the URL it reports", () => {
    const error = thrown(() => validateEndpointUrl("evmWs", "https://user:s3cret@evm.example.com"));
    expect((error as Error).message).not.toContain("s3cret");
  });

  it("strips trailing slashes", () => {
    expect(validateEndpointUrl("nodeRest", "http://127.0.0.1:1317///")).toBe("http://127.0.0.1:1317");
    expect(validateEndpointUrl("nodeRest", "https://api.example.com/rest/")).toBe(
      "https://api.example.com/rest",
    );
  });
});

describe("indexerSocketUrl", () => {
  it("appends /v4/ws to the indexer WebSocket base", () => {
    expect(indexerSocketUrl(resolveNetwork({ network: "local" }))).toBe("ws://127.0.0.1:3003/v4/ws");
    const prefixed = resolveNetwork({
      network: "mainnet",
      endpoints: { indexerWs: "wss://indexer.example.com/api" },
    });
    expect(indexerSocketUrl(prefixed)).toBe("wss://indexer.example.com/api/v4/ws");
  });

  it("does not repeat /v4/ws when the base already ends with it", () => {
    const config = resolveNetwork({
      network: "mainnet",
      endpoints: { indexerWs: "wss://indexer.example.com/v4/ws" },
    });
    expect(indexerSocketUrl(config)).toBe("wss://indexer.example.com/v4/ws");
  });

  it("throws MissingEndpointError when the base is not configured", () => {
    expect(() => indexerSocketUrl(resolveNetwork({ network: "testnet" }))).toThrow(MissingEndpointError);
  });
});
