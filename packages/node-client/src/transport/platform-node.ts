/**
 * The Node side of the transport seam (`#transport-platform` resolves here under every condition
 * but `browser`).
 */
import type { TransportFactory } from "./factory.js";
import { openGrpc } from "./grpc.js";
import { openRpc } from "./rpc.js";

/**
 * Node's transports: CometBFT RPC through cosmjs (HTTP over `fetch`, WebSocket through its socket),
 * gRPC over HTTP/2 through connect-node (gRPC-web with `protocol: "grpc-web"`).
 *
 * @example
 * ```ts
 * const grpc = platformTransports.openGrpc({ url: devnet.endpoints.grpcTls, caCert: devnet.caPem });
 * ```
 */
export const platformTransports: TransportFactory = { openRpc, openGrpc };
