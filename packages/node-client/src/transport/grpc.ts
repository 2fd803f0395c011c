import type { Interceptor, Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
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

/**
 * Opens a connect gRPC transport (HTTP/2; TLS for `https://`, with an optional custom CA), or
 * returns the injected one.
 *
 * @throws {InvalidArgumentError} for a URL without an http(s) scheme, or a CA on a plaintext URL.
 *
 * @example
 * ```ts
 * const transport = openGrpc({ url: devnet.endpoints.grpcTls, caCert: devnet.tls.cert });
 * ```
 */
export function openGrpc(input: GrpcInput): Transport {
  if (isTransport(input)) return input;
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
  return createGrpcTransport({
    baseUrl: options.url,
    interceptors: [headerInterceptor, ...(options.interceptors ?? [])],
    ...(ca === undefined ? {} : { nodeOptions: { ca } }),
  });
}
