/**
 * Storms: a server that sends a gap or a malformed frame right after every `connected`, and one
 * whose snapshots are always refused. The delays the client chooses (the `reconnecting` and
 * `resyncing` events carry them; the jitter source is injected) must follow the backoff schedule,
 * non-decreasing up to the cap, and the server must see no more connections than the schedule
 * allowed. No assertion reads the clock.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocketServer } from "ws";
import { backoffDelayMs } from "../src/ws/backoff.js";
import { connectIndexerSocket } from "../src/ws/connect.js";
import { RetrySchedule } from "../src/ws/schedule.js";
import { type FakeIndexer, startFakeIndexer } from "./support/fake-indexer.js";

/** A bound on each wait that only catches a hang (the machine may be fully loaded). */
const HANG = { timeout: 30_000, interval: 20 };
const POLICY = { initialDelayMs: 5, maxDelayMs: 80 };
/** The delays of a storm of `n` failures in a row under POLICY with jitter `r`. */
const schedule = (n: number, r: number): number[] =>
  Array.from({ length: n }, (_, i) => backoffDelayMs(i, POLICY, r));

/** A server that answers every connection with `connected`, and its first message with `after` (a fault). */
async function stormServer(
  after: string,
): Promise<{ url: string; connections: () => number; stop(): Promise<void> }> {
  const http: Server = createServer();
  const wss = new WebSocketServer({ server: http });
  let connections = 0;
  wss.on("connection", (socket) => {
    connections++;
    socket.on("error", () => {});
    socket.send(JSON.stringify({ type: "connected", connection_id: `c${connections}`, message_id: 0 }));
    socket.once("message", () => socket.send(after));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/v4/ws`,
    connections: () => connections,
    stop: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const GAP = JSON.stringify({
  type: "channel_data",
  connection_id: "c",
  message_id: 7,
  channel: "v4_block_height",
  id: "v4_block_height",
  contents: { blockHeight: "1", time: "2026-01-01T00:00:00.000Z" },
});

let stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops) await stop();
  stops = [];
});

describe("a reconnect storm follows the backoff schedule", { timeout: 120_000 }, () => {
  it.each([
    ["a gap", GAP],
    ["a malformed frame", "{oops"],
  ])(
    "%s right after every connect: growing delays, capped, and no more connections than scheduled",
    async (_, fault) => {
      const server = await stormServer(fault);
      stops.push(server.stop);
      const N = 12;
      const r = 0.5;
      const delays: number[] = [];
      const opened: string[] = [];
      const socket = await connectIndexerSocket({ url: server.url, reconnect: POLICY, random: () => r });
      socket.on("open", ({ connectionId }) => opened.push(connectionId));
      const storm = new Promise<void>((resolve) =>
        socket.on("reconnecting", ({ delayMs }) => {
          delays.push(delayMs);
          if (delays.length === N) resolve();
        }),
      );
      // Its subscribe (sent again on every connection) is answered with the fault.
      socket.subscribe("v4_block_height");
      await storm;
      await socket.close();
      expect(delays).toEqual(schedule(N, r));
      expect(delays.every((delay, i) => i === 0 || delay >= (delays[i - 1] as number))).toBe(true);
      expect(delays.at(-1)).toBe(backoffDelayMs(99, POLICY, r)); // the cap is reached and held
      expect(delays[0]).toBeGreaterThan(0);
      // One connection, then at most one per scheduled reconnect.
      expect(server.connections()).toBeLessThanOrEqual(N + 1);
      expect(opened.length).toBeLessThanOrEqual(N);
    },
  );

  it("the jitter stays within [d/2, d] of the nominal delay", async () => {
    const server = await stormServer(GAP);
    stops.push(server.stop);
    const socket = await connectIndexerSocket({ url: server.url, reconnect: POLICY, random: () => 0.999 });
    const delays: number[] = [];
    const storm = new Promise<void>((resolve) =>
      socket.on("reconnecting", ({ delayMs }) => delays.push(delayMs) === 8 && resolve()),
    );
    socket.subscribe("v4_block_height");
    await storm;
    await socket.close();
    expect(delays).toEqual(schedule(8, 0.999));
    expect(delays.slice(-3)).toEqual([80, 80, 80]);
  });
});

describe("repeated resyncs back off like reconnects", { timeout: 120_000 }, () => {
  let fake: FakeIndexer;
  afterEach(() => fake.stop());

  it("a subscription whose snapshots are always refused resyncs on the schedule", async () => {
    fake = await startFakeIndexer();
    fake.snapshots.set("v4_trades BAD-USD", { trades: "none" });
    const socket = await connectIndexerSocket({ url: fake.url, reconnect: POLICY, random: () => 0 });
    const delays: number[] = [];
    const done = new Promise<void>((resolve) =>
      socket.on("resyncing", ({ channel, id, delayMs }) => {
        expect([channel, id]).toEqual(["v4_trades", "BAD-USD"]);
        if (delays.push(delayMs) === 6) resolve();
      }),
    );
    const sub = socket.subscribe("v4_trades", "BAD-USD");
    await done;
    expect(delays).toEqual(schedule(6, 0));
    expect(sub.state).toBe("subscribing");
    await socket.close();
    // Each refused snapshot costs one subscribe: no more than the resyncs scheduled, plus the first.
    expect(fake.subscribes.filter((key) => key === "v4_trades BAD-USD").length).toBeLessThanOrEqual(7);
  });
});

describe("the schedule starts over only after a stable stretch", { timeout: 120_000 }, () => {
  it("resets after stableAfterMs without a failure, not at connected", () => {
    let now = 0;
    const retry = new RetrySchedule(
      { ...POLICY, stableAfterMs: 1_000 },
      () => 0,
      () => now,
    );
    const first = [retry.nextDelayMs(), retry.nextDelayMs()]; // refused while the server is down
    retry.connected();
    now += 10;
    const early = retry.nextDelayMs(); // fails 10 ms after connected: the schedule goes on
    retry.disconnected();
    retry.connected();
    now += 999;
    const stillEarly = retry.nextDelayMs(); // a resync on a connection 999 ms old
    now += 1_000;
    const stable = retry.nextDelayMs(); // 1 000 ms after the last failure: starts over
    expect([...first, early, stillEarly, stable]).toEqual([...schedule(4, 0), backoffDelayMs(0, POLICY, 0)]);
  });

  it("defaults to 10 s, and a bad option is refused before connecting", async () => {
    let now = 0;
    const retry = new RetrySchedule(
      POLICY,
      () => 0,
      () => now,
    );
    retry.connected();
    now = 9_999;
    retry.nextDelayMs();
    now += 9_999;
    expect(retry.nextDelayMs()).toBe(backoffDelayMs(1, POLICY, 0));
    now += 10_000;
    expect(retry.nextDelayMs()).toBe(backoffDelayMs(0, POLICY, 0));
    const refused = await connectIndexerSocket({
      url: "ws://127.0.0.1:1/v4/ws",
      reconnect: { stableAfterMs: -1 },
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ argument: "reconnect.stableAfterMs" });
  });
});

it("a healthy connection keeps its schedule at the start", { timeout: 120_000 }, async () => {
  const fake = await startFakeIndexer();
  try {
    const socket = await connectIndexerSocket({ url: fake.url, reconnect: POLICY, random: () => 0 });
    const delays: number[] = [];
    socket.on("reconnecting", ({ delayMs }) => delays.push(delayMs));
    fake.dropAll();
    await vi.waitFor(() => expect(delays).toHaveLength(1), HANG);
    expect(delays).toEqual(schedule(1, 0));
    await socket.close();
  } finally {
    await fake.stop();
  }
});
