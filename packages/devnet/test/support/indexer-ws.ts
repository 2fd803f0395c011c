/**
 * Test helpers for the indexer WebSocket server: a feed the test drives (snapshots from a table,
 * optionally held back until released, messages pushed by hand) and a client that records every
 * frame it receives and waits for conditions on them.
 */

import type { IndexerChannel } from "@perpx/core/indexer";
import { vi } from "vitest";
import WebSocket from "ws";
import type { ChannelMessage, ChannelSnapshot, IndexerFeed } from "../../src/indexer/feed.js";

/** A feed driven by the test. */
export class FakeFeed implements IndexerFeed {
  /** Snapshot contents by `channel id`; a channel id not in the table answers `invalid-id`. */
  readonly snapshots = new Map<string, ChannelSnapshot | (() => ChannelSnapshot)>();
  /** When set, `snapshot` answers a promise the test resolves with `release()`. */
  hold = false;
  readonly #held: Array<() => void> = [];
  readonly #listeners = new Set<(messages: readonly ChannelMessage[]) => void>();
  /** The snapshot calls, in order. */
  readonly calls: string[] = [];

  set(channel: IndexerChannel, id: string, snapshot: ChannelSnapshot | (() => ChannelSnapshot)): this {
    this.snapshots.set(`${channel} ${id}`, snapshot);
    return this;
  }

  snapshot(channel: IndexerChannel, id: string): ChannelSnapshot | Promise<ChannelSnapshot> {
    this.calls.push(`${channel} ${id}`);
    const read = () => {
      const entry = this.snapshots.get(`${channel} ${id}`);
      if (entry === undefined) return { kind: "invalid-id" } as const;
      return typeof entry === "function" ? entry() : entry;
    };
    if (!this.hold) return read();
    return new Promise((resolve, reject) =>
      this.#held.push(() => {
        try {
          resolve(read());
        } catch (error) {
          reject(error);
        }
      }),
    );
  }

  /** Answers every held snapshot. */
  release(): void {
    for (const answer of this.#held.splice(0)) answer();
  }

  get heldCount(): number {
    return this.#held.length;
  }

  onMessages(listener: (messages: readonly ChannelMessage[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** Publishes one step. */
  push(...messages: ChannelMessage[]): void {
    for (const listener of this.#listeners) listener(messages);
  }
}

/** A received frame, parsed. */
export type Frame = Record<string, unknown> & { type: string; message_id: number };

/** A `ws` client that records frames. */
export class RecordingClient {
  readonly frames: Frame[] = [];
  closed: { code: number; reason: string } | undefined;
  readonly socket: WebSocket;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    // The reference sends JSON in text frames only (a browser would get a Blob for a binary one):
    // a binary frame is recorded as such, so any test reading it fails.
    socket.on("message", (data, isBinary) =>
      this.frames.push(
        isBinary ? { type: "(binary frame)", message_id: -1 } : (JSON.parse(data.toString()) as Frame),
      ),
    );
    socket.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
    socket.on("error", () => undefined);
  }

  /** Connects and waits for `connected`. */
  static async connect(url: string, options: WebSocket.ClientOptions = {}): Promise<RecordingClient> {
    const client = new RecordingClient(new WebSocket(url, options));
    await new Promise<void>((resolve, reject) => {
      client.socket.once("message", () => resolve());
      client.socket.once("error", reject);
      client.socket.once("close", (code) => reject(new Error(`closed with ${code} before connected`)));
    });
    if (client.frames[0]?.type !== "connected") throw new Error("the first frame is not connected");
    return client;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** Frames after `connected` of one type. */
  ofType(type: string): Frame[] {
    return this.frames.filter((f) => f.type === type);
  }

  /** Waits until `count` frames (after `connected`) have arrived and returns them. */
  async waitFrames(count: number): Promise<Frame[]> {
    await vi.waitFor(() => {
      if (this.frames.length - 1 < count) throw new Error(`${this.frames.length - 1} of ${count} frames`);
    });
    return this.frames.slice(1);
  }

  async waitClosed(): Promise<{ code: number; reason: string }> {
    await vi.waitFor(() => {
      if (this.closed === undefined) throw new Error("still open");
    });
    return this.closed as { code: number; reason: string };
  }

  close(): void {
    this.socket.close();
  }
}

/** An order book message for the fake feed. */
export function bookUpdate(ticker: string, price: string, size: string): ChannelMessage {
  return { channel: "v4_orderbook", id: ticker, version: "1.0.0", contents: { bids: [[price, size]] } };
}
