/**
 * Opening a CometBFT RPC connection, the same on every platform: HTTP over `fetch`
 * ({@link FetchRpcClient}), a `WebSocket` ({@link WebSocketRpcClient}), or an injected JSON-RPC
 * client. The typed methods are ours on every platform (`comet-json.ts`); the platform
 * (`#transport-platform`) supplies, in Node, the `WebSocket` constructor, loaded on first use.
 */
import { InvalidArgumentError } from "@perpx/errors";
import { createCometRpc } from "./comet-json.js";
import {
  type CometRpc,
  FetchRpcClient,
  type JsonRpcClient,
  type RpcConnection,
  type RpcOptions,
} from "./rpc-json.js";
import { type WebSocketConstructor, WebSocketRpcClient } from "./websocket.js";

/**
 * What a platform gives {@link openRpc}.
 *
 * @example
 * ```ts
 * const web: RpcPlatform = {}; // a browser: the global WebSocket
 * ```
 */
export interface RpcPlatform {
  /**
   * Loads the `WebSocket` constructor when the options give none.
   * @default undefined (globalThis.WebSocket)
   */
  loadWebSocket?: () => Promise<WebSocketConstructor>;
}

function connectionOver(
  rpcClient: JsonRpcClient,
  parts: { fetchClient?: FetchRpcClient | undefined; webSocket?: WebSocketRpcClient | undefined },
): RpcConnection {
  let comet: Promise<CometRpc> | undefined;
  return {
    rpcClient,
    fetchClient: parts.fetchClient,
    webSocket: parts.webSocket,
    comet() {
      comet ??= Promise.resolve(createCometRpc(rpcClient));
      return comet;
    },
    close: () => rpcClient.disconnect(),
  };
}

/**
 * Opens a CometBFT RPC connection: HTTP via {@link FetchRpcClient}, WebSocket via
 * {@link WebSocketRpcClient} (a `/websocket` suffix is added when missing), or an injected client.
 * Nothing is loaded or dialled until the first call.
 *
 * @throws {InvalidArgumentError} for a URL without an http(s) or ws(s) scheme.
 *
 * @example
 * ```ts
 * const rpc = openRpc("http://127.0.0.1:26657", {});
 * ```
 */
export function openRpc(options: RpcOptions, platform: RpcPlatform): RpcConnection {
  if (typeof options === "object" && options !== null && "rpcClient" in options) {
    const rpcClient = options.rpcClient;
    return connectionOver(rpcClient, {
      fetchClient: rpcClient instanceof FetchRpcClient ? rpcClient : undefined,
      webSocket: rpcClient instanceof WebSocketRpcClient ? rpcClient : undefined,
    });
  }
  const http = typeof options === "string" ? { url: options } : options;
  const url = http?.url;
  if (typeof url === "string" && /^wss?:\/\//i.test(url)) {
    const webSocket = new WebSocketRpcClient({
      url,
      ...(http.webSocket ? { webSocket: http.webSocket } : {}),
      ...(platform.loadWebSocket ? { loadWebSocket: platform.loadWebSocket } : {}),
    });
    return connectionOver(webSocket, { webSocket });
  }
  if (typeof url !== "string" || !/^https?:\/\//i.test(url)) {
    throw new InvalidArgumentError(
      "nodeRpc",
      `expected an http(s):// or ws(s):// URL, got ${JSON.stringify(url)}`,
    );
  }
  const fetchClient = new FetchRpcClient(http);
  return connectionOver(fetchClient, { fetchClient });
}
