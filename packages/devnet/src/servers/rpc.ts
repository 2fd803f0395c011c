/**
 * CometBFT JSON-RPC (0.38) over HTTP and WebSocket. HTTP takes POSTed JSON-RPC 2.0 envelopes (single
 * or batch) and `GET /<method>?param=value` with CometBFT's URI conventions; `/websocket` takes the
 * same envelopes plus `subscribe`, `unsubscribe` and `unsubscribe_all`.
 *
 * The server composes `rpc/`: `framing.ts` (envelopes, routing, HTTP), `params.ts`, `errors.ts`,
 * and the methods by job: `info.ts`, `abci.ts`, `blocks.ts`, `block-search.ts`, `txs.ts`, `broadcast.ts`,
 * `subscriptions.ts`. Broadcasts are checked in the node's line of CheckTx (`check-line.ts`).
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { ChainApp } from "../app/contract.js";
import { type CheckLine, createCheckLine } from "./check-line.js";
import {
  BodyError,
  closeServer,
  createHttpServer,
  listen,
  type ServerTimeouts,
  sendJson,
  urlOf,
} from "./http.js";
import { abciMethods } from "./rpc/abci.js";
import { blockSearchMethods } from "./rpc/block-search.js";
import { blockMethods } from "./rpc/blocks.js";
import { createBroadcaster } from "./rpc/broadcast.js";
import { errorResponse, parseErrorResponse, RpcError, RpcErrorCode } from "./rpc/errors.js";
import { createRouter, isNotification, RPC_MAX_BODY_BYTES } from "./rpc/framing.js";
import { infoMethods } from "./rpc/info.js";
import { createSubscriptionHub } from "./rpc/subscriptions.js";
import { txMethods } from "./rpc/txs.js";
import { OnDemandWebSocketServer } from "./ws-on-demand.js";

/** Options of {@link startRpcServer}. */
export interface RpcServerOptions {
  /** The chain application the server reads and broadcasts to. */
  app: ChainApp;
  /** Interface to bind. @default "127.0.0.1" */
  host?: string;
  /** Port to bind; 0 picks a free port. @default 26657 */
  port?: number;
  /** How long `broadcast_tx_commit` waits for the tx to land in a block. @default 10000 */
  broadcastTxCommitTimeoutMs?: number;
  /** Most subscriptions one WebSocket client may hold. @default 100 */
  maxSubscriptionsPerClient?: number;
  /** Header, request and idle timeouts. @default `DEFAULT_SERVER_TIMEOUTS` */
  timeouts?: Partial<ServerTimeouts>;
  /**
   * The line of CheckTx the node's other transports share (its owner closes it). @default a line
   * of the server's own, closed with it
   */
  checkLine?: CheckLine;
}

/** A running CometBFT RPC server. */
export interface RpcServer {
  /** `http://host:port`; the WebSocket endpoint is `ws://host:port/websocket`. */
  readonly url: string;
  readonly websocketUrl: string;
  readonly port: number;
  /** Answers one JSON-RPC call as the HTTP endpoint would (for tests and in-process callers). */
  call(method: string, params?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Starts the CometBFT JSON-RPC server (HTTP and `/websocket`) over `app`.
 *
 * @param options - the application, interface and port.
 * @returns the running server; `close()` stops it and drops its WebSocket clients.
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const { app } = devnet;
 * const rpc = await startRpcServer({ app, port: 0 });
 * const status = (await rpc.call("status")) as { node_info: { network: string } };
 * status.node_info.network; // "perpx-local-1"
 * await rpc.close();
 * await devnet.stop();
 * ```
 */
export async function startRpcServer(options: RpcServerOptions): Promise<RpcServer> {
  const { app } = options;
  const host = options.host ?? "127.0.0.1";
  let rpcAddress = "tcp://127.0.0.1:26657";
  const ownsLine = options.checkLine === undefined;
  const line = options.checkLine ?? createCheckLine(app);
  const broadcaster = createBroadcaster(app, line, options.broadcastTxCommitTimeoutMs ?? 10_000);
  const hub = createSubscriptionHub(app, options.maxSubscriptionsPerClient ?? 100);
  const router = createRouter(
    {
      ...infoMethods(app, () => rpcAddress),
      ...abciMethods(app),
      ...broadcaster.methods,
      ...txMethods(app),
      ...blockMethods(app),
      ...blockSearchMethods(app),
    },
    hub,
  );
  const unsubscribeBlocks = app.onBlock((block) => {
    broadcaster.onBlock(block);
    hub.publish(block);
  });

  const server = createHttpServer(options.timeouts, (req, res) => {
    router.handleHttp(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else if (error instanceof BodyError) {
        // CometBFT reads the body through http.MaxBytesReader: 400, Invalid Request, Go's text.
        const data = `error reading request body: ${error.status === 413 ? "http: request body too large" : error.message}`;
        sendJson(res, 400, {
          jsonrpc: "2.0",
          error: { code: RpcErrorCode.InvalidRequest, message: "Invalid Request", data },
        });
      } else sendJson(res, 500, errorResponse(null, error));
    });
  });

  const wss = new OnDemandWebSocketServer({ maxPayload: RPC_MAX_BODY_BYTES });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/websocket" && path !== "/websocket/") {
      socket.end("HTTP/1.1 404 Not Found\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const client = hub.connect(ws);
      ws.on("message", (data, isBinary) => {
        if (isBinary) return;
        let parsed: unknown;
        try {
          parsed = JSON.parse(data.toString());
        } catch {
          ws.send(JSON.stringify(parseErrorResponse(data.toString())));
          return;
        }
        for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
          if (isNotification(item)) continue;
          router
            .answer(item, client)
            .then((reply) => {
              if (ws.readyState === 1) ws.send(JSON.stringify(reply));
            })
            .catch(() => undefined);
        }
      });
    });
  });

  const port = await listen(server, options.port ?? 26657, host);
  rpcAddress = `tcp://${host}:${port}`;

  return {
    url: urlOf("http", host, port),
    websocketUrl: `${urlOf("ws", host, port)}/websocket`,
    port,
    call: async (method, params) => {
      const reply = (await router.answer({ jsonrpc: "2.0", id: 0, method, params })) as {
        result?: unknown;
        error?: { code: number; message: string; data: string };
      };
      if (reply.error !== undefined)
        throw new RpcError(reply.error.code, reply.error.message, reply.error.data);
      return reply.result;
    },
    close: async () => {
      unsubscribeBlocks();
      broadcaster.close();
      const lineClosed = ownsLine ? line.close() : undefined;
      hub.close();
      wss.close();
      await closeServer(server);
      await lineClosed;
    },
  };
}
