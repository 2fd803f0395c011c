import type { Interceptor, Transport } from "@connectrpc/connect";
import { InvalidArgumentError } from "@perpx/errors";
import { TransportError } from "../errors.js";

/**
 * Options of the gRPC transport.
 *
 * @example
 * ```ts
 * const grpc: GrpcOptions = { url: "https://grpc.example.com:443", headers: { "x-api-key": key } };
 * ```
 */
export interface GrpcOptions {
  /** `https://host:port` (TLS) or `http://host:port` (plaintext HTTP/2). */
  url: string;
  /**
   * PEM certificate(s) of a CA to trust besides the system ones, e.g. the devnet's self-signed
   * certificate.
   * @default undefined (system CAs only)
   */
  caCert?: string | Uint8Array;
  /**
   * Extra metadata sent with every call (an API key, say).
   * @default {}
   */
  headers?: Record<string, string>;
  /**
   * connect interceptors applied to every call.
   * @default []
   */
  interceptors?: Interceptor[];
}

/**
 * How to reach gRPC: a URL, options, or an injected connect `Transport`.
 *
 * @example
 * ```ts
 * const grpc: GrpcInput = { url: "https://127.0.0.1:9091", caCert: devnet.caPem };
 * ```
 */
export type GrpcInput = string | GrpcOptions | Transport;

function isTransport(value: unknown): value is Transport {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Transport).unary === "function" &&
    typeof (value as Transport).stream === "function"
  );
}

/** An open gRPC transport and a way to close the connection it holds. */
export interface GrpcConnection {
  /** The connect transport (dials on first call). */
  readonly transport: Transport;
  /** Closes the HTTP/2 session of a transport this package opened (an injected one is the caller's). */
  close(): void;
}

/** Builds the HTTP/2 transport: the one place the gRPC transport's dependency is imported. */
async function loadTransport(options: GrpcOptions): Promise<{ transport: Transport; close(): void }> {
  const { createGrpcTransport, Http2SessionManager } = await import("@connectrpc/connect-node");
  const headers = options.headers ?? {};
  const headerInterceptor: Interceptor = (next) => (request) => {
    for (const [name, value] of Object.entries(headers)) request.header.set(name, value);
    return next(request);
  };
  const ca =
    options.caCert === undefined
      ? undefined
      : typeof options.caCert === "string"
        ? options.caCert
        : Buffer.from(options.caCert);
  const sessionManager = new Http2SessionManager(options.url, {}, ca === undefined ? {} : { ca });
  const transport = createGrpcTransport({
    baseUrl: options.url,
    interceptors: [headerInterceptor, ...(options.interceptors ?? [])],
    sessionManager,
  });
  return { transport, close: () => sessionManager.abort() };
}

/**
 * Opens a connect gRPC transport (HTTP/2; TLS for `https://`, with an optional custom CA), or
 * takes the injected one. `@connectrpc/connect-node` loads, and the session dials, on the first call.
 *
 * @throws {InvalidArgumentError} for a URL without an http(s) scheme, or a CA on a plaintext URL.
 *
 * @example
 * ```ts
 * const grpc = openGrpc({ url: devnet.endpoints.grpcTls, caCert: devnet.caPem });
 * grpc.close();
 * ```
 */
export function openGrpc(input: GrpcInput): GrpcConnection {
  if (isTransport(input)) return { transport: input, close: () => {} };
  const options = typeof input === "string" ? { url: input } : input;
  if (!/^https?:\/\//i.test(options.url)) {
    throw new InvalidArgumentError(
      "grpc.url",
      `expected an http(s):// URL, got ${JSON.stringify(options.url)}`,
    );
  }
  const tls = /^https:/i.test(options.url);
  if (options.caCert !== undefined && !tls) {
    throw new InvalidArgumentError("grpc.caCert", "a CA certificate needs an https:// URL");
  }
  let loaded: Promise<{ transport: Transport; close(): void }> | undefined;
  let closed = false;
  const open = () => {
    if (closed) throw new TransportError("grpc", "the client is closed", { url: options.url });
    loaded ??= loadTransport(options);
    return loaded;
  };
  const transport: Transport = {
    async unary(...args) {
      return (await open()).transport.unary(...args);
    },
    async stream(...args) {
      return (await open()).transport.stream(...args);
    },
  };
  return {
    transport,
    close() {
      closed = true;
      loaded?.then((t) => t.close()).catch(() => {});
    },
  };
}

/** gRPC status codes the package reads (the numbers of connect's `Code`). */
export const GRPC_STATUS = {
  internal: 13,
  invalidArgument: 3,
  failedPrecondition: 9,
  notFound: 5,
  unauthenticated: 16,
  unavailable: 14,
  unknown: 2,
} as const;

/**
 * The status code and message of a failed gRPC call: a connect `ConnectError`'s, read by shape so
 * the connect runtime need not be loaded; anything else is `unknown` with its message.
 *
 * @example
 * ```ts
 * const { code, rawMessage } = grpcStatusOf(error);
 * ```
 */
export function grpcStatusOf(error: unknown): { code: number; rawMessage: string } {
  if (error instanceof Error && error.name === "ConnectError") {
    const shaped = error as Error & { code?: unknown; rawMessage?: unknown };
    if (typeof shaped.code === "number") {
      return {
        code: shaped.code,
        rawMessage: typeof shaped.rawMessage === "string" ? shaped.rawMessage : error.message,
      };
    }
  }
  return {
    code: GRPC_STATUS.unknown,
    rawMessage: error instanceof Error ? error.message : String(error),
  };
}
