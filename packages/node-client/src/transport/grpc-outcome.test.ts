/**
 * Whether a failed gRPC broadcast may have reached the node, against hostile HTTP/2 and HTTP/1
 * servers on port 0: `nothingSent` is read from the client's own errors, never from a message the
 * server wrote, and a failure of the connection is a `TransportError`, never a `QueryError`.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import {
  createServer as createHttp2Server,
  type Http2Server,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from "node:http2";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeClient } from "../client.js";
import { isQueryError, isTransportError } from "../errors.js";
import { submitTx } from "../tx/broadcast.js";

/** Any bytes: the servers below never decode them. */
const txBytes = new Uint8Array([10, 0, 18, 0, 26, 0]);

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * An h2c server that reads each request to its end, counts it, then does `answer` with the stream.
 */
async function h2Server(answer: (stream: ServerHttp2Stream) => void) {
  const state = { requests: 0 };
  const server: Http2Server = createHttp2Server();
  const sessions = new Set<ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("error", () => {});
    session.on("close", () => sessions.delete(session));
  });
  server.on("stream", (stream) => {
    stream.on("error", () => {});
    stream.resume();
    stream.on("end", () => {
      state.requests++;
      answer(stream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state };
}

/** An HTTP/1.1 server (what gRPC-web goes over) that reads each request, counts it, then answers. */
async function httpServer(answer: (response: import("node:http").ServerResponse) => void) {
  const state = { requests: 0 };
  const server: Server = createHttpServer((request, response) => {
    request.resume();
    request.on("end", () => {
      state.requests++;
      answer(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state };
}

async function broadcast(grpc: string | { url: string; protocol: "grpc-web" }): Promise<unknown> {
  const client = createNodeClient({ grpc, chainId: "perpx-local-1" });
  try {
    return await submitTx(client, { txBytes, mode: "sync", transport: "grpc", timeoutMs: 30_000 }).catch(
      (error: unknown) => error,
    );
  } finally {
    client.close();
  }
}

describe("a failed gRPC broadcast the server read", () => {
  it("answered with a status naming ECONNREFUSED, may have been sent", async () => {
    const server = await h2Server((stream) => {
      stream.respond(
        {
          ":status": 200,
          "content-type": "application/grpc",
          "grpc-status": "14",
          "grpc-message": "dial tcp: connect ECONNREFUSED 10.0.0.7:26657",
        },
        { endStream: true },
      );
    });
    const error = await broadcast(server.url);
    expect(server.state.requests).toBe(1);
    expect(isTransportError(error)).toBe(true);
    expect((error as { nothingSent: boolean }).nothingSent).toBe(false);
  });

  it("answered with a status naming REFUSED_STREAM, is neither sent again nor said unsent", async () => {
    const server = await h2Server((stream) => {
      stream.respond(
        {
          ":status": 200,
          "content-type": "application/grpc",
          "grpc-status": "13",
          "grpc-message": "upstream stream error: REFUSED_STREAM",
        },
        { endStream: true },
      );
    });
    const error = await broadcast(server.url);
    expect(server.state.requests).toBe(1);
    expect(isTransportError(error) && error.nothingSent).toBe(false);
  });

  it("reset after it was read, is a TransportError that may have been sent", async () => {
    const server = await h2Server((stream) => stream.session?.destroy());
    const error = await broadcast(server.url);
    expect(server.state.requests).toBe(1);
    expect(isQueryError(error)).toBe(false);
    expect(isTransportError(error)).toBe(true);
    expect((error as { nothingSent: boolean }).nothingSent).toBe(false);
  });

  it("answered with an HTML error page, is a TransportError that may have been sent (gRPC and gRPC-web)", async () => {
    const h2 = await h2Server((stream) => {
      stream.respond({ ":status": 500, "content-type": "text/html" });
      stream.end("<html><body>Internal Server Error</body></html>");
    });
    const web = await httpServer((response) => {
      response.writeHead(500, { "content-type": "text/html" });
      response.end("<html><body>Internal Server Error</body></html>");
    });
    for (const [grpc, server] of [
      [h2.url, h2],
      [{ url: web.url, protocol: "grpc-web" as const }, web],
    ] as const) {
      const error = await broadcast(grpc);
      expect(server.state.requests).toBe(1);
      expect(isQueryError(error)).toBe(false);
      expect(isTransportError(error)).toBe(true);
      expect((error as { nothingSent: boolean }).nothingSent).toBe(false);
    }
  });

  it("answered half a gRPC-web body then closed, is a TransportError that may have been sent", async () => {
    const server = await httpServer((response) => {
      response.writeHead(200, { "content-type": "application/grpc-web+proto" });
      // A frame header announcing 100 bytes, three of them, then the connection ends.
      response.write(Buffer.from([0, 0, 0, 0, 100, 1, 2, 3]), () => response.socket?.destroy());
    });
    const error = await broadcast({ url: server.url, protocol: "grpc-web" });
    expect(server.state.requests).toBe(1);
    expect(isQueryError(error)).toBe(false);
    expect(isTransportError(error)).toBe(true);
    expect((error as { nothingSent: boolean }).nothingSent).toBe(false);
  });

  it("still tells a status of the node (QueryError) from a connection refused (nothing sent)", async () => {
    const server = await h2Server((stream) => {
      stream.respond(
        {
          ":status": 200,
          "content-type": "application/grpc",
          "grpc-status": "5",
          "grpc-message": "not found",
        },
        { endStream: true },
      );
    });
    const answered = await broadcast(server.url);
    expect(isQueryError(answered) && answered.notFound).toBe(true);
    const closed = createHttpServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    for (const grpc of [
      `http://127.0.0.1:${port}`,
      { url: `http://127.0.0.1:${port}`, protocol: "grpc-web" as const },
    ]) {
      const refused = await broadcast(grpc);
      expect(isTransportError(refused) && refused.nothingSent).toBe(true);
    }
  });
});
