/**
 * The indexer WebSocket connection: one socket at a time, reconnected with backoff and jitter when
 * it drops, stalls (idle timeout) or loses a message (a `message_id` gap, a reorder, a frame that
 * cannot be read or is too large); every live subscription is resubscribed on the new socket,
 * paced under the server's caps and rate rule, and sees `reset` then a fresh snapshot.
 *
 * Every socket event and timer runs through one guarded path: a message whose contents break the
 * channel's contract, or that a listener fails to apply, is an `error` event and a resync of that
 * subscription alone (unsubscribe, then subscribe for a fresh snapshot); anything else that throws
 * is an `error` event and a reconnect. Nothing thrown escapes into the WebSocket's or a timer's
 * callback, and `close()` always resolves. Reconnects and resyncs share one backoff schedule
 * (`schedule.ts`). `close()` ends it all.
 */

import { type LongTimeout, setLongTimeout } from "@perpx/core";
import type { IndexerChannel, IndexerChannelWithoutId } from "@perpx/core/indexer";
import { PerpxError as BaseError, isPerpxError, type PerpxError, TimeoutError } from "@perpx/errors";
import { Emitter } from "./emitter.js";
import { IndexerFrameError, IndexerListenerError, WebSocketClosedError } from "./errors.js";
import type { DisconnectCause, IndexerSocketEvents, SubscribeOptions } from "./events.js";
import { type Frame, oversize, readFrame } from "./frame.js";
import { Heartbeat } from "./heartbeat.js";
import type { IndexerSocketOptions } from "./options.js";
import { SubscribePacer } from "./pacer.js";
import { type Refusal, Registry } from "./registry.js";
import { endSocket } from "./release.js";
import { RetrySchedule } from "./schedule.js";
import { MessageSequence } from "./sequence.js";
import type { ResetReason, Subscription } from "./subscription.js";
import type { IndexerWebSocket, IndexerWebSocketConstructor } from "./transport.js";

/** `ws`'s error for a message over its `maxPayload` (`maxFrameBytes`), read from the frame header. */
function isOversizeError(event: unknown): boolean {
  const error = (event as { error?: { code?: unknown } } | null)?.error;
  return error?.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH";
}

/** The default of `maxFrameBytes`: 8 MiB. */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

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
  private reconnectTimer: LongTimeout | undefined;
  private paceTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bounds a reconnect's wait for `connected` (`connectTimeoutMs`; the first one's is `start`'s). */
  private connectTimer: LongTimeout | undefined;
  /** Reconnect attempts since the server was last reached (`maxAttempts` counts these). */
  private attempt = 0;
  private readonly schedule: RetrySchedule;
  private readonly maxFrameBytes: number;
  private closing: Promise<void> | undefined;
  private starting: { resolve(): void; reject(error: PerpxError): void } | undefined;
  private id: string | undefined;
  private readonly heartbeat: Heartbeat;
  private readonly onData = (data: unknown): void => this.guard(() => this.receive(data));
  private readonly flush = (): void => this.guard(() => this.sendQueued());

  /**
   * @param options - checked options.
   * @param Socket - the WebSocket constructor.
   */
  constructor(
    private readonly options: IndexerSocketOptions,
    private readonly Socket: IndexerWebSocketConstructor,
  ) {
    super();
    const idleMs = options.idleTimeoutMs ?? 40_000;
    this.heartbeat = new Heartbeat(
      idleMs,
      // A ping must have time to be answered before the idle timeout runs out.
      Math.min(options.pingIntervalMs ?? 15_000, idleMs > 0 ? idleMs / 2 : Number.POSITIVE_INFINITY),
      () => this.lose("stalled"),
      (task) => this.guard(task),
    );
    this.maxFrameBytes = options.maxFrameBytes ?? MAX_FRAME_BYTES;
    this.schedule = new RetrySchedule(options.reconnect || {}, options.random ?? Math.random);
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
   * @param channel - the channel, such as `v4_orderbook`.
   * @param args - the channel's id (a ticker or `address/subaccountNumber`) when it takes one, then
   *   options (`batched`).
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
      const timer = setLongTimeout(() => {
        this.starting = undefined;
        const error = new TimeoutError("indexer WebSocket connect", this.options.connectTimeoutMs ?? 10_000);
        void this.shutdown(error).then(() => reject(error));
      }, this.options.connectTimeoutMs ?? 10_000);
      this.starting = {
        resolve: () => {
          timer.clear();
          resolve();
        },
        reject: (error) => {
          timer.clear();
          void this.shutdown(error).then(() => reject(error));
        },
      };
      this.guard(() => this.open());
    });
  }

  /**
   * Runs a socket or timer callback: whatever it throws becomes an `error` event and a reconnect
   * (a subscription's own failures are handled closer, as resyncs), never an exception in the
   * WebSocket's or the timer's hands.
   */
  private guard(task: () => void): void {
    try {
      task();
    } catch (thrown) {
      try {
        this.fail(thrown);
      } catch {
        // Only a fault of the recovery itself lands here; the connection is closed for good then.
        void this.shutdown(new WebSocketClosedError("the indexer socket failed", { cause: thrown }));
      }
    }
  }

  /** An unexpected failure: reported, then the socket is given up and reconnected. */
  private fail(thrown: unknown): void {
    if (this.closing) return;
    const error = isPerpxError(thrown)
      ? thrown
      : new WebSocketClosedError("the indexer socket failed and reconnects", { cause: thrown });
    this.report(error);
    if (this.starting && !this.socket) {
      // The first socket could not even be made: connecting fails with that error.
      const starting = this.starting;
      this.starting = undefined;
      starting.reject(error);
    } else if (this.socket) this.lose("malformed");
    else if (this.reconnectTimer === undefined) this.retry("closed");
  }

  /** Emits `error`; a listener of `error` that throws is ignored (there is nowhere left to report it). */
  private report(error: PerpxError): void {
    this.emitGuarded("error", error);
  }

  /** Emits a socket event; a listener that throws is reported as an `IndexerListenerError`. */
  private notify<E extends "open" | "disconnect" | "reconnecting" | "resyncing" | "close">(
    event: E,
    value: IndexerSocketEvents[E],
  ): void {
    const failure = this.emitGuarded(event, value);
    if (failure) this.report(new IndexerListenerError(event, failure.thrown));
  }

  private open(): void {
    this.reconnectTimer = undefined;
    if (this.closing) return;
    const socket = new this.Socket(this.options.url);
    this.socket = socket;
    // \`ws\` hands messages to a listener directly; a browser socket through \`onmessage\`.
    if (socket.on) socket.on("message", this.onData);
    else socket.onmessage = (event) => this.guard(() => this.receive(event?.data));
    socket.onclose = (event) =>
      this.guard(() => {
        if (socket === this.socket) this.lose("closed", event?.code, event?.reason);
      });
    // A close always follows an error; `ws` refusing a message over `maxFrameBytes` is reported first.
    socket.onerror = (event) =>
      this.guard(() => {
        if (socket === this.socket && isOversizeError(event)) this.refuseOversize(undefined);
      });
    socket.on?.("ping", this.heartbeat.touch);
    socket.on?.("pong", this.heartbeat.touch);
    this.heartbeat.start(socket);
    if (!this.starting) {
      // A server that upgrades the socket and answers pings but never says `connected` would
      // otherwise hold every subscription queued for good: it is dropped as stalled.
      this.connectTimer = setLongTimeout(
        () =>
          this.guard(() => {
            this.connectTimer = undefined;
            if (socket === this.socket && !this.connected) this.lose("stalled");
          }),
        this.options.connectTimeoutMs ?? 10_000,
      );
    }
  }

  private receive(data: unknown): void {
    this.heartbeat.touch();
    const bytes = oversize(data, this.maxFrameBytes);
    if (bytes !== undefined) {
      this.refuseOversize(bytes);
      return;
    }
    const frame = readFrame(data);
    if (frame instanceof BaseError) {
      this.report(frame);
      this.lose("malformed");
      return;
    }
    this.dispatch(frame);
  }

  /** A frame over `maxFrameBytes` (`bytes` long, when known) is not read: reported, and the socket resyncs. */
  private refuseOversize(bytes: number | undefined): void {
    const size = bytes === undefined ? "is" : `is ${bytes} bytes,`;
    this.report(
      new IndexerFrameError({ path: "", problem: `${size} more than maxFrameBytes (${this.maxFrameBytes})` }),
    );
    this.lose("malformed");
  }

  /** A subscription's message was refused: resync that subscription (with backoff), report it. */
  private refuse(refusal: Refusal): void {
    const delayMs = this.schedule.nextDelayMs();
    const failure = this.registry.resync(refusal.key, Date.now() + delayMs);
    this.report(refusal.error);
    if (failure) this.report(failure);
    this.notify("resyncing", { channel: refusal.channel, id: refusal.id, delayMs });
    this.sendQueued();
  }

  private dispatch(frame: Frame): void {
    const registry = this.registry;
    switch (frame.type) {
      case "connected":
        this.connectTimer?.clear();
        this.connectTimer = undefined;
        this.sequence.reset();
        this.sequence.record(frame.message_id, "reply", 0);
        this.connected = true;
        this.id = typeof frame.connection_id === "string" ? frame.connection_id : undefined;
        this.attempt = 0;
        this.schedule.connected();
        this.starting?.resolve();
        this.starting = undefined;
        this.notify("open", { connectionId: this.id ?? "" });
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
        const refusal = registry.data(frame);
        if (refusal) this.refuse(refusal);
        return;
      }
      case "subscribed":
      case "unsubscribed":
        registry.replied();
        if (this.sequence.record(frame.message_id, "reply", registry.outstanding) === "gap") {
          this.lose("gap");
          return;
        }
        if (frame.type === "subscribed") {
          const refusal = registry.subscribed(frame);
          if (refusal) this.refuse(refusal);
        }
        return;
      case "error": {
        const fresh = !this.sequence.has(frame.message_id);
        if (fresh) registry.replied();
        if (this.sequence.record(frame.message_id, "error", registry.outstanding) === "gap") {
          this.lose("gap");
          return;
        }
        const unclaimed = registry.refused(frame, fresh);
        if (unclaimed) this.report(unclaimed);
        return;
      }
      default:
        return;
    }
  }

  private sendQueued(): void {
    const socket = this.socket;
    if (!socket || !this.connected) return;
    clearTimeout(this.paceTimer);
    this.paceTimer = undefined;
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
    void this.release(socket, cause !== "closed");
    this.notify("disconnect", {
      cause,
      ...(code === undefined ? {} : { code }),
      ...(reason === undefined ? {} : { reason }),
    });
    const resetReason: ResetReason = cause === "closed" || cause === "stalled" ? "reconnect" : "gap";
    for (const failure of this.registry.reset(resetReason)) this.report(failure);
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
    this.retry(cause, code);
  }

  /** Schedules the next socket, after the backoff schedule's delay; or gives up. */
  private retry(cause: DisconnectCause, code?: number): void {
    if (this.closing) return;
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
    // Every reconnect backs off, a lost message's included: a server that fails right after each
    // connect meets growing delays, and the schedule starts over only after a stable stretch.
    const delayMs = this.schedule.nextDelayMs();
    this.schedule.disconnected();
    this.attempt++;
    this.reconnectTimer = setLongTimeout(() => this.guard(() => this.open()), delayMs);
    this.notify("reconnecting", { attempt: this.attempt, delayMs });
  }

  /** Detaches and ends a socket and the timers that served it. */
  private release(socket: IndexerWebSocket, abrupt: boolean): Promise<void> {
    this.socket = undefined;
    this.connected = false;
    this.heartbeat.stop();
    clearTimeout(this.paceTimer);
    this.paceTimer = undefined;
    this.connectTimer?.clear();
    this.connectTimer = undefined;
    this.pacer.clear();
    return endSocket(socket, abrupt, () => {
      socket.off?.("ping", this.heartbeat.touch);
      socket.off?.("pong", this.heartbeat.touch);
      socket.off?.("message", this.onData);
    });
  }

  private shutdown(error: PerpxError | undefined): Promise<void> {
    if (this.closing) return this.closing;
    this.reconnectTimer?.clear();
    this.reconnectTimer = undefined;
    const socket = this.socket;
    const released = socket ? this.release(socket, false) : Promise.resolve();
    this.closing = released.then(() => {
      this.notify("close", error === undefined ? {} : { error });
      this.removeAllListeners();
    });
    for (const failure of this.registry.endAll(error)) this.report(failure);
    return this.closing;
  }
}
