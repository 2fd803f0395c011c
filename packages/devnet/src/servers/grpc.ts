/**
 * gRPC (and gRPC-web and Connect, through connect-node's handler) over HTTP/2: plain h2c and TLS.
 * Every unary method of every served service is registered generically from the descriptors of
 * `@perpx/proto` and answered by the {@link Dispatcher}.
 */
import { createServer as createH2cServer, createSecureServer, type Http2Session } from "node:http2";
import type { DescMethod, DescMethodUnary } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
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
  /** The certificate of the TLS server. */
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
        const impl = (request: Parameters<Dispatcher["call"]>[1], context: HandlerContext) => {
          const height = parseHeight(context.requestHeader.get(HEIGHT_HEADER));
          const result = dispatcher.call(
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

function trackSessions(server: { on(event: "session", listener: (session: Http2Session) => void): unknown }) {
  const sessions = new Set<Http2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  return sessions;
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
  let adapter: ReturnType<typeof connectNodeAdapter> | undefined;
  // Built on the first request: its routes come from the descriptors of every served service.
  const handler: ReturnType<typeof connectNodeAdapter> = (request, response) => {
    // A message over the servers' body limit is refused (ResourceExhausted) before it is buffered whole.
    adapter ??= connectNodeAdapter({ routes: grpcRoutes(options.dispatcher), readMaxBytes: MAX_BODY_BYTES });
    adapter(request, response);
  };
  const plain = createH2cServer(handler);
  const secure = createSecureServer(
    {
      key: options.tls.key,
      cert: options.tls.cert,
      allowHTTP1: true,
      handshakeTimeout: resolveTimeouts(options.timeouts).headersMs,
    },
    handler,
  );
  applyHttp2Timeouts(plain, options.timeouts);
  applyHttp2Timeouts(secure, options.timeouts);
  const sessions = [trackSessions(plain), trackSessions(secure)];
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
      for (const set of sessions) for (const session of set) session.destroy();
      await Promise.all(closing);
    },
  };
}
