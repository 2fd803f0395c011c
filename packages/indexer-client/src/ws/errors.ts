/**
 * The socket's typed errors, all on `PerpxError`: a socket that closed while a call needed it, a
 * server `error` message about a subscription, a frame that is not a server message, and a
 * subscription refused locally because the channel's per-connection cap is reached.
 */
import { errorGuard, PerpxError } from "@perpx/errors";

/**
 * The WebSocket closed (or was closed by `close()`) while something waited on it.
 *
 * @example
 * ```ts
 * const error = new WebSocketClosedError("the connection was closed by close()", { code: 1000 });
 * error.code; // "WEBSOCKET_CLOSED"
 * error.closeCode; // 1000
 * ```
 */
export class WebSocketClosedError extends PerpxError {
  override name = "WebSocketClosedError";
  /** The WebSocket close code, when the socket reported one. */
  readonly closeCode: number | undefined;

  /**
   * @param message - what closed and what it interrupted.
   * @param close - the close code and reason, when known, and the failure that closed it.
   */
  constructor(message: string, close: { code?: number; reason?: string; cause?: unknown } = {}) {
    super("WEBSOCKET_CLOSED", message, {
      ...(close.code === undefined
        ? {}
        : { metaMessages: [`close code: ${close.code} ${close.reason ?? ""}`.trim()] }),
      ...(close.cause === undefined ? {} : { cause: close.cause }),
    });
    this.closeCode = close.code;
  }
}

/**
 * True for a {@link WebSocketClosedError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isWebSocketClosedError(new WebSocketClosedError("closed")); // true
 * ```
 */
export const isWebSocketClosedError = errorGuard<WebSocketClosedError>("WebSocketClosedError");

/**
 * The indexer answered a subscription with an `error` message (an invalid id, a refused
 * compliance check, an initial fetch that failed, a cap reached on the server). `serverMessage` is
 * the server's text.
 *
 * @example
 * ```ts
 * const error = new IndexerSubscriptionError("v4_orderbook", "NOPE-USD", "Invalid subscription id for channel: (v4_orderbook-NOPE-USD)");
 * error.channel; // "v4_orderbook"
 * ```
 */
export class IndexerSubscriptionError extends PerpxError {
  override name = "IndexerSubscriptionError";
  /** The channel of the refused subscription. */
  readonly channel: string;
  /** Its id (the channel name for id-less channels). */
  readonly id: string;
  /** The server's `message`. */
  readonly serverMessage: string;

  /**
   * @param channel - the subscription's channel.
   * @param id - the subscription's id.
   * @param serverMessage - the server's error text.
   */
  constructor(channel: string, id: string, serverMessage: string) {
    super("INVALID_ARGUMENT", `The indexer refused the subscription ${channel} ${id}: ${serverMessage}`);
    this.channel = channel;
    this.id = id;
    this.serverMessage = serverMessage;
  }
}

/**
 * True for an {@link IndexerSubscriptionError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isIndexerSubscriptionError(new IndexerSubscriptionError("v4_trades", "X", "Invalid id: X")); // true
 * ```
 */
export const isIndexerSubscriptionError = errorGuard<IndexerSubscriptionError>("IndexerSubscriptionError");

/**
 * A subscription over the channel's per-connection cap (`v4_orderbook` 32, `v4_block_height` 1...):
 * refused before anything is sent, so the server never closes the connection for it.
 *
 * @example
 * ```ts
 * const error = new SubscriptionLimitError("v4_orderbook", 32);
 * error.limit; // 32
 * ```
 */
export class SubscriptionLimitError extends PerpxError {
  override name = "SubscriptionLimitError";
  /** The channel whose cap is reached. */
  readonly channel: string;
  /** The cap. */
  readonly limit: number;

  /**
   * @param channel - the channel.
   * @param limit - its per-connection cap.
   */
  constructor(channel: string, limit: number) {
    super(
      "INVALID_ARGUMENT",
      `Invalid subscription: ${channel} already has ${limit} subscriptions on this connection (its limit); unsubscribe one or open another connection`,
    );
    this.channel = channel;
    this.limit = limit;
  }
}

/**
 * True for a {@link SubscriptionLimitError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isSubscriptionLimitError(new SubscriptionLimitError("v4_orderbook", 32)); // true
 * ```
 */
export const isSubscriptionLimitError = errorGuard<SubscriptionLimitError>("SubscriptionLimitError");

/**
 * A frame from the server that is not a server message (not JSON, or no `type`): the connection
 * resyncs, since it may have carried an update.
 *
 * @example
 * ```ts
 * const error = new IndexerMessageError("not JSON", "{oops");
 * error.code; // "DECODE"
 * ```
 */
export class IndexerMessageError extends PerpxError {
  override name = "IndexerMessageError";

  /**
   * @param problem - what is wrong with the frame.
   * @param frame - the frame (its first 200 characters are shown).
   */
  constructor(problem: string, frame: string) {
    super("DECODE", `The indexer sent a frame that is not a server message: ${problem}`, {
      metaMessages: [`frame: ${frame.slice(0, 200)}`],
    });
  }
}

/**
 * A server message the client refused: its contents break the channel's contract (`path` names
 * the first bad field, from the contents' root: `bids[0][0]`, `trades[2].price`), or the frame is
 * larger than `maxFrameBytes` (`path` is empty, `channel` and `id` unknown). The subscription (or,
 * for a frame too large to read, the connection) resyncs from a fresh snapshot.
 *
 * @example
 * ```ts
 * const error = new IndexerFrameError({
 *   channel: "v4_orderbook", id: "BTC-USD", path: "bids[0][0]", problem: "must be a non-negative decimal string, got null",
 * });
 * error.code; // "DECODE"
 * error.path; // "bids[0][0]"
 * ```
 */
export class IndexerFrameError extends PerpxError {
  override name = "IndexerFrameError";
  /** The channel of the refused message, when known. */
  readonly channel: string | undefined;
  /** Its subscription id (the channel name for id-less channels), when known. */
  readonly id: string | undefined;
  /** The path of the first bad field in the contents (`""`: the contents, or the whole frame). */
  readonly path: string;

  /**
   * @param refused - the channel, id and field path, and what is wrong there.
   */
  constructor(refused: { channel?: string; id?: string; path: string; problem: string }) {
    const where = [refused.channel, refused.id].filter((part) => part !== undefined).join(" ");
    const field = refused.path === "" ? "contents" : refused.path;
    super(
      "DECODE",
      where === ""
        ? `The indexer sent a frame the client refused: ${refused.problem}`
        : `The indexer sent a ${where} message whose ${field} ${refused.problem}`,
    );
    this.channel = refused.channel;
    this.id = refused.id;
    this.path = refused.path;
  }
}

/**
 * True for an {@link IndexerFrameError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isIndexerFrameError(new IndexerFrameError({ path: "", problem: "is too large" })); // true
 * ```
 */
export const isIndexerFrameError = errorGuard<IndexerFrameError>("IndexerFrameError");

/**
 * A listener threw: of a subscription (or of a view built on one, such as a live order book)
 * while a snapshot or update was delivered, in which case the state it keeps may be half-applied
 * and the subscription resyncs from a fresh snapshot; or of the socket (`open`, `disconnect`...),
 * in which case nothing else happens. `cause` is what the listener threw; it never escapes into
 * the socket's callbacks.
 *
 * @example
 * ```ts
 * const error = new IndexerListenerError("update", new Error("boom"), { channel: "v4_trades", id: "BTC-USD" });
 * error.channel; // "v4_trades"
 * error.event; // "update"
 * ```
 */
export class IndexerListenerError extends PerpxError {
  override name = "IndexerListenerError";
  /** The event whose listener threw. */
  readonly event: string;
  /** The channel of the subscription, for a subscription's listener. */
  readonly channel: string | undefined;
  /** Its id, for a subscription's listener. */
  readonly id: string | undefined;

  /**
   * @param event - the event whose listener threw.
   * @param cause - what the listener threw.
   * @param subscription - the subscription's channel and id, for a subscription's listener.
   */
  constructor(event: string, cause: unknown, subscription: { channel?: string; id?: string } = {}) {
    const where =
      subscription.channel === undefined
        ? "the socket"
        : `${subscription.channel} ${subscription.id ?? ""}`.trim();
    super("DECODE", `A listener of ${where} threw on "${event}"`, { cause });
    this.event = event;
    this.channel = subscription.channel;
    this.id = subscription.id;
  }
}

/**
 * True for an {@link IndexerListenerError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isIndexerListenerError(new IndexerListenerError("open", new Error("boom"))); // true
 * ```
 */
export const isIndexerListenerError = errorGuard<IndexerListenerError>("IndexerListenerError");
