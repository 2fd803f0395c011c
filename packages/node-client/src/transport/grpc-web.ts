/**
 * gRPC-web over `fetch` through connect's web transport (HTTP/1.1 or 2,
 * `application/grpc-web+proto`): what a browser build speaks, and what Node speaks to a gRPC-web
 * endpoint (a Cosmos SDK node serves it on its API port). Nothing here loads connect-node or a
 * `node:` module.
 */
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import {
  checkGrpcWeb,
  type GrpcInput,
  grpcInterceptors,
  grpcOptionsOf,
  isTransport,
} from "./grpc-options.js";

/**
 * Opens a gRPC-web transport over `fetch` (binary protobuf), or returns an injected one.
 *
 * @throws {InvalidArgumentError} for a URL without an http(s) scheme, `protocol: "grpc"`, or a CA
 * certificate (`fetch` trusts the platform's CAs).
 *
 * @example
 * ```ts
 * const transport = openGrpcWeb({ url: devnet.endpoints.nodeRest });
 * ```
 */
export function openGrpcWeb(input: GrpcInput): Transport {
  if (isTransport(input)) return input;
  const options = grpcOptionsOf(input);
  checkGrpcWeb(options);
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
