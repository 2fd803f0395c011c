/**
 * CometBFT RPC with web platform pieces only: HTTP JSON-RPC over `fetch`, calls and subscriptions
 * over the global `WebSocket`, the typed methods decoded by {@link createCometRpc}. The browser build
 * opens every RPC connection here; Node can use it too.
 */
import { InvalidArgumentError } from "@perpx/errors";
import { createCometRpc } from "./comet-json.js";
import { FetchRpcClient, type RpcConnection, type RpcOptions } from "./rpc-json.js";
import { WebSocketRpcClient } from "./rpc-socket.js";

/**
 * Opens a CometBFT RPC connection over `fetch` (`http(s)://`) or a `WebSocket` (`ws(s)://`, the
 * `/websocket` path added when missing), or over an injected JSON-RPC client.
 *
 * @throws {InvalidArgumentError} for a URL without an http(s) or ws(s) scheme.
 *
 * @example
 * ```ts
 * const rpc = openWebRpc("http://127.0.0.1:26657");
 * (await rpc.comet.status()).syncInfo.latestBlockHeight; // 42
 * ```
 */
export function openWebRpc(options: RpcOptions): RpcConnection {
  if (typeof options === "object" && "rpcClient" in options) {
    const rpcClient = options.rpcClient;
    return {
      comet: createCometRpc(rpcClient),
      rpcClient,
      fetchClient: rpcClient instanceof FetchRpcClient ? rpcClient : undefined,
      close: () => rpcClient.disconnect(),
    };
  }
  const http = typeof options === "string" ? { url: options } : options;
  if (/^wss?:\/\//i.test(http.url)) {
    const socket = new WebSocketRpcClient({
      url: http.url,
      ...(http.webSocket ? { webSocket: http.webSocket } : {}),
    });
    return {
      comet: createCometRpc(socket),
      rpcClient: socket,
      fetchClient: undefined,
      close: socket.disconnect,
    };
  }
  if (!/^https?:\/\//i.test(http.url)) {
    throw new InvalidArgumentError(
      "rpc",
      `expected an http(s):// or ws(s):// URL, got ${JSON.stringify(http.url)}`,
    );
  }
  const fetchClient = new FetchRpcClient(http);
  return {
    comet: createCometRpc(fetchClient),
    rpcClient: fetchClient,
    fetchClient,
    close: fetchClient.disconnect,
  };
}
