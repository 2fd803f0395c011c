/**
 * The browser side of the transport seam (`#transport-platform` resolves here under the `browser`
 * condition): nothing here loads cosmjs, connect-node or a `node:` module.
 */
import type { TransportFactory } from "./factory.js";
import { openGrpcWeb } from "./grpc-web.js";
import { openWebRpc } from "./rpc-web.js";

/**
 * The browser's transports: CometBFT RPC over `fetch` and the global `WebSocket`, gRPC-web over
 * `fetch` (a node serves it on its API port).
 *
 * @example
 * ```ts
 * const grpc = platformTransports.openGrpc({ url: "http://127.0.0.1:1317" });
 * ```
 */
export const platformTransports: TransportFactory = { openRpc: openWebRpc, openGrpc: openGrpcWeb };
