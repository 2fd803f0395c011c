import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Http2SecureServer, Http2Server, Http2Session } from "node:http2";
import { type AddressInfo, Socket, type Server as TcpServer } from "node:net";
import { PerpxError } from "@perpx/errors";
import { DevnetError } from "../devnet-error.js";

/**
 * How long the devnet's servers wait for a client. A client that sends nothing, trickles its
 * request, or leaves a connection idle is disconnected after these; an answer being computed
 * (`broadcast_tx_commit` waiting for its block) and an open WebSocket are not cut.
 *
 * @example
 * ```ts
 * const timeouts: Partial<ServerTimeouts> = { headersMs: 5_000, requestMs: 5_000, http2IdleMs: 10_000 };
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0, timeouts });
 * await devnet.stop();
 * // requestMs (the whole request) may not be shorter than headersMs (10 s by default):
 * await startDevnet({ ports: "free", timeouts: { requestMs: 5_000 } }); // throws DevnetError
 * ```
 */
export interface ServerTimeouts {
  /** HTTP/1 (and the TLS handshake of gRPC TLS): ms to receive a request's headers from the connection's start. @default 10000 */
  headersMs: number;
  /** HTTP/1: ms to receive a whole request, headers and body (a trickled body is cut). @default 30000 */
  requestMs: number;
  /** HTTP/1 keep-alive: ms an idle connection stays open between requests. @default 5000 */
  keepAliveMs: number;
  /** HTTP/2 (gRPC over h2c and TLS): ms a session (connection) without any traffic stays open. @default 60000 */
  http2IdleMs: number;
}

/**
 * The servers' default timeouts.
 *
 * @example
 * ```ts
 * DEFAULT_SERVER_TIMEOUTS.requestMs; // 30_000
 * const timeouts = { ...DEFAULT_SERVER_TIMEOUTS, requestMs: 60_000 };
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0, timeouts });
 * await devnet.stop();
 * ```
 */
export const DEFAULT_SERVER_TIMEOUTS: Readonly<ServerTimeouts> = Object.freeze({
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  http2IdleMs: 60_000,
});

/** The timeouts with defaults filled in; throws a `DevnetError` (out-of-range) naming a bad one. */
export function resolveTimeouts(timeouts: Partial<ServerTimeouts> = {}): ServerTimeouts {
  const merged = { ...DEFAULT_SERVER_TIMEOUTS, ...timeouts };
  for (const [name, ms] of Object.entries(merged)) {
    if (!Number.isSafeInteger(ms) || ms < 1) {
      throw new DevnetError(
        "out-of-range",
        `timeouts.${name} must be a positive integer of milliseconds, got ${String(ms)}`,
      );
    }
  }
  if (merged.headersMs > merged.requestMs) {
    throw new DevnetError(
      "out-of-range",
      `timeouts.headersMs (${merged.headersMs}) must not exceed timeouts.requestMs (${merged.requestMs})`,
    );
  }
  return merged;
}

/** An HTTP/1 server that cuts slow and idle clients after `timeouts`. */
export function createHttpServer(
  timeouts: Partial<ServerTimeouts> | undefined,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  const t = resolveTimeouts(timeouts);
  return createServer(
    {
      headersTimeout: t.headersMs,
      requestTimeout: t.requestMs,
      keepAliveTimeout: t.keepAliveMs,
      // Node checks the header and request timeouts on this interval; a tenth of the shortest keeps
      // them accurate without a busy timer.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(t.headersMs / 10))),
    },
    handler,
  );
}

/** Closes HTTP/2 sessions (and the HTTP/1 fallback sockets of TLS) idle for `timeouts.http2IdleMs`. */
export function applyHttp2Timeouts(
  server: Http2Server | Http2SecureServer,
  timeouts: Partial<ServerTimeouts> | undefined,
): void {
  server.setTimeout(resolveTimeouts(timeouts).http2IdleMs);
  // Without a listener Node destroys an idle session outright, which can cut off a request the
  // client sent at that moment. It is closed as gRPC servers close one instead: a GOAWAY, then the
  // close once its streams are done. An idle HTTP/1 socket of the TLS fallback is destroyed.
  server.on("timeout", (idle: Http2Session | Socket) => {
    if (idle instanceof Socket) idle.destroy();
    else idle.close();
  });
}

/** The largest request body any devnet server reads (a tx is far smaller). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A request body that could not be read (too large, cut off); `status` is the HTTP answer's. */
export class BodyError extends PerpxError {
  override readonly name = "BodyError";

  /**
   * @param message - what was wrong with the body.
   * @param status - the HTTP status to answer with (413 too large, 400 unreadable).
   */
  constructor(
    message: string,
    readonly status: number,
  ) {
    super("INVALID_ARGUMENT", message);
  }
}

/**
 * Reads the whole request body, refusing more than {@link MAX_BODY_BYTES}. An oversize body is
 * read to its end (and dropped) before the refusal, so the answer reaches a client that is still
 * uploading: answering mid-upload can cut the response off on a busy machine.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) chunks = [];
      else chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > limit) reject(new BodyError(`request body exceeds ${limit} bytes`, 413));
      // A body that came in one chunk (a tx, most requests) is that chunk: no copy.
      else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    });
    req.on("error", reject);
  });
}

/** Writes `body` as JSON with `status`. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** Answers with JSON already serialized (`text`), e.g. a body cached between requests. */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "access-control-allow-origin": "*",
    ...headers,
  });
  res.end(text);
}

/** Answers a CORS preflight (every devnet server is open to browsers). */
export function sendCorsPreflight(res: ServerResponse): void {
  res.writeHead(204, {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": "*",
    "access-control-max-age": "600",
  });
  res.end();
}

type AnyServer = Server | Http2Server | Http2SecureServer | TcpServer;

/** Starts listening on `host:port` (0 = a free port) and resolves with the bound port. */
export function listen(server: AnyServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stops accepting connections, drops the open ones, and resolves once the server is closed. */
export function closeServer(server: AnyServer): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    if ("closeAllConnections" in server && typeof server.closeAllConnections === "function") {
      server.closeAllConnections();
    }
  });
}

/** Formats `http://host:port` (IPv6 hosts bracketed). */
export function urlOf(scheme: string, host: string, port: number): string {
  const h = host.includes(":") ? `[${host}]` : host;
  return `${scheme}://${h}:${port}`;
}
