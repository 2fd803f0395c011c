/**
 * gRPC options shared by both platforms, and gRPC-web over `fetch` through connect's web transport
 * (HTTP/1.1 or 2, `application/grpc-web+proto`): what a browser build speaks, and what Node speaks
 * to a gRPC-web endpoint (a Cosmos SDK node serves it on its API port). Nothing here loads
 * connect-node or a `node:` module.
 */
import { Code, ConnectError, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { InvalidArgumentError } from "@perpx/errors";

/**
 * Options of the gRPC transport.
 *
 * @example
 * ```ts
 * const grpc: GrpcOptions = { url: "https://grpc.example.com:443", headers: { "x-api-key": key } };
 * ```
 */
export interface GrpcOptions {
  /** `https://host:port` (TLS) or `http://host:port` (plaintext). */
  url: string;
  /**
   * The wire protocol: `grpc` (HTTP/2, Node only) or `grpc-web` (over `fetch`; a node serves it on
   * its API/REST port).
   * @default "grpc" in Node, "grpc-web" in a browser build
   */
  protocol?: "grpc" | "grpc-web";
  /**
   * PEM certificate(s) of a CA to trust besides the system ones, e.g. the devnet's self-signed
   * certificate (`grpc` only: `fetch` trusts the platform's CAs).
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
  /**
   * The `fetch` of a `grpc-web` transport.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
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

/**
 * True for an injected connect `Transport` (anything with `unary` and `stream`).
 *
 * @example
 * ```ts
 * isTransport(createGrpcWebTransport({ baseUrl })); // true
 * ```
 */
export function isTransport(value: unknown): value is Transport {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Transport).unary === "function" &&
    typeof (value as Transport).stream === "function"
  );
}

/**
 * The options of a URL or options input, its URL checked.
 *
 * @throws {InvalidArgumentError} for a URL without an http(s) scheme or an unknown protocol.
 *
 * @example
 * ```ts
 * grpcOptionsOf("http://127.0.0.1:1317").url; // "http://127.0.0.1:1317"
 * ```
 */
export function grpcOptionsOf(input: string | GrpcOptions): GrpcOptions {
  const options = typeof input === "string" ? { url: input } : input;
  if (typeof options.url !== "string" || !/^https?:\/\//i.test(options.url)) {
    throw new InvalidArgumentError(
      "grpc.url",
      `expected an http(s):// URL, got ${JSON.stringify(options.url)}`,
    );
  }
  if (options.protocol !== undefined && options.protocol !== "grpc" && options.protocol !== "grpc-web") {
    throw new InvalidArgumentError(
      "grpc.protocol",
      `must be "grpc" or "grpc-web", got ${JSON.stringify(options.protocol)}`,
    );
  }
  return options;
}

/**
 * The interceptors of a transport: one setting the configured headers, then the caller's.
 *
 * @example
 * ```ts
 * createGrpcWebTransport({ baseUrl, interceptors: grpcInterceptors(options) });
 * ```
 */
export function grpcInterceptors(options: GrpcOptions): Interceptor[] {
  const headers = options.headers ?? {};
  const headerInterceptor: Interceptor = (next) => (request) => {
    for (const [name, value] of Object.entries(headers)) request.header.set(name, value);
    return next(request);
  };
  return [headerInterceptor, ...(options.interceptors ?? [])];
}

/**
 * Opens a gRPC-web transport over `fetch` (binary protobuf), or returns an injected one.
 *
 * @throws {InvalidArgumentError} for a URL without an http(s) scheme, `protocol: "grpc"`, or a CA
 * certificate (`fetch` trusts the platform's CAs).
 *
 * @example
 * ```ts
 * const transport = openGrpcWeb({ url: devnet.endpoints.rest });
 * ```
 */
export function openGrpcWeb(input: GrpcInput): Transport {
  if (isTransport(input)) return input;
  const options = grpcOptionsOf(input);
  if (options.protocol === "grpc") {
    throw new InvalidArgumentError(
      "grpc.protocol",
      'gRPC over HTTP/2 needs Node; in a browser use "grpc-web" (a node serves it on its API port)',
    );
  }
  if (options.caCert !== undefined) {
    throw new InvalidArgumentError(
      "grpc.caCert",
      "a gRPC-web transport uses fetch, which trusts the platform's certificate authorities only",
    );
  }
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  return createGrpcWebTransport({
    baseUrl: options.url,
    useBinaryFormat: true,
    interceptors: grpcInterceptors(options),
    fetch: (input, init) =>
      doFetch(input, init).catch((error: unknown) => {
        // A request that never got an answer is Unavailable, as connect-node reports it, so the
        // client's errors are the same `TransportError` on both platforms.
        if (init?.signal?.aborted) throw error;
        throw new ConnectError(
          "the node could not be reached",
          Code.Unavailable,
          undefined,
          undefined,
          error,
        );
      }),
  });
}
