/**
 * A WebSocket RPC call's deadline (`timeoutMs`, `signal`) bounds all of it: the wait for a handshake
 * the node never completes (that attempt is abandoned, its socket closed, and the next call dials
 * afresh) and the wait for an answer (the call's entry is dropped at once, and a late answer to it
 * is ignored). Each case runs against a hostile loopback `ws` server on port 0.
 */
import { getEventListeners, setMaxListeners } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { isAbortedError, isTimeoutError, type TimeoutError } from "@perpx/errors";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { CLOSE_TEST_TIMEOUT_MS, exitAfterClose } from "../../../tests/support/exit-after-close.js";
import { createNodeClient } from "../src/client.js";
import { isTransportError } from "../src/errors.js";
import { watchBlocks } from "../src/query/watch.js";
import {
  pendingCallCount,
  type WebSocketConstructor,
  WebSocketRpcClient,
} from "../src/transport/websocket.js";
import { submitTx } from "../src/tx/broadcast.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const STATUS = {
  node_info: { network: "perpx-hostile-1" },
  sync_info: { latest_block_height: "7", latest_block_time: "2026-01-01T00:00:00Z" },
};

interface Request {
  id: number | string;
  method: string;
  params?: { query?: string };
}

/** An upgrade request the node holds: whether, and when, the client closed its end. */
interface Held {
  req: IncomingMessage;
  /** True once the client closed its end. */
  ended: boolean;
  /** Resolves once the client closed its end. */
  closed: Promise<void>;
}

/**
 * A node whose first `stall` handshakes never complete (the upgrade request is read and never
 * answered); later ones open, and each request is answered by `answer` (or held when it returns
 * undefined).
 */
async function hostileNode(options: { stall: number; answer?: (request: Request) => unknown }) {
  const held: Held[] = [];
  const heldWaiters: (() => void)[] = [];
  const requests: Request[] = [];
  const sockets = new Set<import("ws").WebSocket>();
  const wss = new WebSocketServer({
    host: "127.0.0.1",
    port: 0,
    verifyClient: (info, accept) => {
      if (held.length >= options.stall) {
        accept(true);
        return;
      }
      const entry = { req: info.req, ended: false } as Held;
      entry.closed = new Promise<void>((resolve) => {
        const end = () => {
          entry.ended = true;
          resolve();
        };
        info.req.socket.once("end", end).once("close", end);
      });
      info.req.socket.resume(); // read, so that the client's close is seen
      held.push(entry);
      for (const wake of heldWaiters.splice(0)) wake();
      // never answered
    },
  });
  wss.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("message", (data) => {
      const request = JSON.parse(String(data)) as Request;
      requests.push(request);
      const result = options.answer?.(request);
      if (result !== undefined) socket.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, result }));
    });
  });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  cleanups.push(async () => {
    for (const { req } of held) req.socket.destroy();
    for (const socket of sockets) socket.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    requests,
    /** Resolves with the `n`th (1-based) held upgrade request once it arrived. */
    held: async (n: number): Promise<Held> => {
      while (held.length < n) await new Promise<void>((resolve) => heldWaiters.push(resolve));
      return held[n - 1]!;
    },
    /** Sends a frame on every open socket. */
    push: (frame: unknown) => {
      for (const socket of sockets) socket.send(JSON.stringify(frame));
    },
    /** Drops every open socket at once. */
    terminate: () => {
      for (const socket of sockets) socket.terminate();
    },
  };
}

it("a call aborted during a handshake the node never completes abandons it: the next call dials afresh", async () => {
  const node = await hostileNode({ stall: 1, answer: (request) => request.method === "status" && STATUS });
  const client = createNodeClient({ nodeRpc: node.url });
  cleanups.push(async () => client.close());
  const controller = new AbortController();
  const first = client.getLatestBlock({ signal: controller.signal }).catch((e: unknown) => e);
  const stuck = await node.held(1);
  controller.abort();
  expect(isAbortedError(await first)).toBe(true);
  // Before, this call waited on the same stuck handshake until its own deadline.
  const block = await client.getLatestBlock({ timeoutMs: 20_000 });
  expect(block).toMatchObject({ height: 7n, chainId: "perpx-hostile-1" });
  await stuck.closed; // the client closed the socket whose handshake it gave up on
});

it("calls that time out during stuck handshakes do not block the client for good", async () => {
  const node = await hostileNode({ stall: 2, answer: (request) => request.method === "status" && STATUS });
  const client = createNodeClient({ nodeRpc: node.url });
  cleanups.push(async () => client.close());
  // Short deadlines until a call gets through: each gives its stuck handshake up, and the third
  // dial opens. Before, every call waited on the first handshake and timed out, for good.
  let outcome: unknown;
  do {
    outcome = await client.getLatestBlock({ timeoutMs: 50 }).catch((e: unknown) => e);
  } while (isTimeoutError(outcome));
  expect(outcome).toMatchObject({ height: 7n });
  for (const n of [1, 2]) await (await node.held(n)).closed;
});

it("a call still within its deadline keeps the handshake another call gave up on", async () => {
  const node = await hostileNode({ stall: 1 });
  const client = new WebSocketRpcClient({
    url: node.url,
    webSocket: WebSocket as unknown as WebSocketConstructor,
  });
  cleanups.push(async () => client.disconnect());
  const patient = new AbortController();
  const hasty = new AbortController();
  client.nextSignal = patient.signal;
  const waiting = client.execute({ jsonrpc: "2.0", id: 1, method: "status", params: {} }).catch((e) => e);
  client.nextSignal = hasty.signal;
  const givingUp = client.execute({ jsonrpc: "2.0", id: 2, method: "status", params: {} }).catch((e) => e);
  const stuck = await node.held(1);
  hasty.abort();
  const error = await givingUp;
  expect(isTransportError(error) && error.nothingSent).toBe(true);
  expect(stuck.ended).toBe(false); // the patient call still waits on it
  patient.abort();
  const last = await waiting;
  expect(isTransportError(last) && last.nothingSent).toBe(true);
  expect(String(last)).toContain("handshake");
  await stuck.closed;
  expect(getEventListeners(patient.signal, "abort")).toHaveLength(0);
  expect(getEventListeners(hasty.signal, "abort")).toHaveLength(0);
});

it("a call given up after its request was sent leaves no pending entry, and its late answer is ignored", async () => {
  const node = await hostileNode({
    stall: 0,
    answer: (request) => (request.method === "ping" ? {} : undefined),
  });
  const client = new WebSocketRpcClient({
    url: node.url,
    webSocket: WebSocket as unknown as WebSocketConstructor,
  });
  cleanups.push(async () => client.disconnect());
  await client.execute({ jsonrpc: "2.0", id: "warm", method: "ping", params: {} });
  const controller = new AbortController();
  setMaxListeners(3_000, controller.signal); // one per call
  const calls = Array.from({ length: 2_000 }, (_, i) => {
    client.nextSignal = controller.signal;
    return client.execute({ jsonrpc: "2.0", id: `silent-${i}`, method: "silent", params: {} }).then(
      () => "answered",
      (error: unknown) => error,
    );
  });
  await expect.poll(() => node.requests.length, { timeout: 20_000 }).toBe(2_001);
  expect(pendingCallCount(client)).toBe(2_000);
  controller.abort();
  expect(pendingCallCount(client)).toBe(0);
  for (const outcome of await Promise.all(calls)) {
    expect(isTransportError(outcome) && !outcome.nothingSent).toBe(true);
  }
  expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  // The late answers find nobody waiting; the socket goes on serving.
  for (const request of node.requests.slice(1)) node.push({ jsonrpc: "2.0", id: request.id, result: {} });
  const answer = await client.execute({ jsonrpc: "2.0", id: "after", method: "ping", params: {} });
  expect(answer.id).toBe("after");
  expect(pendingCallCount(client)).toBe(0);
});

it("through the node client, timed-out calls against a node that never answers leave nothing pending", async () => {
  const node = await hostileNode({
    stall: 0,
    answer: () => (node.requests.length === 1 ? STATUS : undefined),
  });
  const client = createNodeClient({ nodeRpc: node.url });
  cleanups.push(async () => client.close());
  await client.getLatestBlock();
  const webSocket = client.rpc!.webSocket!;
  const controller = new AbortController();
  setMaxListeners(1_000, controller.signal); // one per call, the deadline's
  const calls = Array.from({ length: 500 }, () =>
    client.getLatestBlock({ signal: controller.signal }).catch((e: unknown) => e),
  );
  await expect.poll(() => node.requests.length, { timeout: 20_000 }).toBe(501);
  controller.abort();
  for (const error of await Promise.all(calls)) expect(isAbortedError(error), String(error)).toBe(true);
  expect(pendingCallCount(webSocket)).toBe(0);
});

it("disconnect() while a call waits for its answer leaves no listener on their signals", async () => {
  const node = await hostileNode({ stall: 0 });
  const client = new WebSocketRpcClient({
    url: node.url,
    webSocket: WebSocket as unknown as WebSocketConstructor,
  });
  const signal = new AbortController().signal;
  client.nextSignal = signal;
  const sent = client.execute({ jsonrpc: "2.0", id: 1, method: "silent", params: {} }).catch((e) => e);
  await expect.poll(() => node.requests.length, { timeout: 20_000 }).toBe(1);
  client.disconnect();
  const error = await sent;
  expect(isTransportError(error) && error.nothingSent).toBe(false);
  expect(pendingCallCount(client)).toBe(0);
  expect(getEventListeners(signal, "abort")).toHaveLength(0);
});

it(
  "close() after calls gave up on a stuck handshake and on an answer leaves nothing running",
  async () => {
    const node = await hostileNode({
      stall: 1,
      answer: () => (node.requests.length === 1 ? STATUS : undefined),
    });
    const result = await exitAfterClose({
      script: fileURLToPath(new URL("./fixtures/ws-deadline-child.ts", import.meta.url)),
      args: [node.url],
      cwd: fileURLToPath(new URL("..", import.meta.url)),
    });
    expect(result.stderr).toBe("");
    expect(result.left).toEqual([]);
    expect(result.code).toBe(0);
  },
  CLOSE_TEST_TIMEOUT_MS,
);

/** Signed-looking bytes: the hostile node never reads them as a transaction. */
const TX_BYTES = new Uint8Array([10, 2, 8, 1, 18, 0]);

describe("a broadcast's deadline error says whether its request was written", () => {
  it("fired while the WebSocket handshake was pending: nothing sent (timeout and abort)", async () => {
    const node = await hostileNode({ stall: 2 });
    const client = createNodeClient({ nodeRpc: node.url });
    cleanups.push(async () => client.close());
    const timedOut = await submitTx(client, { txBytes: TX_BYTES, mode: "sync", timeoutMs: 50 }).catch(
      (e: unknown) => e,
    );
    expect(isTimeoutError(timedOut) && timedOut.operation).toBe("broadcast_tx_sync");
    expect((timedOut as TimeoutError).nothingSent).toBe(true);
    await (await node.held(1)).closed;
    const controller = new AbortController();
    const aborted = submitTx(client, { txBytes: TX_BYTES, mode: "sync", signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    await node.held(2);
    controller.abort();
    const error = await aborted;
    expect(isAbortedError(error) && error.nothingSent).toBe(true);
    expect(node.requests).toEqual([]);
  });

  it("fired after the frame was written to a node that never answers: maybe sent (timeout and abort)", async () => {
    const node = await hostileNode({
      stall: 0,
      answer: (request) => (request.method === "status" ? STATUS : undefined),
    });
    const client = createNodeClient({ nodeRpc: node.url });
    cleanups.push(async () => client.close());
    await client.getLatestBlock(); // the socket is open: the broadcast's frame goes out at once
    const timedOut = await submitTx(client, { txBytes: TX_BYTES, mode: "sync", timeoutMs: 50 }).catch(
      (e: unknown) => e,
    );
    expect(isTimeoutError(timedOut) && timedOut.nothingSent).toBe(false);
    expect(node.requests.map((request) => request.method)).toEqual(["status", "broadcast_tx_sync"]);
    const controller = new AbortController();
    const aborted = submitTx(client, { txBytes: TX_BYTES, mode: "sync", signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    await expect.poll(() => node.requests.length).toBe(3);
    controller.abort();
    const error = await aborted;
    expect(isAbortedError(error) && error.nothingSent).toBe(false);
  });

  it("over HTTP, to a node that reads the request and never answers: maybe sent", async () => {
    const received: string[] = [];
    const server = createServer((req) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      req.on("end", () => received.push(body)); // never answered
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const client = createNodeClient({
      nodeRpc: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    });
    cleanups.push(async () => client.close());
    const controller = new AbortController();
    const aborted = submitTx(client, { txBytes: TX_BYTES, mode: "sync", signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    await expect.poll(() => received.length).toBe(1);
    controller.abort();
    const error = await aborted;
    expect(isAbortedError(error) && error.nothingSent).toBe(false);
    expect(JSON.parse(received[0]!)).toMatchObject({ method: "broadcast_tx_sync" });
  });

  it("aborted before it started: nothing sent", async () => {
    const client = createNodeClient({ nodeRpc: "ws://127.0.0.1:1" });
    cleanups.push(async () => client.close());
    const error = await submitTx(client, {
      txBytes: TX_BYTES,
      mode: "sync",
      signal: AbortSignal.abort(),
    }).catch((e: unknown) => e);
    expect(isAbortedError(error) && error.nothingSent).toBe(true);
  });
});

describe("subscribe() has a deadline and leaves nothing behind when it gives up", () => {
  const QUERY = "tm.event='NewBlock'";

  /** Settles `promise` to its value or error, failing the test if it never settles (a hang guard). */
  async function settled<T>(promise: Promise<T>): Promise<T | unknown> {
    let done = false;
    let outcome: T | unknown;
    promise.then(
      (value) => {
        outcome = value;
        done = true;
      },
      (error: unknown) => {
        outcome = error;
        done = true;
      },
    );
    await expect.poll(() => done, { timeout: 20_000 }).toBe(true);
    return outcome;
  }

  it("a subscribe the node never answers times out, is taken back with an unsubscribe, and frees its query", async () => {
    let acceptSubscribes = false;
    const node = await hostileNode({
      stall: 0,
      answer: (request) => {
        if (request.method === "status") return STATUS;
        if (request.method === "subscribe") return acceptSubscribes ? {} : undefined;
        return {}; // unsubscribe
      },
    });
    const client = new WebSocketRpcClient({
      url: node.url,
      webSocket: WebSocket as unknown as WebSocketConstructor,
    });
    cleanups.push(async () => client.disconnect());
    await client.execute({ jsonrpc: "2.0", id: "warm", method: "status", params: {} });
    const events: unknown[] = [];
    const errors: unknown[] = [];
    const listeners = {
      onEvent: (data: unknown) => events.push(data),
      onError: (e: unknown) => errors.push(e),
    };
    const error = await settled(client.subscribe({ query: QUERY, ...listeners, timeoutMs: 100 }));
    expect(isTimeoutError(error) && error.operation).toBe(`subscribe to ${QUERY}`);
    expect((error as TimeoutError).nothingSent).toBe(false);
    expect(pendingCallCount(client)).toBe(0);
    // Taken back on the same socket, after the subscribe: the node holds no subscription for it.
    await expect
      .poll(() => node.requests.map((request) => request.method))
      .toEqual(["status", "subscribe", "unsubscribe"]);
    expect(node.requests[2]?.params?.query).toBe(QUERY);
    // The late answer and an event of the abandoned subscription reach nobody.
    const late = node.requests[1]!;
    node.push({ jsonrpc: "2.0", id: late.id, result: {} });
    node.push({ jsonrpc: "2.0", id: late.id, result: { query: QUERY, data: { late: true } } });
    await client.execute({ jsonrpc: "2.0", id: "after", method: "status", params: {} });
    expect(events).toEqual([]);
    // The query is free: subscribing again is not refused as "already subscribed".
    acceptSubscribes = true;
    const stop = await client.subscribe({ query: QUERY, ...listeners });
    const second = node.requests.at(-1)!;
    node.push({ jsonrpc: "2.0", id: second.id, result: { query: QUERY, data: { height: 8 } } });
    await expect.poll(() => events).toEqual([{ height: 8 }]);
    stop();
    await expect.poll(() => node.requests.at(-1)?.method).toBe("unsubscribe");
    expect(pendingCallCount(client)).toBe(0);
    expect(errors).toEqual([]);
  });

  it("aborted during a handshake the node never completes: nothing sent, the query free", async () => {
    const node = await hostileNode({ stall: 1, answer: () => ({}) });
    const client = new WebSocketRpcClient({
      url: node.url,
      webSocket: WebSocket as unknown as WebSocketConstructor,
    });
    cleanups.push(async () => client.disconnect());
    const controller = new AbortController();
    const subscribing = settled(
      client.subscribe({ query: QUERY, onEvent: () => {}, signal: controller.signal }),
    );
    const stuck = await node.held(1);
    controller.abort();
    const error = await subscribing;
    expect(isAbortedError(error) && error.nothingSent).toBe(true);
    await stuck.closed;
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    const stop = await client.subscribe({ query: QUERY, onEvent: () => {} });
    expect(node.requests.map((request) => request.method)).toEqual(["subscribe"]);
    stop();
  });

  it("a socket that closes while a subscribe waits rejects it, and its onError hears nothing", async () => {
    const node = await hostileNode({ stall: 0 });
    const client = new WebSocketRpcClient({
      url: node.url,
      webSocket: WebSocket as unknown as WebSocketConstructor,
    });
    cleanups.push(async () => client.disconnect());
    const errors: unknown[] = [];
    const subscribing = settled(
      client.subscribe({ query: QUERY, onEvent: () => {}, onError: (e) => errors.push(e) }),
    );
    await expect.poll(() => node.requests.length).toBe(1);
    node.terminate();
    const error = await subscribing;
    expect(isTransportError(error) && error.nothingSent).toBe(false);
    expect(errors).toEqual([]);
  });

  it("watchBlocks: the client's timeoutMs bounds the subscribe, and the call's timeoutMs overrides it", async () => {
    const node = await hostileNode({ stall: 0 });
    const short = createNodeClient({ nodeRpc: node.url, timeoutMs: 100 });
    cleanups.push(async () => short.close());
    const byDefault = await settled(watchBlocks(short, { onBlock: () => {} }));
    expect(isTimeoutError(byDefault) && byDefault.timeoutMs).toBe(100);
    const long = createNodeClient({ nodeRpc: node.url, timeoutMs: 600_000 });
    cleanups.push(async () => long.close());
    const byCall = await settled(watchBlocks(long, { onBlock: () => {}, timeoutMs: 150 }));
    expect(isTimeoutError(byCall) && byCall.timeoutMs).toBe(150);
  });
});
