/**
 * A delay or timeout past 2^31 - 1 ms (about 24.8 days) is as long as asked: `setTimeout` alone
 * would fire it at once, so a "wait up to 30 days" call would time out immediately, a 30-day
 * reconnect delay would hammer the server, and a huge idle timeout would spin a 1 ms timer.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { type WebSocket, WebSocketServer } from "ws";
import { failOnTimerOverflow } from "../../../tests/support/timer-overflow.js";
import { createIndexerClient } from "../src/index.js";
import { connectIndexerSocket } from "../src/ws/connect.js";
import type { IndexerSocket } from "../src/ws/connection.js";

vi.setConfig({ testTimeout: 30_000 });

const DAYS_30 = 30 * 86_400_000;
const HEIGHT = { height: "7", time: "2026-01-01T00:00:00.000Z" };

failOnTimerOverflow();

/** A call's outcome: its value, or what it threw. */
function outcome(call: Promise<unknown>): Promise<{ value?: unknown; error?: unknown }> {
  return call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

it("a 30-day timeoutMs outlives a 5 ms one, and the call then gets its answer", async () => {
  let answer: ((response: Response) => void) | undefined;
  const held: typeof fetch = (input) =>
    String(input).includes("slow")
      ? new Promise<Response>((resolve) => {
          answer = resolve;
        })
      : new Promise<Response>(() => {});
  const slow = createIndexerClient({ baseUrl: "http://slow.test", retry: false, fetch: held });
  const quick = createIndexerClient({ baseUrl: "http://quick.test", retry: false, fetch: held });
  let settled = false;
  const call = outcome(slow.getHeight({ timeoutMs: DAYS_30 })).finally(() => {
    settled = true;
  });
  // A second event: a 5 ms deadline fires.
  expect((await outcome(quick.getHeight({ timeoutMs: 5 }))).error).toMatchObject({
    name: "IndexerTimeoutError",
  });
  expect(settled).toBe(false);
  answer?.(new Response(JSON.stringify(HEIGHT), { headers: { "content-type": "application/json" } }));
  expect((await call).value).toMatchObject({ height: "7" });
});

it("a retry wait of 30 days is waited, not retried at once", async () => {
  let calls = 0;
  const failing: typeof fetch = (input) => {
    if (!String(input).includes("slow")) return new Promise<Response>(() => {});
    calls++;
    return Promise.resolve(new Response("down", { status: 503 }));
  };
  const slow = createIndexerClient({
    baseUrl: "http://slow.test",
    retry: { retries: 1, baseDelayMs: DAYS_30, maxDelayMs: DAYS_30 },
    fetch: failing,
  });
  vi.spyOn(Math, "random").mockReturnValue(0.99);
  const quick = createIndexerClient({ baseUrl: "http://quick.test", retry: false, fetch: failing });
  const controller = new AbortController();
  const call = outcome(slow.getHeight({ timeoutMs: 2 * DAYS_30, signal: controller.signal }));
  await vi.waitFor(() => expect(calls).toBe(1));
  await outcome(quick.getHeight({ timeoutMs: 5 }));
  expect(calls).toBe(1);
  controller.abort();
  expect((await call).error).toMatchObject({ name: "AbortedError" });
  expect(calls).toBe(1);
  vi.restoreAllMocks();
});

const http = createServer();
const wss = new WebSocketServer({ server: http });
const sockets: IndexerSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) await socket.close();
  for (const ws of wss.clients) ws.terminate();
});

async function port(): Promise<number> {
  if (!http.listening) await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return (http.address() as AddressInfo).port;
}

it("a 30-day connectTimeoutMs waits for `connected` past the client's first ping", async () => {
  wss.removeAllListeners("connection");
  wss.on("connection", (ws: WebSocket) => {
    // Mute until the client pings: then greet it.
    ws.once("ping", () => ws.send(JSON.stringify({ type: "connected", connection_id: "c", message_id: 0 })));
  });
  const socket = await connectIndexerSocket({
    url: `ws://127.0.0.1:${await port()}`,
    connectTimeoutMs: DAYS_30,
    pingIntervalMs: 20,
    idleTimeoutMs: 1_000,
  });
  sockets.push(socket);
});

it("a 30-day reconnect delay is waited: a 40 ms one dropped at the same time comes back first", async () => {
  const seen: string[] = [];
  wss.removeAllListeners("connection");
  wss.on("connection", (ws: WebSocket, request) => {
    seen.push(String(request.url));
    ws.send(JSON.stringify({ type: "connected", connection_id: "c", message_id: 0 }));
  });
  const base = `ws://127.0.0.1:${await port()}`;
  const long = await connectIndexerSocket({
    url: `${base}/long`,
    reconnect: { initialDelayMs: DAYS_30, maxDelayMs: DAYS_30 },
    idleTimeoutMs: 10 * DAYS_30,
    pingIntervalMs: 5 * DAYS_30,
  });
  sockets.push(long);
  const short = await connectIndexerSocket({
    url: `${base}/short`,
    reconnect: { initialDelayMs: 40, maxDelayMs: 40 },
  });
  sockets.push(short);
  const delays: number[] = [];
  long.on("reconnecting", ({ delayMs }) => delays.push(delayMs));
  for (const ws of wss.clients) ws.terminate();
  await vi.waitFor(() => expect(seen.filter((url) => url === "/short")).toHaveLength(2));
  expect(delays.length).toBe(1);
  expect(delays[0]).toBeGreaterThan(DAYS_30 / 2 - 1);
  expect(seen.filter((url) => url === "/long")).toHaveLength(1);
});

afterAll(async () => {
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  if (http.listening) await new Promise<void>((resolve) => http.close(() => resolve()));
});
