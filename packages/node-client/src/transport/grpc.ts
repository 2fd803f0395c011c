import type { Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { InvalidArgumentError } from "@perpx/errors";
import { type GrpcInput, grpcInterceptors, grpcOptionsOf, isTransport, openGrpcWeb } from "./grpc-web.js";

/**
 * Opens a connect gRPC transport in Node (HTTP/2; TLS for `https://`, with an optional custom CA),
 * a gRPC-web one for `protocol: "grpc-web"`, or returns the injected one.
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
  const options = grpcOptionsOf(input);
  if (options.protocol === "grpc-web") return openGrpcWeb(options);
  const tls = /^https:/i.test(options.url);
  if (options.caCert !== undefined && !tls) {
    throw new InvalidArgumentError("grpc.caCert", "a CA certificate needs an https:// URL");
  }
  const ca =
    options.caCert === undefined
      ? undefined
      : typeof options.caCert === "string"
        ? options.caCert
        : Buffer.from(options.caCert);
  return createGrpcTransport({
    baseUrl: options.url,
    interceptors: grpcInterceptors(options),
    ...(ca === undefined ? {} : { nodeOptions: { ca } }),
  });
}
