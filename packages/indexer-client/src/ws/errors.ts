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
   * @param close - the close code and reason, when known.
   */
  constructor(message: string, close: { code?: number; reason?: string } = {}) {
    super(
      "WEBSOCKET_CLOSED",
      message,
      close.code === undefined
        ? {}
        : { metaMessages: [`close code: ${close.code} ${close.reason ?? ""}`.trim()] },
    );
    this.closeCode = close.code;
  }
}

/**
 * True for a {@link WebSocketClosedError}.
 *
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
