import { Comet38Client, type RpcClient, WebsocketClient } from "@cosmjs/tendermint-rpc";
import { InvalidArgumentError, PerpxError } from "@perpx/errors";
import { TransportError } from "../errors.js";

/** A JSON-RPC request as cosmjs builds it. */
interface JsonRpcRequestLike {
  jsonrpc: "2.0";
  id: number | string;
  method: string;
  params: unknown;
}

/**
 * Options of the CometBFT RPC transport over HTTP.
 *
 * @example
 * ```ts
 * const rpc: RpcHttpOptions = { url: "https://rpc.example.com", headers: { "x-api-key": key } };
 * ```
 */
export interface RpcHttpOptions {
  /** `http(s)://host:port` of the node's CometBFT RPC (`ws(s)://` selects the WebSocket transport). */
  url: string;
  /**
   * The `fetch` used for HTTP requests.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
  /**
   * Extra HTTP headers on every request (an API key, say).
   * @default {}
   */
  headers?: Record<string, string>;
}

/**
 * Inject a ready JSON-RPC client (cosmjs `RpcClient`: `HttpClient`, `WebsocketClient` or a test double).
 *
 * @example
 * ```ts
 * const rpc: RpcInjectedOptions = { rpcClient: new WebsocketClient("ws://127.0.0.1:26657") };
 * ```
 */
export interface RpcInjectedOptions {
  /** The JSON-RPC client under `Comet38Client`. */
  rpcClient: RpcClient;
}

/**
 * How to reach CometBFT RPC: a URL (`http(s)://` or `ws(s)://`), HTTP options, or an injected
 * JSON-RPC client.
 *
 * @example
 * ```ts
 * const rpc: RpcOptions = "ws://127.0.0.1:26657/websocket";
 * ```
 */
export type RpcOptions = string | RpcHttpOptions | RpcInjectedOptions;

/**
 * A JSON-RPC error answer (`{"error": {code, message, data}}`), code `QUERY` like every answer of
 * a node that refused a request (queries wrap it in a `QueryError`).
 *
 * @example
 * ```ts
 * if (error instanceof JsonRpcError) console.log(error.rpcCode, error.data);
 * ```
 */
export class JsonRpcError extends PerpxError {
  override name = "JsonRpcError";
  /** The JSON-RPC error code. */
  readonly rpcCode: number;
  /** The `data` text, which carries the node's explanation. */
  readonly data: string;

  /** @param error - the `error` object of the answer. */
  constructor(error: { code?: number; message?: string; data?: unknown }) {
    super("QUERY", `${error.message ?? "JSON-RPC error"}${error.data ? `: ${String(error.data)}` : ""}`);
    this.rpcCode = error.code ?? 0;
    this.data = error.data === undefined ? "" : String(error.data);
  }
}

/**
 * A cosmjs `RpcClient` over an injectable `fetch`, with per-call `AbortSignal`s: set
 * {@link FetchRpcClient.nextSignal} right before a `Comet38Client` call (cosmjs calls `execute`
 * synchronously from its methods) and that request is aborted with it.
 *
 * @example
 * ```ts
 * const client = createNodeClient({ rpc: { rpcClient: new FetchRpcClient({ url, fetch: myFetch }) } });
 * ```
 */
export class FetchRpcClient implements RpcClient {
  readonly #url: string;
  readonly #fetch: typeof fetch;
  readonly #headers: Record<string, string>;
  /** The signal of the next `execute` call; consumed by it. */
  nextSignal: AbortSignal | undefined;

  /** @param options - URL, fetch and headers. */
  constructor(options: RpcHttpOptions) {
    this.#url = options.url;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#headers = { "content-type": "application/json", ...(options.headers ?? {}) };
  }

  /** Sends one JSON-RPC request and returns the success answer. */
  readonly execute = async (request: JsonRpcRequestLike): Promise<never> => {
    const signal = this.nextSignal;
    this.nextSignal = undefined;
    let response: Response;
    try {
      response = await this.#fetch(this.#url, {
        method: "POST",
        headers: this.#headers,
        body: JSON.stringify(request),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new TransportError("rpc", "the node could not be reached", { url: this.#url, cause: error });
    }
    const text = await response.text();
    let json: { error?: { code?: number; message?: string; data?: unknown }; result?: unknown };
    try {
      json = JSON.parse(text) as typeof json;
    } catch (error) {
      throw new TransportError("rpc", `HTTP ${response.status} with a body that is not JSON`, {
        url: this.#url,
        cause: error,
      });
    }
    if (json.error) throw new JsonRpcError(json.error);
    if (!response.ok) throw new TransportError("rpc", `HTTP ${response.status}`, { url: this.#url });
    return json as never;
  };

  /** Nothing to close for HTTP. */
  readonly disconnect = (): void => {};
}

/** An open CometBFT RPC connection: the cosmjs client and the JSON-RPC client beneath it. */
export interface RpcConnection {
  /** The typed cosmjs client. */
  readonly comet: Comet38Client;
  /** The JSON-RPC client, for methods cosmjs has no wrapper for (`net_info`) or decodes too strictly. */
  readonly rpcClient: RpcClient;
  /** Set when the JSON-RPC client honours per-call signals. */
  readonly fetchClient: FetchRpcClient | undefined;
  /** Closes a WebSocket. */
  close(): void;
}

let nextId = 1;

/**
 * Calls a JSON-RPC method directly and returns its `result`.
 *
 * @example
 * ```ts
 * const netInfo = await rawRpc(connection, "net_info", {});
 * ```
 */
export async function rawRpc(
  connection: RpcConnection,
  method: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<unknown> {
  if (connection.fetchClient) connection.fetchClient.nextSignal = signal;
  const request: JsonRpcRequestLike = { jsonrpc: "2.0", id: nextId++, method, params };
  const response = (await connection.rpcClient.execute(request as never)) as { result?: unknown };
  return response.result;
}

/**
 * Opens a CometBFT RPC connection: HTTP via {@link FetchRpcClient}, WebSocket via cosmjs's
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
      comet: Comet38Client.create(rpcClient),
      rpcClient,
      fetchClient,
      close: () => rpcClient.disconnect(),
    };
  }
  const http = typeof options === "string" ? { url: options } : options;
  const url = http.url;
  if (/^wss?:\/\//i.test(url)) {
    const base = url.replace(/\/+$/, "").replace(/\/websocket$/i, "");
    const errors: unknown[] = [];
    const rpcClient = new WebsocketClient(base, (error: unknown) => {
      errors.push(error);
    });
    return {
      comet: Comet38Client.create(rpcClient),
      rpcClient,
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
    comet: Comet38Client.create(fetchClient),
    rpcClient: fetchClient,
    fetchClient,
    close: () => fetchClient.disconnect(),
  };
}

/**
 * Runs a `Comet38Client` call with a per-call signal (honoured on HTTP; WebSocket calls are only
 * abandoned).
 *
 * @example
 * ```ts
 * const status = await cometCall(connection, signal, (comet) => comet.status());
 * ```
 */
export function cometCall<T>(
  connection: RpcConnection,
  signal: AbortSignal | undefined,
  call: (comet: Comet38Client) => Promise<T>,
): Promise<T> {
  if (connection.fetchClient) connection.fetchClient.nextSignal = signal;
  try {
    return call(connection.comet);
  } finally {
    if (connection.fetchClient) connection.fetchClient.nextSignal = undefined;
  }
}
