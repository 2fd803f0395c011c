/**
 * The browser side of the transport seam (`#transport-platform` resolves here under the `browser`
 * condition): nothing here loads cosmjs, connect-node, ws or a `node:` module.
 */
import type { TransportFactory } from "./factory.js";
import { openGrpc } from "./grpc.js";
import { checkGrpcWeb } from "./grpc-options.js";
import { openGrpcWeb } from "./grpc-web.js";
import { openRpc, type RpcPlatform } from "./rpc.js";

const rpcPlatform: RpcPlatform = {};

/**
 * The browser's transports: CometBFT RPC over `fetch` and the global `WebSocket`, gRPC-web over
 * `fetch` (a node serves it on its API port).
 *
 * @example
 * ```ts
 * const grpc = platformTransports.openGrpc({ url: "http://127.0.0.1:1317" });
 * ```
 */
export const platformTransports: TransportFactory = {
  openRpc: (options) => openRpc(options, rpcPlatform),
  openGrpc: (input) =>
    openGrpc(input, async (options) => ({ transport: openGrpcWeb(options), close() {} }), checkGrpcWeb),
};
