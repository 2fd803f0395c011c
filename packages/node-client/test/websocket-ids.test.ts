/**
 * Calls in flight on one WebSocket may carry the same JSON-RPC id (the caller's own): each still
 * gets its own answer, with the id it sent, whatever order the node answers in.
 */
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { type WebSocketConstructor, WebSocketRpcClient } from "../src/transport/websocket.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A node that holds requests until `count` arrived, then answers them in reverse order with their method. */
async function reversingNode(count: number): Promise<string> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  wss.on("connection", (socket) => {
    const held: { id: unknown; method: string }[] = [];
    socket.on("message", (data) => {
      held.push(JSON.parse(String(data)) as { id: unknown; method: string });
      if (held.length < count) return;
      for (const { id, method } of held.reverse()) {
        socket.send(JSON.stringify({ jsonrpc: "2.0", id, result: { method } }));
      }
    });
  });
  cleanups.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
}

it("two calls in flight with the same id each get their own answer, with that id", async () => {
  const client = new WebSocketRpcClient({
    url: await reversingNode(3),
    webSocket: WebSocket as unknown as WebSocketConstructor,
  });
  cleanups.push(() => client.disconnect());
  const call = (method: string, id: number | string) =>
    client.execute({ jsonrpc: "2.0", id, method, params: {} });
  const answers = await Promise.all([call("status", 1), call("health", 1), call("net_info", "a")]);
  expect(answers.map((a) => [a.id, (a.result as { method: string }).method])).toEqual([
    [1, "status"],
    [1, "health"],
    ["a", "net_info"],
  ]);
});
