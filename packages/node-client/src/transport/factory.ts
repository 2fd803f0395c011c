import type { GrpcConnection } from "./grpc.js";
import type { GrpcInput } from "./grpc-options.js";
import type { RpcConnection, RpcOptions } from "./rpc-json.js";

/**
 * How a client opens its RPC and gRPC transports on this platform. `#transport-platform` resolves to
 * the Node one (the `ws` socket, connect-node gRPC with gRPC-web on request, each
 * loaded on first use) or, under the `browser` condition, the web one (`fetch` and `WebSocket` RPC,
 * gRPC-web).
 *
 * @example
 * ```ts
 * const rpc = platformTransports.openRpc("http://127.0.0.1:26657");
 * ```
 */
export interface TransportFactory {
  /** Opens CometBFT RPC (nothing is dialled until the first call). */
  openRpc(options: RpcOptions): RpcConnection;
  /** Opens gRPC (or wraps an injected connect `Transport`). */
  openGrpc(input: GrpcInput): GrpcConnection;
}
