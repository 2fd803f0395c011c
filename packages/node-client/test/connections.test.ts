import { createServer, type Server } from "node:net";
import type { Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { isAbortedError, isInvalidArgumentError, isMissingEndpointError, isTimeoutError } from "@perpx/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import {
  createNodeClient,
  getBalances,
  getLatestBlock,
  isQueryError,
  isTransportError,
  type NodeConnection,
} from "../src/index.js";
import { getMinimumGasPrices, queryActions } from "../src/queries.js";
import { FetchRpcClient, type WebSocketConstructor, WebSocketRpcClient } from "../src/tx.js";
import { useDevnet } from "./support.js";

const net = useDevnet();

/** A TCP server that accepts connections and never answers. */
let silent: Server;
let silentUrl: string;
beforeAll(async () => {
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const address = silent.address();
  silentUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => {
  silent.close();
});

function countingFetch() {
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetchFn: typeof fetch = async (input, init) => {
    calls.push({ url: String(input), headers: Object.fromEntries(new Headers(init?.headers).entries()) });
    return fetch(input, init);
  };
  return { calls, fetchFn };
}

describe("CometBFT RPC", () => {
  it("works over HTTP with an injected fetch and extra headers", async () => {
    const { calls, fetchFn } = countingFetch();
    const client = createNodeClient({
      nodeRpc: { url: net.devnet.endpoints.nodeRpc, fetch: fetchFn, headers: { "x-api-key": "k1" } },
    });
    const balances = await client.getBalances({ address: net.wallets[0]!.address });
    expect(balances.find((b) => b.denom === "uusdc")?.amount).toBeGreaterThan(0n);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls[0]?.headers["x-api-key"]).toBe("k1");
  });

  it("works over WebSocket (with or without the /websocket suffix)", async () => {
    for (const url of [
      net.devnet.endpoints.nodeRpcWs,
      net.devnet.endpoints.nodeRpcWs.replace(/\/websocket$/, ""),
    ]) {
      const client = net.makeClient({ nodeRpc: url, nodeRest: undefined, grpc: undefined });
      const latest = await client.getLatestBlock();
      expect(latest.chainId).toBe("perpx-local-1");
      expect((await client.getBalances({ address: net.wallets[0]!.address })).length).toBeGreaterThan(0);
      client.close();
    }
  });

  it("with a WebSocket constructor given, runs over that socket; close() is final", async () => {
    const client = net.makeClient({
      nodeRpc: {
        url: net.devnet.endpoints.nodeRpcWs,
        webSocket: WebSocket as unknown as WebSocketConstructor,
      },
      nodeRest: undefined,
      grpc: undefined,
    });
    expect(client.rpc?.rpcClient).toBeInstanceOf(WebSocketRpcClient);
    expect((await client.getLatestBlock()).chainId).toBe("perpx-local-1");
    client.close();
    // A call after close() is refused: no fresh socket is dialled.
    await expect(client.getBalances({ address: net.wallets[0]!.address })).rejects.toSatisfy(
      isTransportError,
    );
  });

  it("accepts an injected JSON-RPC client", async () => {
    const { calls, fetchFn } = countingFetch();
    const rpcClient = new FetchRpcClient({ url: net.devnet.endpoints.nodeRpc, fetch: fetchFn });
    const client = createNodeClient({ nodeRpc: { rpcClient } });
    expect((await client.getLatestBlock()).height).toBeGreaterThan(0n);
    expect(calls).toHaveLength(1);
  });

  it("rejects a URL without a scheme", () => {
    expect(() => createNodeClient({ nodeRpc: "127.0.0.1:26657" })).toThrow(/http\(s\):\/\/ or ws\(s\):\/\//);
  });
});

describe("REST", () => {
  it("serves node facts with an injected fetch and headers", async () => {
    const { calls, fetchFn } = countingFetch();
    const client = createNodeClient({
      nodeRest: { url: `${net.devnet.endpoints.nodeRest}/`, fetch: fetchFn, headers: { "x-api-key": "k2" } },
    }).extend(queryActions);
    expect(await client.getMinimumGasPrices()).toEqual([
      { denom: "aperpx", amount: "25000000000" },
      { denom: "uusdc", amount: "0.025" },
    ]);
    expect(calls[0]?.url).toBe(`${net.devnet.endpoints.nodeRest}/cosmos/base/node/v1beta1/config`);
    expect(calls[0]?.headers["x-api-key"]).toBe("k2");
  });

  it("cannot carry module queries: they need gRPC or RPC", async () => {
    const client = createNodeClient({ nodeRest: net.devnet.endpoints.nodeRest });
    await expect(client.getBalances({ address: net.wallets[0]!.address })).rejects.toSatisfy(
      isMissingEndpointError,
    );
  });
});

describe("gRPC", () => {
  it("works over TLS with the devnet's CA and over h2c", async () => {
    for (const grpc of [
      { url: net.devnet.endpoints.grpcTls, caCert: net.devnet.caPem },
      net.devnet.endpoints.grpc,
    ]) {
      const client = createNodeClient({ grpc });
      expect((await client.getLatestBlock()).chainId).toBe("perpx-local-1");
    }
  });

  it("accepts the CA as bytes", async () => {
    const client = createNodeClient({
      grpc: { url: net.devnet.endpoints.grpcTls, caCert: new TextEncoder().encode(net.devnet.caPem) },
    }).extend(queryActions);
    expect((await client.getNodeInfo()).appVersion).toBe("v27.5");
  });

  it("refuses the self-signed certificate without the CA", async () => {
    const client = createNodeClient({ grpc: net.devnet.endpoints.grpcTls }).extend(queryActions);
    const error = await client.getNodeInfo().catch((e: unknown) => e);
    expect(isTransportError(error)).toBe(true);
  });

  it("speaks gRPC-web to the API port when asked, through the injected fetch with the headers", async () => {
    const { calls, fetchFn } = countingFetch();
    const client = createNodeClient({
      grpc: {
        url: net.devnet.endpoints.nodeRest,
        protocol: "grpc-web",
        fetch: fetchFn,
        headers: { "x-api-key": "k3" },
      },
    });
    const balance = await client.getBalance({ address: net.wallets[0]!.address, denom: "uusdc" });
    expect(balance.amount).toBeGreaterThan(0n);
    expect(calls[0]?.url).toBe(`${net.devnet.endpoints.nodeRest}/cosmos.bank.v1beta1.Query/Balance`);
    expect(calls[0]?.headers["content-type"]).toBe("application/grpc-web+proto");
    expect(calls[0]?.headers["x-api-key"]).toBe("k3");
    expect(() =>
      createNodeClient({ grpc: { url: net.devnet.endpoints.nodeRest, protocol: "h3" as "grpc" } }),
    ).toThrow(/grpc\.protocol/);
  });

  it("rejects a CA on a plaintext URL", () => {
    expect(() =>
      createNodeClient({ grpc: { url: net.devnet.endpoints.grpc, caCert: net.devnet.caPem } }),
    ).toThrow(/https/);
  });

  it("sends headers and runs interceptors", async () => {
    const seen: string[] = [];
    const interceptor: Interceptor = (next) => (request) => {
      seen.push(`${request.method.name}:${request.header.get("x-api-key")}`);
      return next(request);
    };
    const client = createNodeClient({
      grpc: { url: net.devnet.endpoints.grpc, headers: { "x-api-key": "k3" }, interceptors: [interceptor] },
    }).extend(queryActions);
    await client.getNodeInfo();
    expect(seen).toEqual(["GetNodeInfo:k3"]);
  });

  it("accepts an injected connect Transport", async () => {
    const seen: string[] = [];
    const transport = createGrpcTransport({
      baseUrl: net.devnet.endpoints.grpc,
      interceptors: [
        (next) => (req) => {
          seen.push(req.method.name);
          return next(req);
        },
      ],
    });
    const client = createNodeClient({ grpc: transport });
    await client.getBalances({ address: net.wallets[0]!.address });
    expect(seen).toEqual(["AllBalances"]);
  });
});

describe("transport choice", () => {
  it("queries over gRPC by default and over RPC abci_query without gRPC, or when asked", async () => {
    const { calls, fetchFn } = countingFetch();
    const grpcSeen: string[] = [];
    const client = createNodeClient({
      nodeRpc: { url: net.devnet.endpoints.nodeRpc, fetch: fetchFn },
      grpc: {
        url: net.devnet.endpoints.grpc,
        interceptors: [
          (next) => (r) => {
            grpcSeen.push(r.method.name);
            return next(r);
          },
        ],
      },
    });
    const address = net.wallets[0]!.address;
    const viaGrpc = await getBalances(client, { address });
    expect(grpcSeen).toEqual(["AllBalances"]);
    expect(calls).toHaveLength(0);
    const viaRpc = await getBalances(client, { address, transport: "rpc" });
    expect(calls).toHaveLength(1);
    expect(viaRpc).toEqual(viaGrpc);
    await expect(getMinimumGasPrices(client, { transport: "rest" })).rejects.toSatisfy(
      isMissingEndpointError,
    );
  });

  it("passes the query height: an older height answers that block's state, a future one an error", async () => {
    const client = net.client;
    const address = net.wallets[3]!.address;
    const before = await client.getLatestBlock();
    const then = await client.getBalance({ address, denom: "uusdc", height: before.height });
    await client.bankSend({
      signer: net.wallets[3]!,
      from: address,
      to: net.wallets[4]!.address,
      amount: [{ denom: "uusdc", amount: 7n }],
    });
    for (const transport of ["grpc", "rpc"] as const) {
      const now = await client.getBalance({ address, denom: "uusdc", transport });
      // The send and its fee came after `before.height`: that version still holds the old balance.
      expect(now.amount).toBeLessThanOrEqual(then.amount - 7n);
      const old = await client.getBalance({ address, denom: "uusdc", height: before.height, transport });
      expect(old.amount).toBe(then.amount);
      const future = await client
        .getBalance({ address, denom: "uusdc", height: before.height + 1_000_000n, transport })
        .catch((e: unknown) => e);
      expect(isQueryError(future)).toBe(true);
      expect((future as { log: string }).log).toContain("cannot query with height in the future");
    }
  });
});

describe("timeouts and cancellation", () => {
  const hangingFetch: typeof fetch = (_input, init) =>
    new Promise((_, reject) => {
      init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
    });

  it("times out per call, and by the client default", async () => {
    const client = createNodeClient({
      nodeRpc: { url: "http://127.0.0.1:9", fetch: hangingFetch },
      timeoutMs: 60,
    });
    const perCall = await getLatestBlock(client, { timeoutMs: 30 }).catch((e: unknown) => e);
    expect(isTimeoutError(perCall)).toBe(true);
    expect((perCall as { timeoutMs: number }).timeoutMs).toBe(30);
    const byDefault = await getLatestBlock(client).catch((e: unknown) => e);
    expect(isTimeoutError(byDefault)).toBe(true);
    // The fetch never answers: only the timeouts end these calls (a missing one hangs the test).
    expect((byDefault as { timeoutMs: number }).timeoutMs).toBe(60);
  });

  it("times out a gRPC call to a server that never answers", async () => {
    const client = createNodeClient({ grpc: silentUrl });
    const error = await client
      .getBalances({ address: net.wallets[0]!.address, timeoutMs: 100 })
      .catch((e: unknown) => e);
    expect(isTimeoutError(error)).toBe(true);
  });

  it("aborts through the AbortSignal (RPC, gRPC, REST)", async () => {
    const clients = [
      createNodeClient({ nodeRpc: { url: "http://127.0.0.1:9", fetch: hangingFetch } }).extend(queryActions),
      createNodeClient({ grpc: silentUrl }).extend(queryActions),
      createNodeClient({ nodeRest: { url: "http://127.0.0.1:9", fetch: hangingFetch } }).extend(queryActions),
    ];
    for (const client of clients) {
      const controller = new AbortController();
      const pending = client.getMinimumGasPrices({ signal: controller.signal }).catch((e: unknown) => e);
      setTimeout(() => controller.abort(new Error("user gave up")), 20);
      const error = await pending;
      expect(isAbortedError(error)).toBe(true);
    }
    const aborted = AbortSignal.abort();
    expect(
      isAbortedError(await clients[0]!.getLatestBlock({ signal: aborted }).catch((e: unknown) => e)),
    ).toBe(true);
  });

  it("reports an unreachable node as a TransportError", async () => {
    const client = createNodeClient({ nodeRpc: "http://127.0.0.1:9" });
    expect(isTransportError(await client.getLatestBlock().catch((e: unknown) => e))).toBe(true);
  });

  it("validates timeout options", () => {
    expect(() => createNodeClient({ nodeRpc: net.devnet.endpoints.nodeRpc, timeoutMs: 0 })).toThrow(
      /timeoutMs/,
    );
    expect(() => createNodeClient({ nodeRpc: net.devnet.endpoints.nodeRpc, commitTimeoutMs: -1 })).toThrow(
      /commitTimeoutMs/,
    );
  });
});

describe("createNodeClient", () => {
  it("reads the chain id from the node once, over RPC or REST", async () => {
    const client = createNodeClient({ nodeRpc: net.devnet.endpoints.nodeRpc });
    expect(await client.getChainId()).toBe("perpx-local-1");
    client.close();
    const viaGrpc = createNodeClient({
      grpc: { url: net.devnet.endpoints.grpcTls, caCert: net.devnet.caPem },
    });
    expect(await viaGrpc.getChainId()).toBe("perpx-local-1");
    viaGrpc.close();
  });

  it("dials nothing until the first call, and reports a node that does not answer then", async () => {
    const down = createNodeClient({ nodeRpc: "http://127.0.0.1:9", timeoutMs: 500 });
    expect(isTransportError(await down.getChainId().catch((e: unknown) => e))).toBe(true);
  });

  it("streams blocks only over a WebSocket RPC, in order, until stopped", async () => {
    const overHttp = createNodeClient({ nodeRpc: net.devnet.endpoints.nodeRpc }).extend(queryActions);
    expect(
      isInvalidArgumentError(await overHttp.watchBlocks({ onBlock: () => {} }).catch((e: unknown) => e)),
    ).toBe(true);
    const client = createNodeClient({ nodeRpc: net.devnet.endpoints.nodeRpcWs }).extend(queryActions);
    const heights: bigint[] = [];
    const stop = await client.watchBlocks({ onBlock: (block) => heights.push(block.height) });
    await vi.waitFor(() => expect(heights.length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    stop();
    expect(heights.slice(1).every((h, i) => h === heights[i]! + 1n)).toBe(true);
    // The socket still answers queries after the subscription ended.
    expect((await client.getLatestBlock()).height).toBeGreaterThanOrEqual(heights[0]!);
    client.close();
    const closed = await client.getLatestBlock().catch((e: unknown) => e);
    expect(isTransportError(closed)).toBe(true);
  });

  it("extends with actions of one's own, sharing the connection and its caches", async () => {
    const client = net.makeClient();
    const mine = client.extend({
      getHeight: async (c: NodeConnection) => (await getLatestBlock(c)).height,
    });
    expect(await mine.getHeight()).toBeGreaterThan(0n);
    expect(await mine.getChainId()).toBe("perpx-local-1");
    expect(mine.rpc).toBe(client.rpc);
    expect(mine.sequences).toBe(client.sequences);
  });

  it("needs at least one transport", () => {
    expect(() => createNodeClient({})).toThrow(/at least one/);
  });
});
