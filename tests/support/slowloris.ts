/**
 * Slowloris clients for the servers' slow-client tests: real loopback sockets that each send a
 * request line and part of a header, then trickle one more header byte at a time and never finish
 * the headers. The server's header timeout is what must end them.
 */
import { connect, type Socket } from "node:net";

/** A crowd of slow clients. */
export interface SlowClients {
  /** Sockets still open. */
  open(): number;
  /** Sockets the server ended (its FIN or reset), not this side. */
  closedByServer(): number;
  /** Stops trickling and destroys every socket still open. */
  stop(): void;
}

/**
 * Opens `count` sockets to `127.0.0.1:port`, each sending `GET <path>` and a partial header line,
 * then one byte per socket every `trickleMs`; resolves once every socket is connected.
 */
export async function openSlowClients(
  port: number,
  count: number,
  options: { path?: string; trickleMs?: number } = {},
): Promise<SlowClients> {
  const sockets = new Set<Socket>();
  let byServer = 0;
  let stopping = false;
  const one = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect({ port, host: "127.0.0.1" });
      socket.setNoDelay(true);
      socket.once("connect", () => {
        sockets.add(socket);
        socket.write(`GET ${options.path ?? "/"} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: a`);
        resolve(socket);
      });
      socket.once("error", reject);
      // Whatever the server answers (a 408) is read and dropped; its end closes our side too.
      socket.on("data", () => {});
      socket.on("close", () => {
        if (sockets.delete(socket) && !stopping) byServer += 1;
      });
    }).then((socket) => {
      socket.removeAllListeners("error");
      socket.on("error", () => {});
      return socket;
    });
  await Promise.all(Array.from({ length: count }, one));
  const trickle = setInterval(() => {
    for (const socket of sockets) if (socket.writable) socket.write("a");
  }, options.trickleMs ?? 500);
  return {
    open: () => sockets.size,
    closedByServer: () => byServer,
    stop() {
      stopping = true;
      clearInterval(trickle);
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
  };
}
