import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Http2SecureServer, Http2Server } from "node:http2";
import type { AddressInfo } from "node:net";

/** The largest request body any devnet server reads (a tx is far smaller). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A request body that could not be read. */
export class BodyError extends Error {
  override readonly name = "BodyError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Reads the whole request body, refusing more than {@link MAX_BODY_BYTES}. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      if (tooLarge) return; // drain the rest so the 413 answer reaches the client
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks = [];
        reject(new BodyError(`request body exceeds ${limit} bytes`, 413));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!tooLarge) resolve(Buffer.concat(chunks));
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
  const text = JSON.stringify(body);
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

type AnyServer = Server | Http2Server | Http2SecureServer;

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
