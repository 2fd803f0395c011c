/**
 * A connection's sending on its own, over a recording socket and transport: frames are numbered in
 * order, and a run of frames is held back in the transport and passed on in one go.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { Connection, type ConnectionSettings } from "./connection.js";

const SETTINGS: ConnectionSettings = {
  pingIntervalMs: 60_000,
  pongTimeoutMs: 60_000,
  maxBufferedBytes: 1024,
  subscribeRateLimit: { points: 2, windowMs: 1000 },
  invalidMessageRateLimit: { points: 2, windowMs: 1000 },
};

/** What the socket and its transport saw, in order: `cork`, `uncork`, or a frame's message id. */
type Step = "cork" | "uncork" | number;

function recording(failAt?: number) {
  const steps: Step[] = [];
  const frames: string[] = [];
  const socket = {
    OPEN: 1,
    readyState: 1,
    bufferedAmount: 0,
    on: () => undefined,
    ping: () => undefined,
    close: () => undefined,
    send(frame: Uint8Array, options: { binary: boolean }) {
      const text = Buffer.from(frame).toString("utf8");
      const parsed = JSON.parse(text) as { message_id: number };
      if (parsed.message_id === failAt) throw new Error("socket write failed");
      steps.push(parsed.message_id);
      frames.push(options.binary ? "(binary)" : text);
    },
  } as unknown as WebSocket;
  const transport = { cork: () => steps.push("cork"), uncork: () => steps.push("uncork") };
  const connection = new Connection(socket, SETTINGS, transport);
  return { connection, steps, frames, socket: socket as unknown as { bufferedAmount: number } };
}

const tail = (n: number) =>
  Buffer.from(`,"channel":"v4_markets","version":"1.0.0","contents":{"n":${n},"name":"€ ✓"}}`);

let open: Connection[] = [];
afterEach(() => {
  for (const connection of open) connection.stopTimers();
  open = [];
});

describe("Connection.sendAll", () => {
  it("numbers a run of frames in order inside one cork of the transport", () => {
    const { connection, steps, frames } = recording();
    open.push(connection);
    connection.sendAll("channel_data", [tail(1), tail(2), tail(3)]);
    connection.sendAll("channel_batch_data", [tail(4), tail(5)]);
    expect(steps).toEqual(["cork", 1, 2, 3, "uncork", "cork", 4, 5, "uncork"]);
    expect(connection.messageId).toBe(5);
    // Text frames, byte for byte the head, the message id and the tail (multi-byte UTF-8 intact).
    expect(frames[1]).toBe(
      `{"type":"channel_data","connection_id":"${connection.id}","message_id":2,"channel":"v4_markets","version":"1.0.0","contents":{"n":2,"name":"€ ✓"}}`,
    );
    expect(frames[4]).toMatch(
      /^\{"type":"channel_batch_data","connection_id":"[-0-9a-f]{36}","message_id":5,"/,
    );
  });

  it("writes a single frame without corking", () => {
    const { connection, steps } = recording();
    open.push(connection);
    connection.sendAll("channel_data", [tail(1)]);
    expect(steps).toEqual([1]);
  });

  it("uncorks the transport even when a write throws", () => {
    const { connection, steps } = recording(2);
    open.push(connection);
    expect(() => connection.sendAll("channel_data", [tail(1), tail(2), tail(3)])).toThrow(
      "socket write failed",
    );
    expect(steps).toEqual(["cork", 1, "uncork"]);
  });

  it("stops writing a run once the client's unsent bytes pass the limit (slow consumer)", () => {
    const { connection, steps, socket } = recording();
    open.push(connection);
    socket.bufferedAmount = SETTINGS.maxBufferedBytes + 1;
    connection.sendAll("channel_data", [tail(1), tail(2)]);
    expect(steps).toEqual(["cork", "uncork"]);
    expect(connection.open).toBe(false);
  });
});
