/**
 * The browser build's module graph, run in Node against a devnet: `#transport-platform` and
 * `#crypto-platform` resolve to their browser sides here (as a bundler does under the `browser`
 * condition), so RPC goes over `fetch` / a standard `WebSocket`, gRPC over gRPC-web on the API port,
 * and hashing and signing through noble.
 */
import { createServer, type Server } from "node:net";
import { isTimeoutError } from "@perpx/core";
import { type Devnet, startDevnet } from "@perpx/devnet";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import {
  createNodeClient,
  isBroadcastTxError,
  isQueryError,
  isTransportError,
  type NodeClientOptions,
} from "../src/index.js";
import { queryActions } from "../src/queries.js";
import { createCometRpc } from "../src/transport/comet-json.js";
import { FetchRpcClient } from "../src/transport/rpc-json.js";
import { bankSendMsg, JsonRpcError, type WebSocketConstructor, WebSocketRpcClient } from "../src/tx.js";
import { LocalWallet } from "../src/wallets.js";

vi.mock("#transport-platform", () => import("../src/transport/platform-browser.js"));
vi.mock("#crypto-platform", () => import("../src/crypto/platform-browser.js"));

const net = {} as { devnet: Devnet };
beforeAll(async () => {
  net.devnet = await startDevnet({ ports: "free", blockTimeMs: 50, faucetWindowMs: 0 });
});
afterAll(async () => {
  await net.devnet?.stop();
});
const webSocket = WebSocket as unknown as WebSocketConstructor;

function webClient(overrides: { [K in keyof NodeClientOptions]?: NodeClientOptions[K] | undefined } = {}) {
  const options = {
    nodeRpc: net.devnet.endpoints.nodeRpc,
    grpc: net.devnet.endpoints.nodeRest,
    chainId: "perpx-local-1",
    pollIntervalMs: 25,
    commitTimeoutMs: 20_000,
    ...overrides,
  };
  return createNodeClient(
    Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as NodeClientOptions,
  ).extend(queryActions);
}

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
  silent?.close();
});

describe("the browser graph in Node", () => {
  it("refuses what a browser cannot do: gRPC over HTTP/2 and a custom CA", () => {
    expect(() => webClient({ grpc: { url: net.devnet.endpoints.grpc, protocol: "grpc" } })).toThrow(
      /grpc-web/,
    );
    expect(() =>
      webClient({ grpc: { url: net.devnet.endpoints.grpcTls, caCert: net.devnet.caPem } }),
    ).toThrow(/certificate authorities/);
  });

  it("signs with noble: a wallet from a mnemonic has the js backend and the devnet's address", () => {
    const wallet = LocalWallet.fromMnemonic(net.devnet.accounts[0]!.mnemonic);
    expect(wallet.signerBackend).toBe("js");
    expect(wallet.address).toBe(net.devnet.accounts[0]!.address);
  });

  it("reads the chain over fetch RPC and gRPC-web, and the two agree", async () => {
    const client = webClient();
    const latest = await client.getLatestBlock();
    expect(latest.chainId).toBe("perpx-local-1");
    expect(latest.height).toBeGreaterThan(0n);
    const address = net.devnet.accounts[0]!.address;
    const overGrpcWeb = await client.getBalance({ address, denom: "uusdc", transport: "grpc" });
    const overRpc = await client.getBalance({ address, denom: "uusdc", transport: "rpc" });
    expect(overGrpcWeb.amount).toBeGreaterThan(0n);
    expect(overRpc.amount).toBe(overGrpcWeb.amount);
    const pairs = await client.getClobPairs();
    expect(pairs.length).toBeGreaterThan(0);
    const metadata = pairs[0]!.metadata;
    expect(metadata.case).toBe("perpetualClobMetadata");
    const perpetualId = metadata.case === "perpetualClobMetadata" ? metadata.value.perpetualId : -1;
    const perpetual = await client.getPerpetual({ id: perpetualId });
    expect(perpetual.params?.ticker).toMatch(/-USD$/);
  });

  it("sends, waits for and finds a transaction: broadcast and tx over fetch RPC, search over both", async () => {
    const client = webClient();
    const [from, to] = [
      LocalWallet.fromMnemonic(net.devnet.accounts[3]!.mnemonic),
      net.devnet.accounts[4]!.address,
    ];
    const before = (await client.getBalance({ address: to, denom: "uusdc" })).amount;
    const sent = await client.bankSend({
      signer: from,
      from: from.address,
      to,
      amount: [{ denom: "uusdc", amount: 7n }],
    });
    expect(sent.tx?.code).toBe(0);
    expect((await client.getBalance({ address: to, denom: "uusdc" })).amount).toBe(before + 7n);
    const found = await client.getTx({ hash: sent.hash, transport: "rpc" });
    expect(found?.height).toBe(sent.tx?.height);
    expect(found?.events.some((e) => e.type === "transfer")).toBe(true);
    const search = await client.searchTxs({ query: `tx.height=${found?.height}`, transport: "rpc" });
    expect(search.txs.map((t) => t.hash)).toContain(sent.hash);
    expect(await client.getTx({ hash: "AB".repeat(32), transport: "rpc" })).toBeUndefined();
  });

  it("answers a chain refusal with the same BroadcastTxError", async () => {
    const client = webClient();
    const poor = LocalWallet.fromMnemonic(net.devnet.accounts[2]!.mnemonic);
    const error = await client
      .sendTx({
        signer: poor,
        messages: [
          bankSendMsg({
            from: poor.address,
            to: net.devnet.accounts[1]!.address,
            amount: [{ denom: "uusdc", amount: 10n ** 30n }],
          }),
        ],
        gas: 200_000n,
      })
      .catch((e: unknown) => e);
    expect(isBroadcastTxError(error)).toBe(true);
  });

  it("gives the Node transports' typed errors: unreachable, silent, refused query", async () => {
    const down = webClient({ nodeRpc: "http://127.0.0.1:9", grpc: "http://127.0.0.1:9" });
    const rpcDown = await down.getLatestBlock().catch((e: unknown) => e);
    expect(isTransportError(rpcDown)).toBe(true);
    const grpcDown = await down
      .getBalance({ address: net.devnet.accounts[0]!.address, denom: "uusdc", transport: "grpc" })
      .catch((e: unknown) => e);
    expect(isTransportError(grpcDown)).toBe(true);
    const hung = webClient({ nodeRpc: silentUrl, grpc: silentUrl, timeoutMs: 300 });
    expect(isTimeoutError(await hung.getLatestBlock().catch((e: unknown) => e))).toBe(true);
    const refused = await webClient()
      .getClobPair({ id: 987_654, transport: "grpc" })
      .catch((e: unknown) => e);
    expect(isQueryError(refused)).toBe(true);
    expect((refused as { notFound?: boolean }).notFound).toBe(true);
  });
});

describe("CometBFT RPC over a standard WebSocket", () => {
  it("runs a client's queries over the socket, and close() ends it", async () => {
    const client = webClient({
      nodeRpc: { url: net.devnet.endpoints.nodeRpcWs, webSocket },
      grpc: undefined,
    });
    const latest = await client.getLatestBlock();
    expect(latest.chainId).toBe("perpx-local-1");
    const balance = await client.getBalance({ address: net.devnet.accounts[0]!.address, denom: "uusdc" });
    expect(balance.amount).toBeGreaterThan(0n);
    client.close();
  });

  it("subscribes to new blocks and unsubscribes; disconnect rejects what is pending and is final", async () => {
    const socket = new WebSocketRpcClient({
      url: net.devnet.endpoints.nodeRpc.replace(/^http/, "ws"),
      webSocket,
    });
    const heights: number[] = [];
    const stop = await socket.subscribe({
      query: "tm.event='NewBlock'",
      onEvent: (data) => {
        const value = (data as { value?: { block?: { header?: { height?: string } } } }).value;
        heights.push(Number(value?.block?.header?.height));
      },
    });
    await vi.waitFor(() => expect(heights.length).toBeGreaterThanOrEqual(2), {
      timeout: 20_000,
      interval: 50,
    });
    expect(heights[1]).toBeGreaterThan(heights[0]!);
    stop();
    const comet = createCometRpc(socket);
    expect((await comet.status()).nodeInfo.network).toBe("perpx-local-1");
    const pending = comet.status();
    socket.disconnect();
    await expect(pending).rejects.toSatisfy(isTransportError);
    await expect(comet.status()).rejects.toSatisfy(isTransportError);
    socket.disconnect();
  });

  it("refuses a bad query with a JsonRpcError, and an unreachable node with a TransportError", async () => {
    const socket = new WebSocketRpcClient({ url: net.devnet.endpoints.nodeRpcWs, webSocket });
    await expect(socket.subscribe({ query: "tm.event=", onEvent: () => {} })).rejects.toBeInstanceOf(
      JsonRpcError,
    );
    socket.disconnect();
    const down = new WebSocketRpcClient({ url: "ws://127.0.0.1:9", webSocket });
    await expect(createCometRpc(down).status()).rejects.toSatisfy(isTransportError);
  });

  it("rejects the pending calls of a socket the node drops, and reconnects on the next call", async () => {
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    let connections = 0;
    server.on("connection", (peer) => {
      connections++;
      peer.on("message", (data) => {
        const request = JSON.parse(String(data)) as { id: number };
        // The first connection dies mid-call; later ones answer.
        if (connections === 1) peer.terminate();
        else peer.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { ok: true } }));
      });
    });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const url = `ws://127.0.0.1:${(server.address() as { port: number }).port}`;
    const socket = new WebSocketRpcClient({ url, webSocket });
    const request = { jsonrpc: "2.0" as const, id: 1, method: "status", params: {} };
    const dropped = await socket.execute(request).catch((e: unknown) => e);
    expect(isTransportError(dropped)).toBe(true);
    expect((await socket.execute({ ...request, id: 2 })).result).toEqual({ ok: true });
    expect(connections).toBe(2);
    socket.disconnect();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("without a WebSocket constructor on the platform says what to pass", () => {
    expect(() => new WebSocketRpcClient({ url: "ws://127.0.0.1:26657" })).toThrow(/nodeRpc\.webSocket/);
  });
});

describe("CometBFT JSON decoding", () => {
  it("decodes status, abci_query and broadcast answers as the Node transport does", async () => {
    const comet = createCometRpc(new FetchRpcClient({ url: net.devnet.endpoints.nodeRpc }));
    const status = await comet.status();
    expect(status.syncInfo.latestBlockHeight).toBeGreaterThan(0);
    expect(Math.abs(status.syncInfo.latestBlockTime.getTime() - Date.now())).toBeLessThan(60_000);
    const unknown = await comet.abciQuery({ path: "/no.such.Query/Method", data: new Uint8Array() });
    expect(unknown.code).toBeGreaterThan(0);
    const junk = await comet.broadcastTxSync({ tx: new Uint8Array([1, 2, 3]) });
    expect(junk.code).toBeGreaterThan(0);
    expect(junk.hash.length).toBe(32);
  });
});
