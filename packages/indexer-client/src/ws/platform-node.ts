/**
 * The Node side of the WebSocket seam (`#ws-platform` resolves here under every condition but
 * `browser`): the `ws` package, loaded on first use so importing the package loads nothing.
 */
import type { IndexerWebSocketConstructor } from "./transport.js";

/**
 * Loads `ws`'s WebSocket, set not to check text frames' UTF-8: the socket decodes every frame
 * with a strict decoder (`frame.ts`), which refuses what `ws` would, so each byte is checked once.
 *
 * @param maxFrameBytes - the largest message `ws` reads (`maxPayload`): a larger one is refused
 *   from its header, before its payload is buffered, with a `WS_ERR_UNSUPPORTED_MESSAGE_LENGTH` error.
 */
export async function loadWebSocket(maxFrameBytes: number): Promise<IndexerWebSocketConstructor> {
  const { WebSocket } = await import("ws");
  class IndexerNodeWebSocket extends WebSocket {
    constructor(url: string) {
      super(url, { skipUTF8Validation: true, maxPayload: maxFrameBytes });
    }
  }
  return IndexerNodeWebSocket as unknown as IndexerWebSocketConstructor;
}
