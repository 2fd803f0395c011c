/**
 * One client connection: its id and `message_id` counter (3.4), its subscriptions, the heartbeat
 * (protocol pings, 1011 when no pong comes), and bounded sending: a client that does not read its
 * socket is closed once more than `maxBufferedBytes` wait to be sent, so a slow consumer can never
 * grow the server's memory without bound.
 */
import { randomUUID } from "node:crypto";
import type { IndexerChannel } from "@perpx/core/indexer";
import type { WebSocket } from "ws";
import { type DataFrameType, dataHead, type EncodedMessage } from "./envelopes.js";
import { RateLimiter } from "./rate-limiter.js";

/** Close codes and reasons the server uses. */
export const CLOSE = {
  /** Rate limits (3.7). */
  rateLimited: { code: 1008, reason: JSON.stringify({ message: "Rate limited" }) },
  /** No pong within the timeout (3.1). */
  heartbeat: { code: 1011, reason: "Heartbeat timeout" },
  /** Server shutdown (3.1). */
  restarting: { code: 1012, reason: JSON.stringify({ message: "Service restarting" }) },
  /** The client reads slower than the server writes (a devnet choice; the reference has none). */
  slowConsumer: { code: 1013, reason: JSON.stringify({ message: "Slow consumer" }) },
} as const;

/** Timing and limits of a connection. */
export interface ConnectionSettings {
  readonly pingIntervalMs: number;
  readonly pongTimeoutMs: number;
  readonly maxBufferedBytes: number;
  readonly subscribeRateLimit: { points: number; windowMs: number };
  readonly invalidMessageRateLimit: { points: number; windowMs: number };
}

/** One subscription of one connection to one channel id. */
export class Subscription {
  /** `pending` until `subscribed` is written; `ended` once unsubscribed, refused or disconnected. */
  state: "pending" | "live" | "ended" = "pending";
  /** Updates that arrived while the snapshot was being read; delivered after `subscribed`. */
  queued: EncodedMessage[] = [];
  /** Where this subscriber's part of its topic's batch buffer starts (it joined mid-window). */
  batchFrom = 0;

  constructor(
    readonly connection: Connection,
    readonly channel: IndexerChannel,
    readonly id: string,
    readonly batched: boolean,
  ) {}

  /** The key of its topic: channel and normalized id. */
  get key(): string {
    return topicKey(this.channel, this.id);
  }
}

/** The key of a channel id in maps. */
export function topicKey(channel: IndexerChannel, id: string): string {
  return `${channel}\u0000${id}`;
}

/** The transport under a WebSocket, which can hold writes back and pass them on in one go. */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/** A client connection. */
export class Connection {
  readonly id = randomUUID();
  /** The `message_id` of the last numbered message (3.4). */
  messageId = 0;
  /** Live subscriptions by topic key. */
  readonly live = new Map<string, Subscription>();
  /** Subscriptions whose snapshot is being read. */
  readonly pending = new Set<Subscription>();
  readonly subscribeLimiter: RateLimiter;
  readonly invalidLimiter: RateLimiter;
  #closing = false;
  /** The UTF-8 bytes of each data frame's head, up to `"message_id":`. */
  readonly #heads: Record<DataFrameType, Buffer>;
  readonly #ping: NodeJS.Timeout;
  #pongDeadline: NodeJS.Timeout | undefined;

  /**
   * @param transport - the socket under `socket` (the upgraded HTTP connection): {@link sendAll}
   *   corks it so that a run of frames reaches the network in one system call, not one each.
   */
  constructor(
    readonly socket: WebSocket,
    readonly settings: ConnectionSettings,
    private readonly transport?: Corkable,
  ) {
    this.subscribeLimiter = new RateLimiter(settings.subscribeRateLimit);
    this.invalidLimiter = new RateLimiter(settings.invalidMessageRateLimit);
    this.#heads = {
      channel_data: Buffer.from(dataHead("channel_data", this.id)),
      channel_batch_data: Buffer.from(dataHead("channel_batch_data", this.id)),
    };
    socket.on("pong", () => {
      clearTimeout(this.#pongDeadline);
      this.#pongDeadline = undefined;
    });
    this.#ping = setInterval(() => this.#heartbeat(), settings.pingIntervalMs);
  }

  /** Whether the connection still takes messages in both directions. */
  get open(): boolean {
    return !this.#closing && this.socket.readyState === this.socket.OPEN;
  }

  /** How many live subscriptions the connection holds on `channel`. */
  count(channel: IndexerChannel): number {
    let n = 0;
    for (const subscription of this.live.values()) if (subscription.channel === channel) n++;
    return n;
  }

  /**
   * Writes one text frame (a string, or its UTF-8 bytes), or closes a slow consumer whose unsent
   * bytes passed the limit.
   */
  send(frame: string | Uint8Array): void {
    if (!this.open) return;
    if (this.socket.bufferedAmount > this.settings.maxBufferedBytes) {
      this.close(CLOSE.slowConsumer);
      return;
    }
    this.socket.send(frame, { binary: false });
  }

  /**
   * Numbers and writes a data frame: `message_id` goes up by one first (3.4). `tail` is the UTF-8
   * of the frame's shared end (`dataTail`), so the frame is built by copying bytes, not encoding.
   */
  sendData(type: DataFrameType, tail: Uint8Array): void {
    if (!this.open) return;
    this.messageId += 1;
    const head = this.#heads[type];
    const id = String(this.messageId);
    const frame = Buffer.allocUnsafe(head.length + id.length + tail.length);
    head.copy(frame, 0);
    frame.write(id, head.length, "latin1");
    frame.set(tail, head.length + id.length);
    this.send(frame);
  }

  /** Numbers and writes a run of data frames of one type, in order, passed on to the network together. */
  sendAll(type: DataFrameType, tails: readonly Uint8Array[]): void {
    if (tails.length === 1) {
      this.sendData(type, tails[0] as Uint8Array);
      return;
    }
    this.transport?.cork();
    try {
      for (const tail of tails) this.sendData(type, tail);
    } finally {
      this.transport?.uncork();
    }
  }

  /** Closes with a code; nothing more is sent or read. */
  close(how: { code: number; reason: string }): void {
    if (this.#closing) return;
    this.#closing = true;
    this.stopTimers();
    this.socket.close(how.code, how.reason);
  }

  /** Stops the heartbeat (on close). */
  stopTimers(): void {
    clearInterval(this.#ping);
    clearTimeout(this.#pongDeadline);
    this.#pongDeadline = undefined;
  }

  #heartbeat(): void {
    if (this.#pongDeadline !== undefined || !this.open) return;
    this.#pongDeadline = setTimeout(() => this.close(CLOSE.heartbeat), this.settings.pongTimeoutMs);
    this.socket.ping();
  }
}
