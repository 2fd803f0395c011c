/**
 * The indexer WebSocket connection: one socket at a time, reconnected with backoff and jitter when
 * it drops, stalls (idle timeout) or loses a message (a `message_id` gap, a reorder, a frame that
 * cannot be read); every live subscription is resubscribed on the new socket, paced under the
 * server's caps and rate rule, and sees `reset` then a fresh snapshot. `close()` ends it all.
 */

import type { IndexerChannel, IndexerChannelWithoutId } from "@perpx/core/indexer";
import { PerpxError as BaseError, type PerpxError, TimeoutError } from "@perpx/errors";
import { loadWebSocket } from "#ws-platform";
import { backoffDelayMs } from "./backoff.js";
import { Emitter } from "./emitter.js";
import { WebSocketClosedError } from "./errors.js";
import { type Frame, readFrame } from "./frame.js";
import { checkSocketOptions, type IndexerSocketOptions } from "./options.js";
import { SubscribePacer } from "./pacer.js";
import { Registry } from "./registry.js";
import { MessageSequence } from "./sequence.js";
import type { ResetReason, Subscription } from "./subscription.js";
import type { IndexerWebSocket, IndexerWebSocketConstructor } from "./transport.js";

/**
 * Why a socket was given up: the server closed it, it went silent past the idle timeout, a message
 * was lost (`gap`), came out of order (`reorder`), or could not be read (`malformed`).
 *
 * @example
 * ```ts
 * const cause: DisconnectCause = "stalled";
 * cause; // "stalled"
 * ```
 */
export type DisconnectCause = "closed" | "stalled" | "gap" | "reorder" | "malformed";

/**
 * The events of an {@link IndexerSocket}, by name.
 *
 * @example
 * ```ts
 * const event: IndexerSocketEvents["disconnect"] = { cause: "closed", code: 1012 };
 * event.code; // 1012
 * ```
 */
export interface IndexerSocketEvents {
  [event: string]: unknown;
  /** The server said `connected` (first connection and every reconnection). */
  open: { readonly connectionId: string };
  /** The socket was lost or given up; a reconnect follows unless the connection is closing. */
  disconnect: { readonly cause: DisconnectCause; readonly code?: number; readonly reason?: string };
  /** A reconnect attempt is scheduled. */
  reconnecting: { readonly attempt: number; readonly delayMs: number };
  /** A server `error` message not tied to a subscription, or a frame that could not be read. */
  error: PerpxError;
  /** The connection is closed for good; `error` when it gave up rather than being closed. */
  close: { readonly error?: PerpxError };
}

/**
 * Options of {@link IndexerSocket.subscribe}.
 *
 * @example
 * ```ts
 * const options: SubscribeOptions = { batched: true };
 * options.batched; // true
 * ```
 */
export interface SubscribeOptions {
  /**
   * Ask the server to batch updates (flushed every 250 ms as `channel_batch_data`); they are
   * delivered one by one either way.
   * @default false
   */
  readonly batched?: boolean;
}

const noop = (): void => {};

/** How long `close()` waits for the server to answer the close frame before cutting the socket (ws). */
const CLOSE_GRACE_MS = 1_000;

/**
 * A connection to an indexer's WebSocket; build it with {@link connectIndexerSocket}.
 *
 * @example
 * ```ts
 * const socket = await connectIndexerSocket({ url: devnet.endpoints.indexerWs });
 * const attempts: number[] = [];
 * socket.on("reconnecting", ({ attempt }) => attempts.push(attempt));
 * typeof socket.connectionId; // "string"
 * await socket.close();
 * attempts; // []
 * ```
 */
export class IndexerSocket extends Emitter<IndexerSocketEvents> {
  private socket: IndexerWebSocket | undefined;
  private connected = false;
  private readonly registry: Registry;
  private readonly sequence = new MessageSequence();
  private readonly pacer = new SubscribePacer();
  private heartbeatTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private paceTimer: ReturnType<typeof setTimeout> | undefined;
  private lastActivity = 0;
  /** Frames received (messages, pings, pongs); the heartbeat compares it with its last look. */
  private frames = 0;
  private framesSeen = 0;
  private pinged = false;
  private attempt = 0;
  private closing: Promise<void> | undefined;
  private starting: { resolve(): void; reject(error: PerpxError): void } | undefined;
  private id: string | undefined;
  private readonly idleMs: number;
  private readonly pingMs: number;
  private readonly onProtocolFrame = (): void => this.touch();
  private readonly tick = (): void => this.heartbeat();
  private readonly flush = (): void => this.sendQueued();

  /**
   * @param options - checked options.
   * @param Socket - the WebSocket constructor.
   */
  constructor(
    private readonly options: IndexerSocketOptions,
    private readonly Socket: IndexerWebSocketConstructor,
  ) {
    super();
    this.idleMs = options.idleTimeoutMs ?? 40_000;
    this.pingMs = options.pingIntervalMs ?? 15_000;
    this.registry = new Registry(
      () => this.sendQueued(),
      (channel, id) => this.sendUnsubscribe(channel, id),
    );
  }

  /** The server's id of the current connection, when connected. */
  get connectionId(): string | undefined {
    return this.connected ? this.id : undefined;
  }

  /** True once `close()` was called or the connection gave up. */
  get closed(): boolean {
    return this.closing !== undefined;
  }

  /**
   * Subscribes to a channel. `v4_markets` and `v4_block_height` take no id; the others take the
   * ticker (`BTC-USD`), `TICKER/RESOLUTION` for candles, or `address/number` for subaccounts.
   *
   * @returns the subscription: snapshot first, then updates, typed for the channel.
   * @throws {InvalidArgumentError} for an unknown channel, a missing id, or a duplicate.
   * @throws {SubscriptionLimitError} over the channel's per-connection cap.
   * @throws {WebSocketClosedError} after `close()`.
   *
   * @example
   * ```ts
   * const socket = await connectIndexerSocket({ url: devnet.endpoints.indexerWs });
   * const markets = socket.subscribe("v4_markets");
   * const trades = socket.subscribe("v4_trades", "BTC-USD", { batched: true });
   * "BTC-USD" in (await markets.ready()).markets; // true
   * Array.isArray((await trades.ready()).trades); // true
   * await socket.close();
   * ```
   */
  subscribe<C extends IndexerChannel>(
    channel: C,
    ...args: C extends IndexerChannelWithoutId
      ? [options?: SubscribeOptions]
      : [id: string, options?: SubscribeOptions]
  ): Subscription<C> {
    if (this.closing) throw new WebSocketClosedError("the indexer socket is closed: connect again");
    const [first, second] = args as [string | SubscribeOptions | undefined, SubscribeOptions | undefined];
    const id = typeof first === "string" ? first : undefined;
    const options = (typeof first === "string" ? second : first) ?? {};
    return this.registry.add(channel, id, options.batched === true);
  }

  /**
   * Closes the connection: every subscription ends, every timer is cleared, the socket is closed
   * and its listeners removed. Idempotent.
   *
   * @returns resolves when the socket has closed.
   */
  close(): Promise<void> {
    return this.shutdown(undefined);
  }

  /** Opens the first socket; resolves at `connected`. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.starting = undefined;
        const error = new TimeoutError("indexer WebSocket connect", this.options.connectTimeoutMs ?? 10_000);
        void this.shutdown(error).then(() => reject(error));
      }, this.options.connectTimeoutMs ?? 10_000);
      this.starting = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          void this.shutdown(error).then(() => reject(error));
        },
      };
      this.open();
    });
  }

  private open(): void {
    this.reconnectTimer = undefined;
    const socket = new this.Socket(this.options.url);
    this.socket = socket;
    this.lastActivity = Date.now();
    this.framesSeen = this.frames;
    this.pinged = false;
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = (event) => {
      if (socket === this.socket) this.lose("closed", event?.code, event?.reason);
    };
    socket.onerror = noop; // a close always follows
    socket.on?.("ping", this.onProtocolFrame);
    socket.on?.("pong", this.onProtocolFrame);
    this.heartbeat();
  }

  /** Counts a frame; the hot path does no clock read and no timer work. */
  private touch(): void {
    this.frames++;
  }

  /**
   * Runs every quarter of the idle timeout (or of the ping interval, when pinging is possible):
   * notes whether frames arrived since its last run, drops a socket silent for `idleTimeoutMs`
   * (so a stall is detected within 1.25 times the timeout), and pings a quiet server (ws only).
   */
  private heartbeat(): void {
    clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
    const socket = this.socket;
    if (!socket || this.idleMs === 0) return;
    const now = Date.now();
    if (this.frames !== this.framesSeen) {
      this.framesSeen = this.frames;
      this.lastActivity = now;
      this.pinged = false;
    }
    const quiet = now - this.lastActivity;
    if (quiet >= this.idleMs) {
      this.lose("stalled");
      return;
    }
    const canPing = socket.ping !== undefined && socket.readyState === 1;
    if (canPing && !this.pinged && quiet >= this.pingMs) {
      this.pinged = true;
      socket.ping?.();
    }
    const periodMs = Math.max(1, Math.min(this.idleMs, canPing ? this.pingMs : this.idleMs) / 4);
    this.heartbeatTimer = setTimeout(this.tick, periodMs);
  }

  private receive(data: unknown): void {
    this.touch();
    const frame = readFrame(data);
    if (frame instanceof BaseError) {
      this.emit("error", frame);
      this.lose("malformed");
      return;
    }
    this.dispatch(frame);
  }

  private dispatch(frame: Frame): void {
    const registry = this.registry;
    switch (frame.type) {
      case "connected":
        this.sequence.reset();
        this.sequence.record(frame.message_id, "reply", 0);
        this.connected = true;
        this.id = frame.connection_id;
        this.attempt = 0;
        this.starting?.resolve();
        this.starting = undefined;
        this.emit("open", { connectionId: frame.connection_id ?? "" });
        this.sendQueued();
        return;
      case "channel_data":
      case "channel_batch_data": {
        const verdict = this.sequence.record(frame.message_id, "data", registry.outstanding);
        if (verdict === "duplicate") return;
        if (verdict !== "ok") {
          this.lose(verdict);
          return;
        }
        registry.data(frame);
        return;
      }
      case "subscribed":
      case "unsubscribed":
        registry.replied();
        if (this.sequence.record(frame.message_id, "reply", registry.outstanding) === "gap") {
          this.lose("gap");
          return;
        }
        if (frame.type === "subscribed") registry.subscribed(frame);
        return;
      case "error": {
        const fresh = !this.sequence.has(frame.message_id);
        if (fresh) registry.replied();
        if (this.sequence.record(frame.message_id, "error", registry.outstanding) === "gap") {
          this.lose("gap");
          return;
        }
        const unclaimed = registry.refused(frame, fresh);
        if (unclaimed) this.emit("error", unclaimed);
        return;
      }
      default:
        return;
    }
  }

  private sendQueued(): void {
    const socket = this.socket;
    if (!socket || !this.connected || this.paceTimer !== undefined) return;
    const now = Date.now();
    const waitMs = this.registry.sendPending(now, this.pacer, (message) => socket.send(message));
    if (waitMs > 0) {
      this.paceTimer = setTimeout(() => {
        this.paceTimer = undefined;
        this.flush();
      }, waitMs);
    }
  }

  private sendUnsubscribe(channel: IndexerChannel, id: string | undefined): boolean {
    const socket = this.socket;
    if (!socket || !this.connected || socket.readyState !== 1) return false;
    socket.send(
      JSON.stringify(
        id === undefined ? { type: "unsubscribe", channel } : { type: "unsubscribe", channel, id },
      ),
    );
    return true;
  }

  /** Gives up the current socket and reconnects (or ends, without a reconnect policy). */
  private lose(cause: DisconnectCause, code?: number, reason?: string): void {
    const socket = this.socket;
    if (!socket) return;
    this.release(socket, cause !== "closed");
    this.emit("disconnect", {
      cause,
      ...(code === undefined ? {} : { code }),
      ...(reason === undefined ? {} : { reason }),
    });
    const resetReason: ResetReason = cause === "closed" || cause === "stalled" ? "reconnect" : "gap";
    this.registry.reset(resetReason);
    if (this.starting) {
      const starting = this.starting;
      this.starting = undefined;
      starting.reject(
        new WebSocketClosedError(
          `could not connect to the indexer WebSocket at ${this.options.url} (${cause})`,
          {
            ...(code === undefined ? {} : { code }),
            ...(reason === undefined ? {} : { reason }),
          },
        ),
      );
      return;
    }
    const policy = this.options.reconnect;
    const maxAttempts = policy === false ? 0 : (policy?.maxAttempts ?? Number.POSITIVE_INFINITY);
    if (this.attempt >= maxAttempts) {
      void this.shutdown(
        new WebSocketClosedError(`the indexer WebSocket dropped (${cause}) and reconnecting gave up`, {
          ...(code === undefined ? {} : { code }),
        }),
      );
      return;
    }
    // A lost message reconnects at once; a dropped or stalled socket backs off.
    const delayMs =
      resetReason === "gap"
        ? 0
        : backoffDelayMs(this.attempt, policy || {}, (this.options.random ?? Math.random)());
    this.attempt++;
    this.emit("reconnecting", { attempt: this.attempt, delayMs });
    this.reconnectTimer = setTimeout(() => this.open(), delayMs);
  }

  /** Detaches and ends a socket and the timers that served it. */
  private release(socket: IndexerWebSocket, abrupt: boolean): Promise<void> {
    this.socket = undefined;
    this.connected = false;
    clearTimeout(this.heartbeatTimer);
    clearTimeout(this.paceTimer);
    this.heartbeatTimer = undefined;
    this.paceTimer = undefined;
    this.pacer.clear();
    socket.off?.("ping", this.onProtocolFrame);
    socket.off?.("pong", this.onProtocolFrame);
    socket.onmessage = null;
    socket.onopen = null;
    socket.onerror = noop;
    return new Promise<void>((resolve) => {
      if (socket.readyState === 3) {
        socket.onclose = null;
        resolve();
        return;
      }
      let grace: ReturnType<typeof setTimeout> | undefined;
      socket.onclose = () => {
        clearTimeout(grace);
        socket.onclose = null;
        resolve();
      };
      if ((abrupt || socket.readyState === 0) && socket.terminate) {
        socket.terminate();
        return;
      }
      socket.close(socket.readyState === 0 ? undefined : 1000);
      // A server that never answers the close frame (ws would wait 30 s) is cut after a grace period.
      const terminate = socket.terminate;
      if (terminate) grace = setTimeout(() => terminate.call(socket), CLOSE_GRACE_MS);
    });
  }

  private shutdown(error: PerpxError | undefined): Promise<void> {
    if (this.closing) return this.closing;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.registry.endAll(error);
    const socket = this.socket;
    this.closing = (socket ? this.release(socket, false) : Promise.resolve()).then(() => {
      this.emit("close", error === undefined ? {} : { error });
      this.removeAllListeners();
    });
    return this.closing;
  }
}

/**
 * Connects to an indexer's WebSocket and resolves once the server says `connected`.
 *
 * @param options - the URL, an optional `WebSocket` constructor, heartbeat and reconnect policy.
 * @returns the connection.
 * @throws {InvalidArgumentError} for a bad option, before anything is opened.
 * @throws {WebSocketClosedError} when the first connection fails.
 * @throws {TimeoutError} when it takes longer than `connectTimeoutMs`.
 *
 * @example
 * ```ts
 * const socket = await connectIndexerSocket({ url: devnet.endpoints.indexerWs });
 * const heights = socket.subscribe("v4_block_height");
 * BigInt((await heights.ready()).height) > 0n; // true
 * await socket.close();
 * socket.closed; // true
 * ```
 */
export async function connectIndexerSocket(options: IndexerSocketOptions): Promise<IndexerSocket> {
  checkSocketOptions(options);
  const Socket = options.WebSocket ?? (await loadWebSocket());
  const socket = new IndexerSocket(options, Socket);
  await socket.start();
  return socket;
}
