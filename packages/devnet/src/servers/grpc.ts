/**
 * gRPC (and gRPC-web and Connect, through connect-node's handler) over HTTP/2: plain h2c and TLS.
 * Every unary method of every served service is registered generically from the descriptors of
 * `@perpx/proto` and answered by the {@link Dispatcher}.
 *
 * Both ports are bound by plain TCP listeners; the HTTP/2 servers (and the TLS context) are built
 * on the first connection, which is handed to them as it arrives, and connect-node's handler on the
 * first request: a devnet that no gRPC client talks to never loads `node:http2`, connect-node nor
 * `zlib`, and never parses its key.
 */
import type { Http2SecureServer, Http2Server, Http2Session } from "node:http2";
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from "node:net";
import type { DescMethod, DescMethodUnary } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import type { connectNodeAdapter } from "@connectrpc/connect-node";
import type { Dispatcher } from "./dispatch.js";
import {
  applyHttp2Timeouts,
  listen,
  MAX_BODY_BYTES,
  resolveTimeouts,
  type ServerTimeouts,
  urlOf,
} from "./http.js";
import type { TlsMaterial } from "./tls.js";

/** The header carrying the height a query is for (request and response), as Cosmos SDK nodes use it. */
export const HEIGHT_HEADER = "x-cosmos-block-height";

/** Options of {@link startGrpcServers}. */
export interface GrpcServerOptions {
  dispatcher: Dispatcher;
  /** The certificate of the TLS server: a pair Node accepts (it is parsed on the first TLS connection). */
  tls: TlsMaterial;
  /** Interface to bind. @default "127.0.0.1" */
  host?: string;
  /** Port of plain HTTP/2 (h2c); 0 picks a free port. @default 9090 */
  port?: number;
  /** Port of HTTP/2 over TLS; 0 picks a free port. @default 9091 */
  tlsPort?: number;
  /** Header, request and idle timeouts. @default `DEFAULT_SERVER_TIMEOUTS` */
  timeouts?: Partial<ServerTimeouts>;
}

/** The running gRPC servers. */
export interface GrpcServers {
  /** `http://host:port` (h2c). */
  readonly url: string;
  /** `https://host:port` (TLS; the certificate names `localhost`, `127.0.0.1` and `::1`). */
  readonly tlsUrl: string;
  readonly port: number;
  readonly tlsPort: number;
  close(): Promise<void>;
}

/** The height of an `x-cosmos-block-height` request header, if any. @throws {ConnectError} for a bad one. */
export function parseHeight(header: string | null): bigint | undefined {
  if (header === null || header === "") return undefined;
  if (!/^\d{1,19}$/.test(header)) {
    throw new ConnectError(
      `invalid ${HEIGHT_HEADER} header "${header}": expected a block height`,
      Code.InvalidArgument,
    );
  }
  return BigInt(header);
}

/** Registers every unary method of every service the dispatcher serves. */
export function grpcRoutes(dispatcher: Dispatcher): (router: ConnectRouter) => void {
  return (router) => {
    for (const service of dispatcher.services) {
      for (const method of service.methods) {
        if (method.methodKind !== "unary") continue;
        const impl = async (request: Parameters<Dispatcher["call"]>[1], context: HandlerContext) => {
          const height = parseHeight(context.requestHeader.get(HEIGHT_HEADER));
          const result = await dispatcher.call(
            method as DescMethod,
            request,
            height === undefined ? {} : { height },
          );
          context.responseHeader.set(HEIGHT_HEADER, result.height.toString());
          return result.response;
        };
        router.rpc(method as DescMethodUnary, impl as never);
      }
    }
  };
}

/** `node:http2`, loaded when first needed (a built-in: no module resolution). */
function http2(): typeof import("node:http2") {
  return process.getBuiltinModule("node:http2");
}

/** Applies the idle timeout to `server` and keeps its open sessions in `sessions` (to drop them at close). */
function withSessions<S extends Http2Server | Http2SecureServer>(
  server: S,
  timeouts: ServerTimeouts,
  sessions: Set<Http2Session>,
): S {
  applyHttp2Timeouts(server, timeouts);
  server.on("session", (session: Http2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  return server;
}

/**
 * A TCP listener that hands every connection to the server `build` returns, built on the first
 * connection (synchronously: the socket reaches it before any byte is read). `servers` receives
 * the built server, to close with the listener.
 */
function onFirstConnection(
  build: () => Http2Server | Http2SecureServer,
  servers: Array<Http2Server | Http2SecureServer>,
): TcpServer {
  let server: Http2Server | Http2SecureServer | undefined;
  return createTcpServer((socket: Socket) => {
    if (server === undefined) {
      server = build();
      servers.push(server);
      // What Node starts when a server listens: for TLS with HTTP/1, the tracking of HTTP/1
      // connections (their header and request timeouts, closing the idle ones at close).
      server.emit("listening");
    }
    server.emit("connection", socket);
  });
}

/**
 * Starts gRPC over h2c and over TLS, both answering every served service.
 *
 * @param options - dispatcher, certificate, interface and ports.
 * @returns the running servers.
 * @example
 * ```ts
 * import { createClient } from "@connectrpc/connect";
 * import { createGrpcTransport } from "@connectrpc/connect-node";
 * import { cosmosBank } from "@perpx/proto";
 *
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const { app } = devnet;
 * const tls = generateTlsCertificate();
 * const grpc = await startGrpcServers({ dispatcher: createDispatcher(app), tls, port: 0, tlsPort: 0 });
 * const transport = createGrpcTransport({ baseUrl: grpc.tlsUrl, nodeOptions: { ca: tls.cert } });
 * const bank = createClient(cosmosBank.Query, transport);
 * (await bank.allBalances({ address: devnet.accounts[0]!.address })).balances.length > 0; // true
 * await grpc.close();
 * await devnet.stop();
 * ```
 */
export async function startGrpcServers(options: GrpcServerOptions): Promise<GrpcServers> {
  const host = options.host ?? "127.0.0.1";
  type NodeHandler = ReturnType<typeof connectNodeAdapter>;
  let adapter: NodeHandler | undefined;
  let loading: Promise<NodeHandler> | undefined;
  // Built on the first request, and connect-node loaded then (a start never evaluates it, nor
  // zlib): its routes come from the descriptors of every served service. Requests that arrive
  // meanwhile wait for it, unread.
  const handler: NodeHandler = (request, response) => {
    if (adapter !== undefined) {
      adapter(request, response);
      return;
    }
    loading ??= import("@connectrpc/connect-node").then((connectNode) => {
      // A message over the servers' body limit is refused (ResourceExhausted) before it is buffered whole.
      adapter = connectNode.connectNodeAdapter({
        routes: grpcRoutes(options.dispatcher),
        readMaxBytes: MAX_BODY_BYTES,
      });
      return adapter;
    });
    loading.then(
      (serve) => serve(request, response),
      () => response.destroy(),
    );
  };
  // Checked now (a bad one throws here), though the servers using them are built later.
  const timeouts = resolveTimeouts(options.timeouts);
  const sessions = new Set<Http2Session>();
  const built: Array<Http2Server | Http2SecureServer> = [];
  const plain = onFirstConnection(
    () => withSessions(http2().createServer(handler), timeouts, sessions),
    built,
  );
  const secure = onFirstConnection(() => {
    const server = http2().createSecureServer(
      {
        key: options.tls.key,
        cert: options.tls.cert,
        allowHTTP1: true,
        handshakeTimeout: timeouts.headersMs,
      },
      handler,
    );
    return withSessions(server, timeouts, sessions);
  }, built);
  const [port, tlsPort] = await Promise.all([
    listen(plain, options.port ?? 9090, host),
    listen(secure, options.tlsPort ?? 9091, host),
  ]);
  return {
    url: urlOf("http", host, port),
    tlsUrl: urlOf("https", host, tlsPort),
    port,
    tlsPort,
    close: async () => {
      const closing = [plain, secure].map(
        (server) =>
          new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
      );
      // Not listening themselves: their close only closes idle HTTP/1 connections (TLS) and sessions.
      for (const server of built) server.close();
      for (const session of sessions) session.destroy();
      await Promise.all(closing);
    },
  };
}
