/**
 * A local indexer stand-in for tests: a `node:http` server on a free loopback port answering from
 * a route table (by path), recording every request it got. Answers follow the reference's shapes;
 * a route may delay, set headers or answer differently on each call.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sparePorts } from "../../../../tests/support/spare-ports.js";

export interface FixtureAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON body, or raw text when `raw` is set. */
  body?: unknown;
  raw?: string;
  /** Hold the answer this long (the request's socket closing cancels it). */
  delayMs?: number;
}

export type FixtureRoute = FixtureAnswer | ((url: URL, call: number) => FixtureAnswer);

export interface RecordedRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  at: number;
}

export interface FixtureServer {
  baseUrl: string;
  requests: RecordedRequest[];
  route(path: string, answer: FixtureRoute): void;
  close(): Promise<void>;
}

const NOT_FOUND: FixtureAnswer = { status: 404, body: { error: "Not Found", errorCode: 404 } };

export async function startFixtureServer(routes: Record<string, FixtureRoute> = {}): Promise<FixtureServer> {
  const table = new Map(Object.entries(routes));
  const calls = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fixture");
    requests.push({ path: url.pathname, query: url.searchParams, headers: req.headers, at: Date.now() });
    const call = (calls.get(url.pathname) ?? 0) + 1;
    calls.set(url.pathname, call);
    const route = table.get(url.pathname);
    const answer: FixtureAnswer =
      route === undefined ? NOT_FOUND : typeof route === "function" ? route(url, call) : route;
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(answer.status ?? 200, {
        "content-type": answer.raw === undefined ? "application/json; charset=utf-8" : "text/plain",
        ...(answer.headers ?? {}),
      });
      res.end(answer.raw ?? JSON.stringify(answer.body ?? {}));
    };
    if (answer.delayMs) {
      const timer = setTimeout(send, answer.delayMs);
      res.on("close", () => clearTimeout(timer));
    } else {
      send();
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    route(path, answer) {
      table.set(path, answer);
      calls.delete(path);
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A loopback port with nothing listening on it: a spare one (below the kernel's ephemeral range),
 * which no parallel test's `listen(0)` can take while a test connects to it expecting a refusal,
 * as it could a port released by a server that listened on port 0.
 */
export async function closedPort(): Promise<number> {
  const [port] = await sparePorts(1);
  return port!;
}

export const ADDRESS = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
export const ADDRESS_HEX = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
