/**
 * What the servers do with abusive clients: oversize bodies and a multi-megabyte tx get a clear
 * answer in each server's own error shape; trickling, silent and idle connections are closed after
 * the configured timeouts (short ones here), while open WebSockets stay.
 */
import { connect as connectHttp2 } from "node:http2";
import { connect as connectTcp, type Socket } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { cosmosBank } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { GENESIS_ACCOUNTS } from "../app/genesis/genesis-accounts.js";
import { startDevnet } from "../devnet.js";
import type { Devnet } from "../devnet-options.js";

const TIMEOUTS = { headersMs: 300, requestMs: 600, keepAliveMs: 300, http2IdleMs: 500 };
let devnet: Devnet;

/** Runs the enclosing describe block's tests on a devnet of its own, with `timeouts` (default: the servers' own). */
function onDevnet(timeouts?: typeof TIMEOUTS): void {
  beforeAll(async () => {
    devnet = await startDevnet({ ports: "free", blockTimeMs: 0, ...(timeouts ? { timeouts } : {}) });
  });
  afterAll(async () => {
    await devnet.stop();
  });
}

async function post(url: string, body: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } });
  return { status: res.status, json: await res.json() };
}

/** Opens a TCP connection to `url`'s port; resolves with the socket and a promise of its close. */
async function socketTo(
  url: string,
): Promise<{ socket: Socket; closed: Promise<string>; received: () => string }> {
  const { hostname, port } = new URL(url);
  const socket = connectTcp(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  let received = "";
  socket.on("data", (d: Buffer) => {
    received += d.toString("latin1");
  });
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(received)));
  socket.on("error", () => undefined);
  return { socket, closed, received: () => received };
}

const serverUrls = () => ({
  rpc: devnet.endpoints.nodeRpc,
  rest: devnet.endpoints.nodeRest,
  evm: devnet.endpoints.evmRpc,
  evmWs: devnet.endpoints.evmWs.replace(/^ws/, "http"),
  faucet: devnet.endpoints.faucet,
  control: devnet.endpoints.devnetControl,
});

describe("oversize input", () => {
  // The servers' own timeouts: uploading 10 MB on a loaded machine can outlast the short ones below,
  // and the request timeout would then answer instead of the size check.
  onDevnet();
  it("refuses a 6 MB base64 tx on broadcast_tx_sync with the answer of CometBFT's max_body_bytes, and queues nothing", async () => {
    const tx = Buffer.alloc(4_600_000, 7).toString("base64");
    expect(tx.length).toBeGreaterThan(6_000_000);
    const answer = await post(
      devnet.endpoints.nodeRpc,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "broadcast_tx_sync", params: { tx } }),
    );
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message: "Invalid Request",
        data: "error reading request body: http: request body too large",
      },
    });
    expect(devnet.app.pendingTxCount()).toBe(0);
  });

  it("refuses a 9 MB gRPC message with ResourceExhausted, over h2c", async () => {
    const client = createClient(cosmosBank.Query, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
    const refused = await client.balance({ address: "x".repeat(9 * 1024 * 1024), denom: "uusdc" }).then(
      () => undefined,
      (error: unknown) => ConnectError.from(error),
    );
    expect(refused?.code).toBe(Code.ResourceExhausted);
    expect(refused?.rawMessage).toMatch(/message size .* is larger than configured readMaxBytes 8388608/);
  });

  it("answers a 10 MB body to the EVM port with 413 in the JSON-RPC error shape", async () => {
    const answer = await post(devnet.endpoints.evmRpc, "x".repeat(10 * 1024 * 1024));
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "request body exceeds 8388608 bytes" },
    });
    // The server still answers.
    const ok = await post(
      devnet.endpoints.evmRpc,
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "eth_chainId" }),
    );
    expect(ok.status).toBe(200);
  });
});

describe("server timeouts", () => {
  onDevnet(TIMEOUTS);
  it("closes an HTTP/1 client that trickles its body, on every HTTP/1 server, and keeps open WebSockets", async () => {
    const ws = new WebSocket(devnet.endpoints.nodeRpcWs);
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    const started = Date.now();
    const bodyRoutes = {
      rpc: `${devnet.endpoints.nodeRpc}/`,
      rest: `${devnet.endpoints.nodeRest}/cosmos/tx/v1beta1/txs`,
      evm: `${devnet.endpoints.evmRpc}/`,
      faucet: `${devnet.endpoints.faucet}/faucet/tokens`,
      control: `${devnet.endpoints.devnetControl}/devnet/fund`,
    };
    const trickles = await Promise.all(
      Object.entries(bodyRoutes).map(async ([name, url]) => {
        const c = await socketTo(url);
        c.socket.write(
          `POST ${new URL(url).pathname} HTTP/1.1\r\nHost: devnet\r\nContent-Length: 100000\r\n\r\n`,
        );
        const timer = setInterval(() => c.socket.writable && c.socket.write("x"), 50);
        const received = await c.closed;
        clearInterval(timer);
        return { name, received, ms: Date.now() - started };
      }),
    );
    for (const t of trickles) {
      expect(t.received, t.name).toMatch(/^HTTP\/1\.1 408/);
      expect(t.ms, t.name).toBeGreaterThanOrEqual(TIMEOUTS.requestMs - 50);
    }
    // The WebSocket, silent for longer than every HTTP/1 timeout, still answers.
    const reply = new Promise<string>((resolve) => ws.once("message", (d) => resolve(d.toString())));
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 9, method: "status", params: {} }));
    expect(JSON.parse(await reply)).toMatchObject({ id: 9, result: { node_info: expect.any(Object) } });
    ws.close();
  });

  it("closes an HTTP/1 client that trickles its headers, on every HTTP/1 server", async () => {
    const started = Date.now();
    const trickles = await Promise.all(
      Object.entries(serverUrls()).map(async ([name, url]) => {
        const c = await socketTo(url);
        c.socket.write("GET / HTTP/1.1\r\nHost: devnet\r\n");
        const timer = setInterval(() => c.socket.writable && c.socket.write("x-slow: 1\r\n"), 50);
        const received = await c.closed;
        clearInterval(timer);
        return { name, received, ms: Date.now() - started };
      }),
    );
    for (const t of trickles) {
      expect(t.received, t.name).toMatch(/^HTTP\/1\.1 408/);
      expect(t.ms, t.name).toBeGreaterThanOrEqual(TIMEOUTS.headersMs - 50);
    }
  });

  it("closes a connection that never sends its headers, and an idle keep-alive connection", async () => {
    const silent = await Promise.all(Object.values(serverUrls()).map((url) => socketTo(url)));
    await Promise.all(silent.map((c) => c.closed));
    const idle = await socketTo(devnet.endpoints.devnetControl);
    idle.socket.write("GET /devnet/status HTTP/1.1\r\nHost: devnet\r\n\r\n");
    await vi.waitFor(() => expect(idle.received()).toMatch(/^HTTP\/1\.1 200/));
    expect(await idle.closed).toMatch(/^HTTP\/1\.1 200/);
  });

  it("closes idle HTTP/2 sessions on gRPC h2c and TLS, with a GOAWAY (no error) first", async () => {
    const h2c = connectHttp2(devnet.endpoints.grpc);
    const tls = connectHttp2(devnet.endpoints.grpcTls, { ca: devnet.caPem });
    const started = Date.now();
    const closed = await Promise.all(
      [h2c, tls].map(
        (session) =>
          new Promise<{ ms: number; goaway: number | undefined }>((resolve) => {
            let goaway: number | undefined;
            session.on("error", () => undefined);
            session.once("goaway", (code: number) => {
              goaway = code;
            });
            session.once("close", () => resolve({ ms: Date.now() - started, goaway }));
          }),
      ),
    );
    for (const { ms, goaway } of closed) {
      expect(ms).toBeGreaterThanOrEqual(TIMEOUTS.http2IdleMs - 50);
      expect(goaway).toBe(0);
    }
  });

  it("lets a stream open on an idle HTTP/2 session finish after the GOAWAY", async () => {
    const session = connectHttp2(devnet.endpoints.grpc);
    session.on("error", () => undefined);
    const goaway = new Promise<void>((resolve) => session.once("goaway", () => resolve()));
    // A gRPC call whose request body is held back: the session sees no frame until its idle timeout.
    const stream = session.request({
      ":method": "POST",
      ":path": "/cosmos.bank.v1beta1.Query/Balance",
      "content-type": "application/grpc",
      te: "trailers",
    });
    let trailers: Record<string, unknown> = {};
    stream.on("trailers", (received) => {
      trailers = received;
    });
    const ended = new Promise<string>((resolve) => {
      stream.on("error", (error) => resolve(`error: ${error.message}`));
      stream.on("end", () => resolve("end"));
      stream.resume();
    });
    await goaway;
    const message = toBinary(
      cosmosBank.QueryBalanceRequestSchema,
      create(cosmosBank.QueryBalanceRequestSchema, { address: GENESIS_ACCOUNTS[0]!.address, denom: "uusdc" }),
    );
    const frame = new Uint8Array(5 + message.length);
    new DataView(frame.buffer).setUint32(1, message.length);
    frame.set(message, 5);
    stream.end(frame);
    expect(await ended).toBe("end");
    expect(trailers["grpc-status"]).toBe("0");
    session.close();
  });

  it("closes a TLS connection that never completes its handshake", async () => {
    const { hostname, port } = new URL(devnet.endpoints.grpcTls);
    const started = Date.now();
    const raw = connectTcp(Number(port), hostname);
    raw.on("error", () => undefined);
    await new Promise<void>((resolve) => raw.once("close", () => resolve()));
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUTS.headersMs - 50);
  });
});
