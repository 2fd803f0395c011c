/**
 * `pingIntervalMs` promises that a healthy quiet server is never taken for a stalled one. With an
 * `idleTimeoutMs` shorter than the ping interval (say 10 s against the default 15 s), the client
 * must still ping before the idle timeout runs out, or every quiet stretch is a reconnect.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it, vi } from "vitest";
import { WebSocketServer } from "ws";
import { connectIndexerSocket } from "../src/ws/connect.js";
import type { IndexerSocket } from "../src/ws/connection.js";

vi.setConfig({ testTimeout: 30_000 });

const http = createServer();
const wss = new WebSocketServer({ server: http });
let socket: IndexerSocket | undefined;

afterEach(async () => {
  await socket?.close();
  for (const ws of wss.clients) ws.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

it("an idle timeout shorter than the ping interval still pings a quiet server in time", async () => {
  let pings = 0;
  wss.on("connection", (ws) => {
    ws.on("ping", () => pings++); // `ws` answers with a pong by itself
    ws.send(JSON.stringify({ type: "connected", connection_id: "c1", message_id: 0 }));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  // 2 s, still far below the 15 s ping interval: the client pings after 1 s of quiet, and a pause of
  // this process (server and client both) between a ping and its pong must pass the other second to
  // be taken for a stall; at 300 ms, 150 ms did.
  socket = await connectIndexerSocket({ url: `ws://127.0.0.1:${port}`, idleTimeoutMs: 2_000 });
  const disconnects: string[] = [];
  socket.on("disconnect", ({ cause }) => disconnects.push(cause));
  // Several idle periods pass on a server that sends nothing but answers pings.
  await vi.waitFor(() => expect(pings + disconnects.length).toBeGreaterThanOrEqual(4));
  expect(disconnects).toEqual([]);
});
