/**
 * A reconnect that reaches a server which upgrades the socket, answers its pings, and never says
 * `connected` (a proxy whose backend is down, an overloaded indexer): the first connection is
 * bounded by `connectTimeoutMs`, and so must every later one be, or the client waits forever with
 * every subscription queued and nothing reported.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it, vi } from "vitest";
import { type WebSocket, WebSocketServer } from "ws";
import { connectIndexerSocket } from "../src/ws/connect.js";
import type { IndexerSocket } from "../src/ws/connection.js";
import { activeResources, expectNoTimerLeak } from "./support/leaks.js";

vi.setConfig({ testTimeout: 30_000 });

const http = createServer();
const wss = new WebSocketServer({ server: http });
const sockets = new Set<WebSocket>();
let socket: IndexerSocket | undefined;

afterEach(async () => {
  await socket?.close();
  for (const ws of sockets) ws.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

it("a reconnect that never hears `connected` is given up after connectTimeoutMs and tried again", async () => {
  let accepted = 0;
  wss.on("connection", (ws) => {
    sockets.add(ws);
    ws.on("close", () => sockets.delete(ws));
    // Only the first connection is greeted; the later ones stay mute (pings are still answered).
    if (++accepted === 1) ws.send(JSON.stringify({ type: "connected", connection_id: "c1", message_id: 0 }));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const baseline = activeResources();
  socket = await connectIndexerSocket({
    url: `ws://127.0.0.1:${port}`,
    connectTimeoutMs: 200,
    pingIntervalMs: 20,
    idleTimeoutMs: 1_000,
    reconnect: { initialDelayMs: 1, maxDelayMs: 4 },
  });
  const disconnects: string[] = [];
  socket.on("disconnect", ({ cause }) => disconnects.push(cause));
  for (const ws of sockets) ws.terminate();
  // The mute second connection is dropped and a third is made.
  await vi.waitFor(() => expect(accepted).toBeGreaterThanOrEqual(3));
  expect(disconnects.slice(0, 2)).toEqual(["closed", "stalled"]);
  await socket.close();
  socket = undefined;
  expectNoTimerLeak(baseline);
});
