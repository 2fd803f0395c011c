/**
 * The CometBFT WebSocket never lets an exception escape its callbacks: a node that sends `null`,
 * text or a result of the wrong type, a subscription whose `onEvent` throws, an `onError` that
 * throws when the socket closes. Each case runs against a loopback `ws` server; vitest fails the run
 * on any uncaught exception, and the subscription keeps delivering after its listener threw.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it, vi } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { watchBlocks } from "../src/query/watch.js";
import { type WebSocketConstructor, WebSocketRpcClient } from "../src/transport/websocket.js";

const QUERY = "tm.event='NewBlockHeader'";
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

/** A node that accepts every subscribe, then lets the test push frames. */
async function hostileNode(): Promise<{ url: string; push(frame: string): void; drop(): void }> {
  const http = createServer();
  const wss = new WebSocketServer({ server: http });
  const sockets = new Set<import("ws").WebSocket>();
  wss.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("message", (data) => {
      const request = JSON.parse(String(data)) as { id: number };
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: {} }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  stop = async () => {
    for (const socket of sockets) socket.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return {
    url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}`,
    push: (frame) => {
      for (const socket of sockets) socket.send(frame);
    },
    drop: () => {
      for (const socket of sockets) socket.terminate();
    },
  };
}

const header = (height: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    result: {
      query: QUERY,
      data: { value: { header: { height: String(height), time: "2026-01-01T00:00:00Z", chain_id: "c" } } },
    },
  });

it("hostile frames and throwing listeners stay inside the socket; the subscription goes on", async () => {
  const node = await hostileNode();
  const client = new WebSocketRpcClient({
    url: node.url,
    webSocket: WebSocket as unknown as WebSocketConstructor,
  });
  const events: unknown[] = [];
  const errors: unknown[] = [];
  await client.subscribe({
    query: QUERY,
    onEvent: (data) => {
      events.push(data);
      if (events.length === 1) throw new Error("a bot's bug");
    },
    onError: (error) => {
      errors.push(error);
      throw new Error("and a bug in its error handler");
    },
  });
  for (const frame of [
    "null",
    '"text"',
    "7",
    '{"id":1,"result":"str"}',
    '{"id":1,"result":{"query":7}}',
    "{oops",
  ]) {
    node.push(frame);
  }
  node.push(header(1));
  node.push(header(2));
  await vi.waitFor(() => expect(events).toHaveLength(2));
  expect(errors).toEqual([new Error("a bot's bug")]);
  node.drop(); // the close reaches onError, which throws again: dropped
  await vi.waitFor(() => expect(errors).toHaveLength(2));
  client.disconnect();
});

it("watchBlocks: a throwing onBlock goes to onError and the watch goes on", async () => {
  const node = await hostileNode();
  const webSocket = new WebSocketRpcClient({
    url: node.url,
    webSocket: WebSocket as unknown as WebSocketConstructor,
  });
  const heights: bigint[] = [];
  const errors: unknown[] = [];
  const connection = { rpc: { webSocket } } as unknown as Parameters<typeof watchBlocks>[0];
  const stopWatch = await watchBlocks(connection, {
    onBlock: (block) => {
      heights.push(block.height);
      if (block.height === 1n) throw new Error("a bot's bug");
    },
    onError: (error) => errors.push(error),
  });
  node.push(header(1));
  node.push(header(2));
  await vi.waitFor(() => expect(heights).toEqual([1n, 2n]));
  expect(errors).toEqual([new Error("a bot's bug")]);
  stopWatch();
  webSocket.disconnect();
});
