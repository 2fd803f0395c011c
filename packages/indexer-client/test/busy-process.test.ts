/**
 * A bot's own process can be busy: a long synchronous computation or a GC pause holds the event
 * loop past the idle timeout while a healthy server keeps sending. Those frames wait unread in the
 * kernel, so the idle timer that fires first must not take the socket for a stalled one; a server
 * that really went silent still is. The server runs on a worker thread, so it sends while this
 * thread is blocked.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { afterEach, expect, it, vi } from "vitest";
import { connectIndexerSocket } from "../src/ws/connect.js";
import type { IndexerSocket } from "../src/ws/connection.js";

vi.setConfig({ testTimeout: 30_000 });

/**
 * A ws server on a worker thread: sends `connected`, then a protocol ping every 20 ms, and tells
 * this thread of each pong (the client read the ping); told "mute", it sends and answers nothing.
 */
const SERVER = `
const { parentPort } = require("node:worker_threads");
const { WebSocketServer } = require(${JSON.stringify(createRequire(import.meta.url).resolve("ws"))});
const wss = new WebSocketServer({ port: 0, host: "127.0.0.1", autoPong: false }, () => parentPort.postMessage(wss.address().port));
let muted = false;
parentPort.on("message", (m) => { if (m === "mute") muted = true; });
wss.on("connection", (ws) => {
  ws.send(JSON.stringify({ type: "connected", connection_id: "c1", message_id: 0 }));
  ws.on("ping", (data) => { if (!muted) ws.pong(data); });
  ws.on("pong", () => parentPort.postMessage("pong"));
  const timer = setInterval(() => { if (!muted) ws.ping(); }, 20);
  ws.on("close", () => clearInterval(timer));
});
`;

let worker: Worker | undefined;
let socket: IndexerSocket | undefined;

afterEach(async () => {
  await socket?.close();
  await worker?.terminate();
});

/** Blocks this thread for `ms`, as a synchronous task does. */
function blockFor(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Connects to a worker's server; `frames` counts the pings the client has read (their pongs). */
async function connectToWorker(): Promise<{ frames: () => number; causes: string[] }> {
  const server = new Worker(SERVER, { eval: true });
  worker = server;
  const port = await new Promise<number>((resolve) => server.once("message", resolve));
  let count = 0;
  server.on("message", (message) => message === "pong" && count++);
  socket = await connectIndexerSocket({ url: `ws://127.0.0.1:${port}`, idleTimeoutMs: 300 });
  const causes: string[] = [];
  socket.on("disconnect", ({ cause }) => causes.push(cause));
  await vi.waitFor(() => expect(count).toBeGreaterThan(2));
  return { frames: () => count, causes };
}

it("a process blocked past the idle timeout keeps a server that sent meanwhile", async () => {
  const { frames, causes } = await connectToWorker();
  for (let round = 0; round < 3; round++) {
    blockFor(900); // three times the idle timeout; the server pings about 45 times meanwhile
    const seen = frames();
    await vi.waitFor(() => expect(frames()).toBeGreaterThan(seen + 2));
  }
  expect(causes).toEqual([]);
  expect(socket?.closed).toBe(false);
});

it("a server that goes silent is still dropped as stalled", async () => {
  const { causes } = await connectToWorker();
  worker?.postMessage("mute");
  await vi.waitFor(() => expect(causes).toContain("stalled"), { timeout: 10_000 });
});
