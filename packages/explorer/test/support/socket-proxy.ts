/**
 * A WebSocket proxy between the page and the indexer's socket, which the test can cut: `dropAll()`
 * ends every connection abruptly (as a lost network does), and `hold()` keeps new handshakes waiting
 * until `release()`, so the page stays disconnected for as long as the test looks.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";

/** The running proxy. */
export interface SocketProxy {
  /** `ws://127.0.0.1:<port>/v4/ws`. */
  readonly url: string;
  /** Open connections. */
  readonly open: () => number;
  /** New handshakes wait until {@link release}. */
  hold(): void;
  /** Lets waiting and new handshakes through. */
  release(): void;
  /** Ends every connection without a close handshake. */
  dropAll(): void;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (a full socket URL) on a free loopback port. */
export async function startSocketProxy(target: string): Promise<SocketProxy> {
  const wss = new WebSocketServer({ noServer: true });
  const clients = new Set<WebSocket>();
  const upstreams = new Set<WebSocket>();
  let held: Array<[IncomingMessage, Duplex, Buffer]> | undefined;

  const accept = (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    wss.handleUpgrade(req, socket, head, (client) => {
      const upstream = new WebSocket(target);
      clients.add(client);
      upstreams.add(upstream);
      const early: Array<[Buffer, boolean]> = [];
      client.on("message", (data: Buffer, binary: boolean) => {
        if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
        else early.push([data, binary]);
      });
      upstream.on("open", () => {
        for (const [data, binary] of early.splice(0)) upstream.send(data, { binary });
      });
      upstream.on("message", (data: Buffer, binary: boolean) => {
        if (client.readyState === WebSocket.OPEN) client.send(data, { binary });
      });
      const end = () => {
        clients.delete(client);
        upstreams.delete(upstream);
        client.terminate();
        upstream.terminate();
      };
      client.on("close", end);
      client.on("error", end);
      upstream.on("close", end);
      upstream.on("error", end);
    });

  const server = createServer((_req, res) => {
    res.writeHead(426).end();
  });
  server.on("upgrade", (req, socket, head) => {
    if (held) held.push([req, socket, head]);
    else accept(req, socket, head);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/v4/ws`,
    open: () => clients.size,
    hold: () => {
      held ??= [];
    },
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const [req, socket, head] of waiting) accept(req, socket, head);
    },
    dropAll: () => {
      for (const client of clients) client.terminate();
    },
    close: async () => {
      for (const [, socket] of held ?? []) socket.destroy();
      for (const socket of [...clients, ...upstreams]) socket.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
