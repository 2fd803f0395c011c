/**
 * CometBFT JSON-RPC over a standard `WebSocket` (the browser's, Node 22's global one, or the `ws`
 * package's): calls, and event subscriptions. It connects on first use, reconnects on the next call
 * after a drop, and keeps no timer: `disconnect()` leaves nothing running.
 */
import { TransportError } from "../errors.js";
import {
  type JsonRpcClient,
  JsonRpcError,
  type JsonRpcRequest,
  type JsonRpcSuccess,
  nextRequestId,
  type WebSocketConstructor,
} from "./rpc-json.js";

/**
 * Options of {@link WebSocketRpcClient}.
 *
 * @example
 * ```ts
 * new WebSocketRpcClient({ url: "ws://127.0.0.1:26657/websocket", webSocket: WebSocket });
 * ```
 */
export interface WebSocketRpcOptions {
  /** `ws(s)://host:port`, with or without the `/websocket` path (it is added when missing). */
  url: string;
  /**
   * The `WebSocket` constructor.
   * @default globalThis.WebSocket
   */
  webSocket?: WebSocketConstructor;
}

/**
 * A subscription to node events, from {@link WebSocketRpcClient.subscribe}.
 *
 * @example
 * ```ts
 * await subscription.unsubscribe();
 * ```
 */
export interface RpcSubscription {
  /** The CometBFT query subscribed to. */
  readonly query: string;
  /** Stops the events (sends `unsubscribe`; resolves once the node confirms or the socket is gone). */
  unsubscribe(): Promise<void>;
}

interface Pending {
  resolve(answer: JsonRpcSuccess): void;
  reject(error: unknown): void;
}

/**
 * The socket URL of a CometBFT RPC address: `/websocket` added when missing.
 *
 * @example
 * ```ts
 * webSocketUrl("ws://127.0.0.1:26657"); // "ws://127.0.0.1:26657/websocket"
 * ```
 */
function webSocketUrl(url: string): string {
  const base = url.replace(/\/+$/, "");
  return /\/websocket$/i.test(base) ? base : `${base}/websocket`;
}

/**
 * A JSON-RPC client of CometBFT over one `WebSocket`.
 *
 * @example
 * ```ts
 * const socket = new WebSocketRpcClient({ url: "ws://127.0.0.1:26657" });
 * const sub = await socket.subscribe("tm.event='NewBlock'", (event) => console.log(event));
 * socket.disconnect();
 * ```
 */
export class WebSocketRpcClient implements JsonRpcClient {
  readonly #url: string;
  readonly #WebSocket: WebSocketConstructor;
  #socket: WebSocket | undefined;
  #opening: Promise<WebSocket> | undefined;
  readonly #pending = new Map<string, Pending>();
  readonly #listeners = new Map<string, (event: unknown) => void>();

  /**
   * @param options - URL and `WebSocket` constructor.
   * @throws {TransportError} when no `WebSocket` constructor is given and the platform has none.
   */
  constructor(options: WebSocketRpcOptions) {
    this.#url = webSocketUrl(options.url);
    const ctor = options.webSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (ctor === undefined) {
      throw new TransportError(
        "rpc",
        "this platform has no WebSocket: pass rpc.webSocket (e.g. the ws package's)",
        {
          url: this.#url,
        },
      );
    }
    this.#WebSocket = ctor;
  }

  #open(): Promise<WebSocket> {
    if (this.#socket?.readyState === 1) return Promise.resolve(this.#socket);
    if (this.#opening) return this.#opening;
    const opening = new Promise<WebSocket>((resolve, reject) => {
      let socket: WebSocket;
      try {
        socket = new this.#WebSocket(this.#url);
      } catch (error) {
        reject(new TransportError("rpc", "the node could not be reached", { url: this.#url, cause: error }));
        return;
      }
      this.#socket = socket;
      let opened = false;
      socket.onopen = () => {
        opened = true;
        resolve(socket);
      };
      socket.onmessage = (event: MessageEvent) => this.#receive(String(event.data));
      socket.onerror = () => {
        if (!opened) reject(new TransportError("rpc", "the node could not be reached", { url: this.#url }));
      };
      socket.onclose = () => {
        if (!opened) reject(new TransportError("rpc", "the node could not be reached", { url: this.#url }));
        if (this.#socket === socket) this.#dropped("the WebSocket closed");
      };
    });
    this.#opening = opening;
    const settle = () => {
      if (this.#opening === opening) this.#opening = undefined;
    };
    opening.then(settle, settle);
    return opening;
  }

  #dropped(reason: string): void {
    this.#socket = undefined;
    const error = new TransportError("rpc", reason, { url: this.#url });
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    this.#listeners.clear();
  }

  #receive(data: string): void {
    let json: { id?: unknown; error?: { code?: number; message?: string; data?: unknown }; result?: unknown };
    try {
      json = JSON.parse(data) as typeof json;
    } catch {
      return; // not JSON: nothing waits for it
    }
    if (typeof json !== "object" || json === null) return;
    const id = String(json.id);
    const pending = this.#pending.get(id);
    if (pending) {
      this.#pending.delete(id);
      if (json.error) pending.reject(new JsonRpcError(json.error));
      else pending.resolve(json as JsonRpcSuccess);
      return;
    }
    // CometBFT sends each event with the subscribe request's id (suffixed `#event` by some versions).
    if (!json.error) this.#listeners.get(id.replace(/#event$/, ""))?.(json.result);
  }

  /** Sends one request and resolves with its success answer. */
  readonly execute = async (request: JsonRpcRequest): Promise<JsonRpcSuccess> => {
    const socket = await this.#open();
    if (this.#socket !== socket || socket.readyState !== 1) {
      throw new TransportError("rpc", "the connection was closed", { url: this.#url });
    }
    return new Promise<JsonRpcSuccess>((resolve, reject) => {
      this.#pending.set(String(request.id), { resolve, reject });
      socket.send(JSON.stringify(request));
    });
  };

  /**
   * Subscribes to events matching a CometBFT query; `onEvent` gets each event's `result`
   * (`{ query, data: { type, value }, events }`).
   *
   * @returns the subscription, once the node accepted it.
   * @throws {JsonRpcError} when the node refuses the query.
   */
  async subscribe(query: string, onEvent: (event: unknown) => void): Promise<RpcSubscription> {
    const id = nextRequestId();
    this.#listeners.set(String(id), onEvent);
    try {
      await this.execute({ jsonrpc: "2.0", id, method: "subscribe", params: { query } });
    } catch (error) {
      this.#listeners.delete(String(id));
      throw error;
    }
    return {
      query,
      unsubscribe: async () => {
        this.#listeners.delete(String(id));
        if (this.#socket?.readyState !== 1) return;
        await this.execute({ jsonrpc: "2.0", id: nextRequestId(), method: "unsubscribe", params: { query } });
      },
    };
  }

  /** Closes the socket: pending calls reject with a `TransportError`, subscriptions end. */
  readonly disconnect = (): void => {
    const socket = this.#socket;
    this.#dropped("the connection was closed");
    socket?.close();
  };
}
