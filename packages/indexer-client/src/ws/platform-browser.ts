/**
 * The browser side of the WebSocket seam (`#ws-platform` resolves here under the `browser`
 * condition): the page's own `WebSocket`; nothing here imports `ws` or a `node:` module.
 */
import { InvalidArgumentError } from "@perpx/errors";
import type { IndexerWebSocketConstructor } from "./transport.js";

/**
 * The global `WebSocket` (its frames are measured as they arrive: a browser takes no limit).
 *
 * @param _maxFrameBytes - unused here.
 */
export async function loadWebSocket(_maxFrameBytes: number): Promise<IndexerWebSocketConstructor> {
  const global = globalThis as { WebSocket?: unknown };
  if (typeof global.WebSocket !== "function") {
    throw new InvalidArgumentError("WebSocket", "this environment has no global WebSocket: pass one");
  }
  return global.WebSocket as IndexerWebSocketConstructor;
}
