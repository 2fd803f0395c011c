import type { Transport } from "@connectrpc/connect";
import type { GrpcInput } from "./grpc-web.js";
import type { RpcConnection, RpcOptions } from "./rpc-json.js";

/**
 * How a client opens its RPC and gRPC transports on this platform. `#transport-platform` resolves to
 * the Node one (cosmjs RPC, connect-node gRPC with gRPC-web on request) or, under the `browser`
 * condition, the web one (`fetch` and `WebSocket` RPC, gRPC-web).
 *
 * @example
 * ```ts
 * const rpc = platformTransports.openRpc("http://127.0.0.1:26657");
 * ```
 */
export interface TransportFactory {
  /** Opens CometBFT RPC. */
  openRpc(options: RpcOptions): RpcConnection;
  /** Opens gRPC (or returns an injected connect `Transport`). */
  openGrpc(input: GrpcInput): Transport;
}
