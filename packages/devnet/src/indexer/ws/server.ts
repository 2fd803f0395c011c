/**
 * The indexer's WebSocket server (`spec/indexer-api.md` section 3) at `ws://host:port/v4/ws`: it
 * numbers, batches and writes what the {@link IndexerFeed} publishes and answers subscriptions with
 * the feed's snapshots. It never looks inside message contents: shaping them (including dropping
 * transfers between two children of one parent from `v4_parent_subaccounts`) is the feed's job.
 */
import type { IncomingMessage } from "node:http";
import {
  INDEXER_WS_BATCH_INTERVAL_MS,
  INDEXER_WS_PING_INTERVAL_MS,
  INDEXER_WS_PONG_TIMEOUT_MS,
} from "@perpx/core/indexer";
import type { WebSocket } from "ws";
import { closeServer, createHttpServer, listen, type ServerTimeouts, urlOf } from "../../servers/http.js";
import { OnDemandWebSocketServer } from "../../servers/ws-on-demand.js";
import type { IndexerFeed } from "../feed.js";
import { CLOSE, Connection, type ConnectionSettings, type Corkable } from "./connection.js";
import { connectedFrame, errorFrame } from "./envelopes.js";
import { SubscriptionHub } from "./hub.js";
import { dropConnection, handleFrame, type ProtocolContext } from "./protocol.js";

/** The path of the socket. */
export const INDEXER_WS_PATH = "/v4/ws";

/**
 * Options of {@link startIndexerWsServer}.
 *
 * @example
 * ```ts
 * const options: IndexerWsServerOptions = { feed: new Indexer(), port: 0, pingIntervalMs: 30_000 };
 * options.pingIntervalMs; // 30000
 * ```
 */
export interface IndexerWsServerOptions {
  /** The read models' channel messages and snapshots. */
  feed: IndexerFeed;
  /** Interface to bind. @default "127.0.0.1" */
  host?: string;
  /** Port; 0 picks a free port. @default 3003 */
  port?: number;
  /** Milliseconds between protocol pings to each client. @default 30000 */
  pingIntervalMs?: number;
  /** Milliseconds to wait for a pong before closing with 1011 `Heartbeat timeout`. @default 10000 */
  pongTimeoutMs?: number;
  /** Milliseconds between flushes of batched subscriptions. @default 250 */
  batchIntervalMs?: number;
  /**
   * Bytes a connection may have waiting to be sent; a client that lets more pile up is closed with
   * 1013 `{"message":"Slow consumer"}`. @default 16 MiB
   */
  maxBufferedBytes?: number;
  /** Largest client frame read; a bigger one closes the connection with 1009. @default 64 KiB */
  maxPayloadBytes?: number;
  /** Milliseconds `close()` waits for clients to answer the 1012 close before cutting them. @default 1000 */
  closeGraceMs?: number;
  /** HTTP header and request timeouts of the upgrade request. @default `DEFAULT_SERVER_TIMEOUTS` */
  timeouts?: Partial<ServerTimeouts>;
  /**
   * Told about a feed message whose contents cannot be serialized (it is dropped) and about a
   * connection whose socket threw on a write. @default ignore
   */
  onError?: (error: unknown) => void;
}

/**
 * A running indexer WebSocket server.
 *
 * @example
 * ```ts
 * const server: IndexerWsServer = await startIndexerWsServer({ feed: new Indexer(), port: 0 });
 * server.url === `ws://127.0.0.1:${server.port}/v4/ws`; // true
 * server.connectionCount; // 0
 * await server.close();
 * ```
 */
export interface IndexerWsServer {
  /** The socket URL, `ws://host:port/v4/ws`. */
  readonly url: string;
  readonly port: number;
  /** Open client connections (not counting those closing). */
  readonly connectionCount: number;
  /** Channel ids with at least one subscriber. */
  readonly topicCount: number;
  /** Closes every connection with 1012 `{"message":"Service restarting"}` and stops listening. */
  close(): Promise<void>;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isFinite(resolved) || resolved <= 0) {
    throw new RangeError(`${name} must be a positive number, got ${String(value)}`);
  }
  return resolved;
}

/**
 * Starts the indexer WebSocket server over a feed.
 *
 * @param options - the feed, interface, port, heartbeat, batching and buffer limits.
 * @returns the running server.
 * @throws RangeError naming an option that is not a positive number.
 * @example
 * ```ts
 * import WebSocket from "ws";
 *
 * const server = await startIndexerWsServer({ feed: new Indexer(), port: 0 });
 * const socket = new WebSocket(server.url);
 * const first = await new Promise<string>((resolve) => socket.once("message", (data) => resolve(String(data))));
 * JSON.parse(first).type; // "connected"
 * await server.close(); // the client gets 1012 {"message":"Service restarting"}
 * ```
 */
export async function startIndexerWsServer(options: IndexerWsServerOptions): Promise<IndexerWsServer> {
  const settings: ConnectionSettings = {
    pingIntervalMs: positive("pingIntervalMs", options.pingIntervalMs, INDEXER_WS_PING_INTERVAL_MS),
    pongTimeoutMs: positive("pongTimeoutMs", options.pongTimeoutMs, INDEXER_WS_PONG_TIMEOUT_MS),
    maxBufferedBytes: positive("maxBufferedBytes", options.maxBufferedBytes, 16 * 1024 * 1024),
    subscribeRateLimit: { points: 2, windowMs: 1000 },
    invalidMessageRateLimit: { points: 2, windowMs: 1000 },
  };
  const batchIntervalMs = positive("batchIntervalMs", options.batchIntervalMs, INDEXER_WS_BATCH_INTERVAL_MS);
  const closeGraceMs = positive("closeGraceMs", options.closeGraceMs, 1000);
  const host = options.host ?? "127.0.0.1";
  const hub = new SubscriptionHub(batchIntervalMs, options.onError);
  const context: ProtocolContext = { feed: options.feed, hub };
  const connections = new Set<Connection>();

  const http = createHttpServer(options.timeouts, (_req, res) => {
    res.writeHead(426, { "content-type": "text/plain", connection: "close" });
    res.end(`WebSocket only: connect to ${INDEXER_WS_PATH}`);
  });
  const wss = new OnDemandWebSocketServer({
    maxPayload: positive("maxPayloadBytes", options.maxPayloadBytes, 64 * 1024),
  });
  http.on("upgrade", (req: IncomingMessage, socket, head) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== INDEXER_WS_PATH) {
      socket.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, socket));
  });

  const accept = (socket: WebSocket, transport: Corkable) => {
    const connection = new Connection(socket, settings, transport);
    connections.add(connection);
    socket.on("message", (data) => {
      try {
        handleFrame(context, connection, data.toString());
      } catch {
        connection.send(errorFrame("Internal error", connection.id, connection.messageId));
      }
    });
    socket.on("error", () => undefined);
    socket.once("close", () => {
      connections.delete(connection);
      dropConnection(context, connection);
    });
    connection.send(connectedFrame(connection.id));
  };

  const stopFeed = options.feed.onMessages(
    (messages) => hub.publish(messages),
    (channel, id) => hub.has(channel, id),
  );
  let port: number;
  try {
    port = await listen(http, options.port ?? 3003, host);
  } catch (error) {
    stopFeed();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    url: `${urlOf("ws", host, port)}${INDEXER_WS_PATH}`,
    port,
    get connectionCount() {
      let open = 0;
      for (const connection of connections) if (connection.open) open++;
      return open;
    },
    get topicCount() {
      return hub.topicCount;
    },
    close: () => {
      closing ??= (async () => {
        stopFeed();
        hub.close();
        const closed = [...connections].map(
          (connection) =>
            new Promise<void>((resolve) => {
              if (connection.socket.readyState === connection.socket.CLOSED) resolve();
              else connection.socket.once("close", () => resolve());
            }),
        );
        for (const connection of connections) connection.close(CLOSE.restarting);
        const grace = setTimeout(() => {
          for (const connection of connections) connection.socket.terminate();
        }, closeGraceMs);
        await Promise.all(closed);
        clearTimeout(grace);
        wss.close();
        await closeServer(http);
      })();
      return closing;
    },
  };
}
