/**
 * The Node side of the transport seam (`#transport-platform` resolves here under every condition
 * but `browser`). Every transport library is loaded here, on first use: `ws` for a WebSocket RPC,
 * connect-node for gRPC over HTTP/2 (connect-web for gRPC-web), so importing the package loads
 * none of them. The CometBFT answers are decoded by our own `comet-json.ts`, as in a browser.
 */
import type { Transport } from "@connectrpc/connect";
import { InvalidArgumentError } from "@perpx/errors";
import type { TransportFactory } from "./factory.js";
import { openGrpc } from "./grpc.js";
import { checkGrpcWeb, type GrpcOptions, grpcInterceptors } from "./grpc-options.js";
import { openRpc, type RpcPlatform } from "./rpc.js";
import type { WebSocketConstructor } from "./websocket.js";

const rpcPlatform: RpcPlatform = {
  async loadWebSocket(): Promise<WebSocketConstructor> {
    const { WebSocket } = await import("ws");
    return WebSocket as unknown as WebSocketConstructor;
  },
};

/** Builds gRPC over HTTP/2 (connect-node, one session closed by `close()`) or gRPC-web. */
async function loadGrpc(options: GrpcOptions): Promise<{ transport: Transport; close(): void }> {
  if (options.protocol === "grpc-web") {
    const { openGrpcWeb } = await import("./grpc-web.js");
    return { transport: openGrpcWeb(options), close: () => {} };
  }
  const { createGrpcTransport, Http2SessionManager } = await import("@connectrpc/connect-node");
  const ca =
    options.caCert === undefined
      ? undefined
      : typeof options.caCert === "string"
        ? options.caCert
        : Buffer.from(options.caCert);
  const sessionManager = new Http2SessionManager(options.url, {}, ca === undefined ? {} : { ca });
  const transport = createGrpcTransport({
    baseUrl: options.url,
    interceptors: grpcInterceptors(options),
    sessionManager,
  });
  return { transport, close: () => sessionManager.abort() };
}

function checkNodeGrpc(options: GrpcOptions): void {
  if (options.protocol === "grpc-web") {
    checkGrpcWeb(options);
    return;
  }
  if (options.caCert !== undefined && !/^https:/i.test(options.url)) {
    throw new InvalidArgumentError("grpc.caCert", "a CA certificate needs an https:// URL");
  }
}

/**
 * Node's transports: CometBFT RPC over `fetch` or the `ws` socket, gRPC
 * over HTTP/2 through connect-node (gRPC-web with `protocol: "grpc-web"`); each library loads on
 * the first call that needs it.
 *
 * @example
 * ```ts
 * const grpc = platformTransports.openGrpc({ url: devnet.endpoints.grpcTls, caCert: devnet.caPem });
 * ```
 */
export const platformTransports: TransportFactory = {
  openRpc: (options) => openRpc(options, rpcPlatform),
  openGrpc: (input) => openGrpc(input, loadGrpc, checkNodeGrpc),
};
