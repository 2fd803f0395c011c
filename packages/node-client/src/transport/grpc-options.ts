/**
 * gRPC options shared by both platforms: their types, their checks, and the interceptors every
 * transport applies. Nothing here loads connect (types only).
 */
import type { Interceptor, Transport } from "@connectrpc/connect";
import { InvalidArgumentError } from "@perpx/errors";

/**
 * Options of the gRPC transport.
 *
 * @example
 * ```ts
 * const grpc: GrpcOptions = { url: "https://grpc.example.com:443", headers: { "x-api-key": "my-key" } };
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
 * import { createGrpcWebTransport } from "@connectrpc/connect-web";
 *
 * isTransport(createGrpcWebTransport({ baseUrl: "http://127.0.0.1:1317" })); // true
 * isTransport("http://127.0.0.1:9090"); // false
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
 * import { createGrpcWebTransport } from "@connectrpc/connect-web";
 *
 * const interceptors = grpcInterceptors({ url: "http://127.0.0.1:1317", headers: { "x-api-key": "my-key" } });
 * createGrpcWebTransport({ baseUrl: "http://127.0.0.1:1317", interceptors });
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
 * What gRPC-web cannot do: HTTP/2 gRPC (`protocol: "grpc"` needs Node) and a custom CA (`fetch`
 * trusts the platform's certificate authorities only).
 *
 * @throws {InvalidArgumentError} for either.
 *
 * @example
 * ```ts
 * checkGrpcWeb({ url: "http://127.0.0.1:1317", protocol: "grpc-web" }); // passes
 * ```
 */
export function checkGrpcWeb(options: GrpcOptions): void {
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
}
