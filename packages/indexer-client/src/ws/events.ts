/**
 * The public vocabulary of an indexer connection: why a socket was given up, the connection's
 * events, and the options of a subscribe.
 */
import type { IndexerChannel } from "@perpx/core/indexer";
import type { PerpxError } from "@perpx/errors";

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
 * The events of an `IndexerSocket`, by name.
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
  /** A reconnect attempt is scheduled (`delayMs` from the backoff schedule). */
  reconnecting: { readonly attempt: number; readonly delayMs: number };
  /**
   * A subscription's message was refused: the subscription is reset and subscribes again for a
   * fresh snapshot after `delayMs` (from the same backoff schedule as reconnects).
   */
  resyncing: { readonly channel: IndexerChannel; readonly id: string; readonly delayMs: number };
  /**
   * A server `error` message not tied to a subscription; a frame that could not be read or was too
   * large; a message whose contents break its channel's contract (`IndexerFrameError`, naming the
   * channel, id and field); a listener that threw (`IndexerListenerError`). A listener of `error`
   * that throws is ignored.
   */
  error: PerpxError;
  /** The connection is closed for good; `error` when it gave up rather than being closed. */
  close: { readonly error?: PerpxError };
}

/**
 * Options of `IndexerSocket.subscribe`.
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
