import { Comet38Client, type RpcClient, WebsocketClient } from "@cosmjs/tendermint-rpc";
import { InvalidArgumentError } from "@perpx/errors";
import { FetchRpcClient, type JsonRpcClient, type RpcConnection, type RpcOptions } from "./rpc-json.js";
import { openWebRpc } from "./rpc-web.js";

// cosmjs's `RpcClient` and our `JsonRpcClient` are the same two methods; only the request's
// `params` type differs (cosmjs's JSON-compatible dictionary, our record), so each side is cast.
const asCosmjs = (client: JsonRpcClient): RpcClient => client as unknown as RpcClient;
const fromCosmjs = (client: RpcClient): JsonRpcClient => client as unknown as JsonRpcClient;

/**
 * Opens a CometBFT RPC connection in Node: HTTP via {@link FetchRpcClient}, WebSocket via cosmjs's
 * `WebsocketClient` (a `/websocket` suffix is added when missing), or an injected client.
 *
 * @throws {InvalidArgumentError} for a URL without an http(s) or ws(s) scheme.
 *
 * @example
 * ```ts
 * const rpc = openRpc("http://127.0.0.1:26657");
 * ```
 */
export function openRpc(options: RpcOptions): RpcConnection {
  if (typeof options === "object" && "rpcClient" in options) {
    const rpcClient = options.rpcClient;
    const fetchClient = rpcClient instanceof FetchRpcClient ? rpcClient : undefined;
    return {
      comet: Comet38Client.create(asCosmjs(rpcClient)),
      rpcClient,
      fetchClient,
      close: () => rpcClient.disconnect(),
    };
  }
  const http = typeof options === "string" ? { url: options } : options;
  const url = http.url;
  // With a `WebSocket` constructor given, the standard-socket client serves (no cosmjs reconnects).
  if (/^wss?:\/\//i.test(url) && http.webSocket) return openWebRpc(http);
  if (/^wss?:\/\//i.test(url)) {
    const base = url.replace(/\/+$/, "").replace(/\/websocket$/i, "");
    const errors: unknown[] = [];
    const rpcClient = new WebsocketClient(base, (error: unknown) => {
      errors.push(error);
    });
    return {
      comet: Comet38Client.create(rpcClient),
      rpcClient: fromCosmjs(rpcClient),
      fetchClient: undefined,
      close: () => rpcClient.disconnect(),
    };
  }
  if (!/^https?:\/\//i.test(url)) {
    throw new InvalidArgumentError(
      "rpc",
      `expected an http(s):// or ws(s):// URL, got ${JSON.stringify(url)}`,
    );
  }
  const fetchClient = new FetchRpcClient(http);
  return {
    comet: Comet38Client.create(asCosmjs(fetchClient)),
    rpcClient: fetchClient,
    fetchClient,
    close: () => fetchClient.disconnect(),
  };
}
