/**
 * The RPC's front thread (see `front.ts`): every request answered as its own under many in flight,
 * hostile connections that leave it serving, WebSockets through its tunnel, and a close that ends
 * the thread's port and tunnels.
 */
import { Agent, request } from "node:http";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createFakeChainApp, type FakeChainApp } from "../../../test/support/fake-chain-app.js";
import { type RpcServer, startRpcServer } from "../rpc.js";
import { RPC_MAX_PENDING_REQUESTS } from "./front.js";

let app: FakeChainApp;
let rpc: RpcServer;

beforeEach(async () => {
  app = createFakeChainApp();
  rpc = await startRpcServer({ app, port: 0 });
});
afterEach(async () => {
  await rpc.close();
});

async function call(id: number, method: string): Promise<{ id: unknown; result?: unknown }> {
  const res = await fetch(rpc.url, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: {} }),
    headers: { "content-type": "application/json" },
  });
  return (await res.json()) as { id: unknown; result?: unknown };
}

/** A raw connection to the RPC port; resolves once connected. */
async function rawSocket(): Promise<Socket> {
  const socket = connect(rpc.port, "127.0.0.1");
  socket.on("error", () => undefined);
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  return socket;
}

/** Resolves once `socket` is closed, with what it received. */
function closed(socket: Socket): Promise<string> {
  let received = "";
  socket.on("data", (d: Buffer) => {
    received += d.toString("latin1");
  });
  return new Promise((resolve) => socket.once("close", () => resolve(received)));
}

/** Opens a WebSocket; resolves once it is open. */
async function openWs(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => ws.once("open", resolve).once("error", reject));
  return ws;
}

describe("the RPC front thread", () => {
  it("answers each of 300 requests in flight at once (GET and POST, many connections) with its own answer", async () => {
    const methods = ["status", "health", "abci_info", "net_info"];
    const posts = Array.from({ length: 200 }, (_, i) => call(i, methods[i % methods.length] as string));
    const gets = Array.from({ length: 100 }, async () => {
      const res = await fetch(`${rpc.url}/health`);
      return { status: res.status, json: (await res.json()) as { id: unknown } };
    });
    const answers = await Promise.all(posts);
    answers.forEach((answer, i) => {
      expect(answer.id).toBe(i);
      expect(answer.result).toBeDefined();
    });
    for (const get of await Promise.all(gets)) expect(get).toMatchObject({ status: 200, json: { id: -1 } });
  });

  it(`answers a burst beyond ${RPC_MAX_PENDING_REQUESTS} requests at once, over as many connections, each with its own answer`, async () => {
    const count = RPC_MAX_PENDING_REQUESTS + 300;
    const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
    const answers = Array.from(
      { length: count },
      (_, i) =>
        new Promise<{ id: unknown }>((resolve, reject) => {
          const body = JSON.stringify({ jsonrpc: "2.0", id: i, method: "health", params: {} });
          request(
            rpc.url,
            { method: "POST", agent, headers: { "content-length": Buffer.byteLength(body) } },
            (res) => {
              let text = "";
              res.on("data", (chunk: Buffer) => {
                text += chunk.toString("utf8");
              });
              res.on("end", () => resolve(JSON.parse(text) as { id: unknown }));
            },
          )
            .on("error", reject)
            .end(body);
        }),
    );
    const ids = (await Promise.all(answers)).map((answer) => answer.id);
    expect(ids).toEqual(Array.from({ length: count }, (_, i) => i));
    agent.destroy();
  });

  it("keeps serving after a client drops mid-body and another sends garbage", async () => {
    const cut = await rawSocket();
    cut.write(
      'POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"jsonrpc":',
    );
    cut.destroy();
    const garbage = await rawSocket();
    const garbageClosed = closed(garbage);
    garbage.write("\u0000\u0001 NOT HTTP AT ALL\r\n\r\n");
    expect(await garbageClosed).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(await call(7, "health")).toMatchObject({ id: 7, result: {} });
  });

  it("tunnels WebSockets: a subscription sees the next block, and another path is refused with 404", async () => {
    const ws = await openWs(rpc.websocketUrl);
    const messages: Array<{ id: unknown; result?: { data?: { type?: string } } }> = [];
    const newBlock = new Promise<void>((resolve) =>
      ws.on("message", (data) => {
        const message = JSON.parse(String(data)) as (typeof messages)[number];
        messages.push(message);
        if (message.result?.data?.type === "tendermint/event/NewBlock") resolve();
      }),
    );
    ws.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "subscribe",
        params: { query: "tm.event='NewBlock'" },
      }),
    );
    await expect.poll(() => messages.some((m) => m.id === 1)).toBe(true);
    app.produceBlock(new Date(app.latestBlock().time.getTime() + 1000));
    await newBlock;
    ws.close();

    const other = await rawSocket();
    const otherClosed = closed(other);
    other.write(
      "GET /elsewhere HTTP/1.1\r\nhost: x\r\nconnection: upgrade\r\nupgrade: websocket\r\nsec-websocket-version: 13\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    );
    expect(await otherClosed).toMatch(/^HTTP\/1\.1 404 Not Found/);
  });

  it("refuses to start on a port in use with the system's EADDRINUSE, as a listen on this thread would", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    const failure = await startRpcServer({ app, port }).then(
      () => undefined,
      (error: unknown) => error as NodeJS.ErrnoException,
    );
    await new Promise<void>((resolve) => taken.close(() => resolve()));
    expect(failure?.code).toBe("EADDRINUSE");
  });

  it("closes its port and its tunnels on close", async () => {
    const ws = await openWs(rpc.websocketUrl);
    const wsClosed = new Promise<void>((resolve) => ws.once("close", () => resolve()));
    await rpc.close();
    await wsClosed;
    const refused = connect(rpc.port, "127.0.0.1");
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => refused.once("error", resolve));
    expect(error.code).toBe("ECONNREFUSED");
    // afterEach closes it again: a second close is a no-op.
  });
});
