/**
 * The part of a WebSocket the indexer socket uses: the browser `WebSocket` and the `ws` package's
 * both fit. Node's `ws` adds protocol-level `ping()` and `ping`/`pong` events, which the socket uses
 * when present to probe a quiet server (a browser answers the server's pings itself but shows
 * them to no script).
 */

/**
 * A WebSocket instance as the indexer socket drives it.
 *
 * @example
 * ```ts
 * const closed: Pick<IndexerWebSocket, "readyState"> = { readyState: 3 };
 * closed.readyState; // 3
 * ```
 */
export interface IndexerWebSocket {
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onclose: ((event: { code?: number; reason?: string }) => void) | null;
  /** `ws` only: sends a protocol ping. */
  ping?: () => void;
  /** `ws` only: ends the socket at once, without a closing handshake. */
  terminate?: () => void;
  /** `ws` only: listens to protocol `ping` and `pong` frames. */
  on?: (event: "ping" | "pong", listener: () => void) => unknown;
  /** `ws` only: removes such a listener. */
  off?: (event: "ping" | "pong", listener: () => void) => unknown;
}

/**
 * A WebSocket constructor: `globalThis.WebSocket` in a browser, `ws`'s `WebSocket` in Node.
 *
 * @example
 * ```ts
 * import { WebSocket } from "ws";
 * const Socket = WebSocket as unknown as IndexerWebSocketConstructor;
 * typeof Socket; // "function"
 * ```
 */
export type IndexerWebSocketConstructor = new (url: string) => IndexerWebSocket;
