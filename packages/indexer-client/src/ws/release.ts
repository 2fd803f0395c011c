/**
 * Ending one WebSocket: its listeners are detached, then it is closed (or cut, when abrupt or
 * still connecting) and the promise resolves once it reports closed. A server that never answers
 * the close frame (`ws` would wait 30 s) is cut after a grace period.
 */
import type { IndexerWebSocket } from "./transport.js";

/** How long a close waits for the server to answer the close frame before cutting the socket (ws). */
const CLOSE_GRACE_MS = 1_000;

const noop = (): void => {};

/**
 * Detaches and ends a socket; never throws.
 *
 * @param socket - the socket.
 * @param abrupt - cut it rather than close it politely.
 * @param detach - removes the connection's own `ws` listeners.
 * @returns resolves once the socket has closed.
 */
export function endSocket(socket: IndexerWebSocket, abrupt: boolean, detach: () => void): Promise<void> {
  detach();
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
    const done = (): void => {
      clearTimeout(grace);
      socket.onclose = null;
      resolve();
    };
    socket.onclose = done;
    try {
      if ((abrupt || socket.readyState === 0) && socket.terminate) {
        socket.terminate();
        return;
      }
      socket.close(socket.readyState === 0 ? undefined : 1000);
    } catch {
      // A socket that cannot even be closed is given up: nothing of it is used again.
      done();
      return;
    }
    const terminate = socket.terminate;
    if (terminate) {
      grace = setTimeout(() => {
        try {
          terminate.call(socket);
        } catch {
          done();
        }
      }, CLOSE_GRACE_MS);
    }
  });
}
