/**
 * A `ws` server made on the first upgrade request, so a start never loads `ws` (its module bodies,
 * with `https`, `tls` and `zlib`, cost a start about 2.5 ms). `import("ws")` is the only reference
 * to `ws` outside types: the command line's bundle keeps the module behind it unevaluated until
 * then.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { ServerOptions, WebSocket, WebSocketServer } from "ws";

/** The options of the server (it always runs in `noServer` mode: its owner routes the upgrades). */
export type OnDemandWebSocketOptions = Omit<ServerOptions, "noServer" | "server" | "port" | "host">;

/**
 * A `WebSocketServer` in `noServer` mode, built (and `ws` loaded) on the first
 * {@link OnDemandWebSocketServer.handleUpgrade}. Upgrades that arrive while `ws` loads wait for it,
 * in order; a socket error meanwhile destroys that socket (no listener would throw).
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 *
 * const sockets = new OnDemandWebSocketServer({ maxPayload: 1024 });
 * const httpServer = createServer();
 * httpServer.on("upgrade", (req, socket, head) =>
 *   sockets.handleUpgrade(req, socket, head, (ws) => ws.send("hello")),
 * );
 * sockets.close(); // no upgrade came: `ws` was never loaded
 * ```
 */
export class OnDemandWebSocketServer {
  private server: WebSocketServer | undefined;
  private loading: Promise<WebSocketServer> | undefined;
  private closed = false;

  constructor(private readonly options: OnDemandWebSocketOptions) {}

  /** Completes a WebSocket handshake as `WebSocketServer.handleUpgrade` does, once `ws` is loaded. */
  handleUpgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    callback: (ws: WebSocket, req: IncomingMessage) => void,
  ): void {
    if (this.server !== undefined) {
      this.server.handleUpgrade(req, socket, head, callback);
      return;
    }
    const onError = () => socket.destroy();
    socket.on("error", onError);
    this.loading ??= import("ws").then(({ WebSocketServer: Server }) => {
      this.server = new Server({ ...this.options, noServer: true });
      return this.server;
    });
    this.loading.then(
      (server) => {
        socket.off("error", onError);
        if (this.closed) socket.destroy();
        else server.handleUpgrade(req, socket, head, callback);
      },
      () => socket.destroy(),
    );
  }

  /** Closes the server (if made); upgrades still waiting for `ws` are refused. */
  close(): void {
    this.closed = true;
    this.server?.close();
  }
}
