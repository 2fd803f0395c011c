/**
 * The CometBFT RPC connection every query and broadcast works on, independent of how it was opened
 * (its answers decoded by `comet-json.ts` on every platform): its types, the `fetch`-based JSON-RPC
 * client, and the two ways queries call it. Nothing here loads cosmjs or a `node:` module.
 */
import { PerpxError } from "@perpx/errors";
import { failedBeforeConnecting, TransportError } from "../errors.js";
import { answerText } from "./answer-text.js";
import { lastingFailure } from "./lasting.js";
import type { WebSocketConstructor, WebSocketRpcClient } from "./websocket.js";

/**
 * A JSON-RPC 2.0 request.
 *
 * @example
 * ```ts
 * const request: JsonRpcRequest = { jsonrpc: "2.0", id: 1, method: "status", params: {} };
 * ```
 */
export interface JsonRpcRequest {
  readonly jsonrpc: "2.0";
  readonly id: number | string;
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/**
 * A JSON-RPC 2.0 success answer.
 *
 * @example
 * ```ts
 * const answer: JsonRpcSuccess = { jsonrpc: "2.0", id: 1, result: { sync_info: {} } };
 * ```
 */
export interface JsonRpcSuccess {
  readonly jsonrpc: "2.0";
  readonly id: number | string;
  readonly result: unknown;
}

/**
 * Sends JSON-RPC requests to a CometBFT node: {@link FetchRpcClient}, `WebSocketRpcClient`, a cosmjs
 * `HttpClient`, or a test double.
 *
 * @example
 * ```ts
 * const rpcClient: JsonRpcClient = new FetchRpcClient({ url: process.env.PERPX_NODE_RPC_URL ?? "http://127.0.0.1:26657" });
 * const answer = await rpcClient.execute({ jsonrpc: "2.0", id: 1, method: "status", params: {} });
 * "result" in answer; // true
 * ```
 */
export interface JsonRpcClient {
  /**
   * Sends one request.
   *
   * @returns the success answer.
   * @throws {JsonRpcError} for an error answer; {@link TransportError} when the node is not reached.
   */
  execute(request: JsonRpcRequest): Promise<JsonRpcSuccess>;
  /** Releases the client's connection, if it holds one. */
  disconnect(): void;
}

/**
 * Options of the CometBFT RPC transport over HTTP.
 *
 * @example
 * ```ts
 * const nodeRpc: RpcHttpOptions = { url: "https://rpc.example.com", headers: { "x-api-key": "my-key" } };
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
  /**
   * The `WebSocket` constructor for a `ws(s)://` URL (calls and subscriptions go over one
   * `WebSocketRpcClient`).
   * @default globalThis.WebSocket in a browser build; the `ws` package's (loaded on first use) in Node
   */
  webSocket?: WebSocketConstructor;
}

/**
 * Inject a ready JSON-RPC client (a {@link FetchRpcClient}, a `WebSocketRpcClient`, a cosmjs
 * `HttpClient`, or a test double).
 *
 * @example
 * ```ts
 * const nodeRpc: RpcInjectedOptions = { rpcClient: new FetchRpcClient({ url: "http://127.0.0.1:26657" }) };
 * ```
 */
export interface RpcInjectedOptions {
  /** The JSON-RPC client the connection sends through. */
  rpcClient: JsonRpcClient;
}

/**
 * How to reach CometBFT RPC: a URL (`http(s)://` or `ws(s)://`), HTTP options, or an injected
 * JSON-RPC client.
 *
 * @example
 * ```ts
 * const nodeRpc: RpcOptions = "ws://127.0.0.1:26657/websocket";
 * ```
 */
export type RpcOptions = string | RpcHttpOptions | RpcInjectedOptions;

/**
 * A JSON-RPC error answer (`{"error": {code, message, data}}`), code `QUERY` like every answer of
 * a node that refused a request (queries wrap it in a `QueryError`).
 *
 * @example
 * ```ts
 * const error = await rawRpc(client.rpc!, "no_such_method", {}).catch((e: unknown) => e);
 * error instanceof JsonRpcError && error.rpcCode; // -32601
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
 * Parses one JSON-RPC answer's text into its success form.
 *
 * @throws {JsonRpcError} for an error answer; {@link TransportError} for text that is not a JSON-RPC
 * answer.
 */
function parseJsonRpcAnswer(text: string, url: string, httpStatus?: number): JsonRpcSuccess {
  // Under a success status, a body that is not a JSON-RPC answer is a malformed answer; under an
  // error status (a gateway's 502 page, a 429), a failure on the way, which may pass.
  const malformed = httpStatus === undefined || (httpStatus >= 200 && httpStatus < 300);
  const fail = (error: TransportError) => (malformed ? lastingFailure(error) : error);
  let json: { error?: { code?: number; message?: string; data?: unknown }; result?: unknown };
  try {
    json = JSON.parse(text) as typeof json;
  } catch (error) {
    const status = httpStatus === undefined ? "an answer" : `HTTP ${httpStatus} with a body`;
    throw fail(
      new TransportError({ transport: "rpc", problem: `${status} that is not JSON`, url }, { cause: error }),
    );
  }
  if (typeof json !== "object" || json === null) {
    throw fail(
      new TransportError({ transport: "rpc", problem: "an answer that is not a JSON-RPC object", url }),
    );
  }
  if (json.error) throw new JsonRpcError(json.error);
  return json as JsonRpcSuccess;
}

/**
 * A JSON-RPC client over an injectable `fetch`, with per-call `AbortSignal`s: set
 * {@link FetchRpcClient.nextSignal} right before a call (the comet clients call `execute`
 * synchronously from their methods) and that request is aborted with it.
 *
 * @example
 * ```ts
 * const rpcClient = new FetchRpcClient({ url: process.env.PERPX_NODE_RPC_URL ?? "http://127.0.0.1:26657" });
 * const client = createNodeClient({ nodeRpc: { rpcClient } });
 * (await client.getLatestBlock()).chainId; // "perpx-local-1"
 * client.close();
 * ```
 */
export class FetchRpcClient implements JsonRpcClient {
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
  readonly execute = async (request: JsonRpcRequest): Promise<JsonRpcSuccess> => {
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
      const nothingSent = failedBeforeConnecting(error);
      throw new TransportError(
        {
          transport: "rpc",
          problem: nothingSent
            ? "the node could not be reached"
            : "the connection failed before the node answered",
          url: this.#url,
          nothingSent,
        },
        { cause: error },
      );
    }
    const text = await answerText(response, signal, "rpc", this.#url);
    const answer = parseJsonRpcAnswer(text, this.#url, response.status);
    if (!response.ok)
      throw new TransportError({ transport: "rpc", problem: `HTTP ${response.status}`, url: this.#url });
    return answer;
  };

  /** Nothing to close for HTTP. */
  readonly disconnect = (): void => {};
}

/**
 * One committed transaction as the comet clients decode `tx` and `tx_search` answers.
 *
 * @example
 * ```ts
 * const sent = await client.bankSend({ signer: wallet, from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] });
 * const tx: CometTx = await (await client.rpc!.comet()).tx({ hash: fromHexString(sent.hash)! });
 * tx.result.code; // 0
 * ```
 */
export interface CometTx {
  readonly tx: Uint8Array;
  readonly hash: Uint8Array;
  readonly height: number;
  readonly index: number;
  readonly result: {
    readonly code: number;
    readonly codespace?: string | undefined;
    readonly log?: string | undefined;
    readonly gasWanted: bigint;
    readonly gasUsed: bigint;
    readonly events: readonly {
      readonly type: string;
      readonly attributes: readonly { readonly key: string; readonly value: string }[];
    }[];
  };
}

/**
 * The typed CometBFT RPC methods queries and broadcasts call, the subset of cosmjs's
 * `Comet38Client` they use, served by our own decoder (`createCometRpc`) on every platform; cosmjs
 * stays a test oracle (`test/comet-json-oracle.test.ts` feeds both the same answers).
 *
 * @example
 * ```ts
 * const comet: CometRpc = await client.rpc!.comet();
 * (await comet.status()).nodeInfo.network; // "perpx-local-1"
 * ```
 */
export interface CometRpc {
  /** `status`. */
  status(): Promise<{
    readonly nodeInfo: { readonly network: string };
    readonly syncInfo: {
      readonly latestBlockHeight: number;
      readonly latestBlockTime: { getTime(): number };
    };
  }>;
  /** `abci_query`. */
  abciQuery(params: { path: string; data: Uint8Array; prove?: boolean; height?: number }): Promise<{
    readonly code?: number | undefined;
    readonly codespace: string;
    readonly log?: string | undefined;
    readonly value: Uint8Array;
  }>;
  /** `tx`. */
  tx(params: { hash: Uint8Array; prove?: boolean }): Promise<CometTx>;
  /** `tx_search`. */
  txSearch(params: {
    query: string;
    page?: number;
    per_page?: number;
    order_by?: "asc" | "desc";
    prove?: boolean;
  }): Promise<{ readonly txs: readonly CometTx[]; readonly totalCount: number }>;
  /** `broadcast_tx_sync`. */
  broadcastTxSync(params: { tx: Uint8Array }): Promise<{
    readonly code: number;
    readonly codespace?: string | undefined;
    readonly log?: string | undefined;
    readonly hash: Uint8Array;
  }>;
  /** `broadcast_tx_async`. */
  broadcastTxAsync(params: { tx: Uint8Array }): Promise<{ readonly hash: Uint8Array }>;
  /** `block` at a height: the block's raw txs (the only part the clients read). */
  block(height?: number): Promise<{ readonly block: { readonly txs: readonly Uint8Array[] } }>;
}

/**
 * An open CometBFT RPC connection: the typed methods and the JSON-RPC client beneath them. Nothing
 * is loaded or dialled until the first call.
 *
 * @example
 * ```ts
 * const connection: RpcConnection = client.rpc!;
 * const height = (await (await connection.comet()).status()).syncInfo.latestBlockHeight;
 * height > 0; // true
 * ```
 */
export interface RpcConnection {
  /** The typed methods (their implementation is loaded on first use). */
  comet(): Promise<CometRpc>;
  /** The JSON-RPC client, for methods without a typed wrapper (`net_info`, `genesis`). */
  readonly rpcClient: JsonRpcClient;
  /** Set for an HTTP connection over a {@link FetchRpcClient} (it honours per-call signals). */
  readonly fetchClient: FetchRpcClient | undefined;
  /** Set for a WebSocket connection: subscriptions to CometBFT events (it honours per-call signals). */
  readonly webSocket: WebSocketRpcClient | undefined;
  /** Closes a WebSocket and ends its subscriptions; nothing stays scheduled. */
  close(): void;
}

let nextId = 1;

/**
 * The next JSON-RPC request id of this process.
 *
 * @example
 * ```ts
 * const request = { jsonrpc: "2.0", id: nextRequestId(), method: "status", params: {} };
 * ```
 */
export function nextRequestId(): number {
  return nextId++;
}

/**
 * Calls a JSON-RPC method directly and returns its `result`.
 *
 * @example
 * ```ts
 * const netInfo = (await rawRpc(client.rpc!, "net_info", {})) as { listening: boolean };
 * netInfo.listening; // true
 * ```
 */
export async function rawRpc(
  connection: RpcConnection,
  method: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<unknown> {
  nextSignal(connection, signal);
  const response = await connection.rpcClient.execute({
    jsonrpc: "2.0",
    id: nextRequestId(),
    method,
    params,
  });
  return response.result;
}

/**
 * Runs a typed comet call with a per-call signal (honoured on HTTP and WebSocket).
 *
 * @example
 * ```ts
 * const status = await cometCall(client.rpc!, AbortSignal.timeout(2_000), (comet) => comet.status());
 * status.nodeInfo.network; // "perpx-local-1"
 * ```
 */
export async function cometCall<T>(
  connection: RpcConnection,
  signal: AbortSignal | undefined,
  call: (comet: CometRpc) => Promise<T>,
): Promise<T> {
  const comet = await connection.comet();
  // The comet clients call `execute` synchronously from their methods: the signal is this call's.
  nextSignal(connection, signal);
  try {
    return call(comet);
  } finally {
    nextSignal(connection, undefined);
  }
}

/** Gives the connection's next `execute` call `signal` (HTTP and WebSocket clients honour it). */
function nextSignal(connection: RpcConnection, signal: AbortSignal | undefined): void {
  if (connection.fetchClient) connection.fetchClient.nextSignal = signal;
  if (connection.webSocket) connection.webSocket.nextSignal = signal;
}
