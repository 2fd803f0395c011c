/**
 * A controllable indexer WebSocket on loopback for fault tests: the protocol of
 * `spec/indexer-api.md` section 3 (connected, subscribe/unsubscribe, `message_id` numbering with
 * the reserved subscribe id, asynchronous snapshots, batching, caps, the 3-per-second rule) over a
 * real `ws` server, plus the faults a test drives: drop, stall, garbage, skipped ids, restart.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { sparePorts } from "../../../../tests/support/spare-ports.js";

const LIMITS: Record<string, number> = {
  v4_subaccounts: 256,
  v4_parent_subaccounts: 256,
  v4_orderbook: 32,
  v4_trades: 32,
  v4_candles: 32,
  v4_markets: 32,
  v4_block_height: 1,
};
const ID_LESS = new Set(["v4_markets", "v4_block_height"]);
/** The snapshot of a channel with nothing in it, as the contract writes it. */
const EMPTY_SNAPSHOTS: Record<string, object> = {
  v4_trades: { trades: [] },
  v4_candles: { candles: [] },
  v4_markets: { markets: {} },
  v4_block_height: { height: "1", time: "2026-01-01T00:00:00.000Z" },
};

interface Sub {
  batched: boolean;
  live: boolean;
  queued: object[];
  buffer: object[];
}

interface Conn {
  socket: WebSocket;
  raw: Socket;
  messageId: number;
  subs: Map<string, Sub>;
  attempts: Map<string, number[]>;
  stalled: boolean;
}

export interface FakeIndexerOptions {
  /** Delay before a `subscribed` (the snapshot fetch), ms. */
  snapshotDelayMs?: number;
  /** Batch flush period, ms. */
  batchMs?: number;
  /** The port; a spare one by default, which no parallel test takes while the fake is stopped. */
  port?: number;
  /**
   * An unsubscribe that arrives while the subscribe's snapshot is being read: `cancel` drops the
   * subscribe and its `subscribed` is never sent (the devnet's indexer); `ignore` is a no-op and the
   * subscription goes live anyway (the reference's socks, which lists a subscription only once its
   * snapshot is in).
   * @default "cancel"
   */
  pendingUnsubscribe?: "cancel" | "ignore";
}

type Levels = Map<string, string>;

/** The fake indexer. */
export class FakeIndexer {
  port = 0;
  readonly conns = new Set<Conn>();
  /** Truth order books by ticker. */
  readonly books = new Map<string, { bids: Levels; asks: Levels }>();
  /** Other snapshots by `channel id`. */
  readonly snapshots = new Map<string, object>();
  /** Subscribe messages received, in order. */
  readonly subscribes: string[] = [];
  private http: Server | undefined;
  private wss: WebSocketServer | undefined;
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private batchTimer: ReturnType<typeof setInterval> | undefined;
  private accepted = 0;

  constructor(private readonly options: FakeIndexerOptions = {}) {}

  get url(): string {
    return `ws://127.0.0.1:${this.port}/v4/ws`;
  }

  async start(): Promise<void> {
    this.http = createServer();
    this.wss = new WebSocketServer({ server: this.http });
    this.wss.on("connection", (socket, request) => this.accept(socket, request.socket));
    const port = this.options.port ?? (this.port || (await sparePorts(1))[0]!);
    await new Promise<void>((resolve) => this.http!.listen(port, "127.0.0.1", resolve));
    this.port = (this.http.address() as AddressInfo).port;
    this.batchTimer = setInterval(() => this.flushBatches(), this.options.batchMs ?? 20);
  }

  async stop(): Promise<void> {
    clearInterval(this.batchTimer);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const conn of this.conns) conn.raw.destroy();
    this.conns.clear();
    await new Promise<void>((resolve) => (this.wss ? this.wss.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => (this.http ? this.http.close(() => resolve()) : resolve()));
    this.http = undefined;
    this.wss = undefined;
  }

  /** Stops and starts again on the same port (every connection is lost, state kept). */
  async restart(): Promise<void> {
    const port = this.port;
    await this.stop();
    this.options.port = port;
    await this.start();
  }

  /** Cuts every connection's TCP socket. */
  dropAll(): void {
    for (const conn of this.conns) conn.raw.destroy();
  }

  /** Every connection goes silent: no data, no pings, no pongs (the socket stops reading). */
  stallAll(): void {
    for (const conn of this.conns) {
      conn.stalled = true;
      conn.raw.pause();
    }
  }

  /** Cuts the stalled connections. */
  dropStalled(): void {
    for (const conn of this.conns) if (conn.stalled) conn.raw.destroy();
  }

  /** Sends a raw text frame to every connection (bytes: sent as a text frame as they are). */
  sendRaw(text: string | Uint8Array): void {
    for (const conn of this.conns) if (!conn.stalled) conn.socket.send(text, { binary: false });
  }

  /** Loses `n` message ids on every connection (as if messages were dropped). */
  skipIds(n: number): void {
    for (const conn of this.conns) conn.messageId += n;
  }

  /** The open connections that are subscribed to `channel id`. */
  subscribers(channel: string, id: string): number {
    let count = 0;
    for (const conn of this.conns) if (conn.subs.get(`${channel} ${id}`)?.live) count++;
    return count;
  }

  /** Sets a level of a book (absolute size, "0" removes) and publishes the update. */
  setLevel(ticker: string, side: "bids" | "asks", price: string, size: string): void {
    const book = this.book(ticker);
    if (size === "0") book[side].delete(price);
    else book[side].set(price, size);
    this.publish("v4_orderbook", ticker, { [side]: [[price, size]] });
  }

  book(ticker: string): { bids: Levels; asks: Levels } {
    let book = this.books.get(ticker);
    if (!book) {
      book = { bids: new Map(), asks: new Map() };
      this.books.set(ticker, book);
    }
    return book;
  }

  /** Publishes an update to every subscriber of `channel id`. */
  publish(channel: string, id: string, contents: object, extra: object = {}): void {
    for (const conn of this.conns) {
      const sub = conn.subs.get(`${channel} ${ID_LESS.has(channel) ? channel : id}`);
      if (!sub) continue;
      const message = {
        channel,
        ...(channel === "v4_markets" ? {} : { id }),
        version: "1.0.0",
        contents,
        ...extra,
      };
      if (!sub.live) sub.queued.push(message);
      else if (sub.batched) sub.buffer.push(message);
      else this.send(conn, { type: "channel_data", ...message }, true);
    }
  }

  private snapshot(channel: string, id: string): object {
    if (channel === "v4_orderbook") {
      const book = this.book(id);
      const sorted = (levels: Levels, descending: boolean) =>
        [...levels.entries()]
          .sort(([a], [b]) => (descending ? Number(b) - Number(a) : Number(a) - Number(b)))
          .map(([price, size]) => ({ price, size }));
      return { bids: sorted(book.bids, true), asks: sorted(book.asks, false) };
    }
    return this.snapshots.get(`${channel} ${id}`) ?? EMPTY_SNAPSHOTS[channel] ?? {};
  }

  private accept(socket: WebSocket, raw: Socket): void {
    const conn: Conn = { socket, raw, messageId: 0, subs: new Map(), attempts: new Map(), stalled: false };
    this.conns.add(conn);
    socket.on("close", () => this.conns.delete(conn));
    socket.on("error", () => {});
    socket.on("message", (data) => this.receive(conn, String(data)));
    socket.send(JSON.stringify({ type: "connected", connection_id: `c${++this.accepted}`, message_id: 0 }));
  }

  private send(conn: Conn, message: object, increment: boolean): void {
    if (conn.stalled || conn.socket.readyState !== 1) return;
    if (increment) conn.messageId++;
    conn.socket.send(JSON.stringify({ ...message, connection_id: "c", message_id: conn.messageId }));
  }

  private error(conn: Conn, messageId: number, message: string, extra: object = {}): void {
    if (conn.socket.readyState !== 1) return;
    conn.socket.send(
      JSON.stringify({ type: "error", message, connection_id: "c", message_id: messageId, ...extra }),
    );
  }

  private receive(conn: Conn, text: string): void {
    if (conn.stalled) return;
    let message: { type?: string; channel?: string; id?: string; batched?: boolean };
    try {
      message = JSON.parse(text);
    } catch {
      this.error(conn, conn.messageId, "Invalid message: could not parse");
      return;
    }
    const channel = message.channel ?? "";
    const id = ID_LESS.has(channel) ? channel : (message.id ?? "");
    const key = `${channel} ${id}`;
    if (message.type === "unsubscribe") {
      const pending = conn.subs.get(key)?.live === false;
      if (!pending || this.options.pendingUnsubscribe !== "ignore") conn.subs.delete(key);
      conn.messageId++;
      conn.socket.send(
        JSON.stringify({ type: "unsubscribed", connection_id: "c", message_id: conn.messageId, channel, id }),
      );
      return;
    }
    if (message.type !== "subscribe") return;
    this.subscribes.push(key);
    const now = Date.now();
    const attempts = (conn.attempts.get(key) ?? []).filter((t) => now - t < 1000);
    attempts.push(now);
    conn.attempts.set(key, attempts);
    if (attempts.length >= 3) {
      this.error(
        conn,
        conn.messageId,
        `Too many subscribe attempts for channel ${channel}-${id}. Please  reconnect and try again.`,
      );
      conn.socket.close(1008, JSON.stringify({ message: "Rate limited" }));
      return;
    }
    const reserved = ++conn.messageId;
    if (conn.subs.has(key)) {
      this.error(conn, reserved, `Invalid subscribe message: already subscribed (${channel}-${id})`, {
        channel,
        id,
      });
      return;
    }
    const count = [...conn.subs.keys()].filter((k) => k.startsWith(`${channel} `)).length;
    if (count >= (LIMITS[channel] ?? 0)) {
      this.error(
        conn,
        reserved,
        `Per-connection subscription limit reached for ${channel} (limit=${LIMITS[channel]}).`,
      );
      return;
    }
    if (id.startsWith("INVALID")) {
      this.error(conn, reserved, `Invalid subscription id for channel: (${channel}-${id})`);
      return;
    }
    const sub: Sub = { batched: message.batched === true, live: false, queued: [], buffer: [] };
    conn.subs.set(key, sub);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (conn.subs.get(key) !== sub || conn.socket.readyState !== 1 || conn.stalled) return;
      const contents = this.snapshot(channel, id);
      conn.socket.send(
        JSON.stringify({
          type: "subscribed",
          connection_id: "c",
          message_id: reserved,
          channel,
          ...(channel === "v4_markets" ? {} : { id }),
          contents,
        }),
      );
      sub.live = true;
      for (const queued of sub.queued.splice(0)) this.send(conn, { type: "channel_data", ...queued }, true);
    }, this.options.snapshotDelayMs ?? 0);
    this.timers.add(timer);
  }

  private flushBatches(): void {
    for (const conn of this.conns) {
      for (const sub of conn.subs.values()) {
        if (!sub.buffer.length) continue;
        const messages = sub.buffer.splice(0) as { contents: object }[];
        const [first] = messages as [{ contents: object }];
        this.send(
          conn,
          { type: "channel_batch_data", ...first, contents: messages.map((m) => m.contents) },
          true,
        );
      }
    }
  }
}

/** Starts a fake indexer. */
export async function startFakeIndexer(options: FakeIndexerOptions = {}): Promise<FakeIndexer> {
  const fake = new FakeIndexer(options);
  await fake.start();
  return fake;
}
