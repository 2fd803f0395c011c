/**
 * The Node side of the WebSocket seam (`#ws-platform` resolves here under every condition but
 * `browser`): the `ws` package, loaded on first use so importing the package loads nothing.
 */
import type { IndexerWebSocketConstructor } from "./transport.js";

/** Loads `ws`'s WebSocket. */
export async function loadWebSocket(): Promise<IndexerWebSocketConstructor> {
  const { WebSocket } = await import("ws");
  return WebSocket as unknown as IndexerWebSocketConstructor;
}
