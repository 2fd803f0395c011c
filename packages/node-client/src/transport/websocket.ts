import type { RpcClient } from "@cosmjs/tendermint-rpc";
import { TransportError } from "../errors.js";
import type { JsonRpcRequestLike } from "./rpc.js";

/**
 * The part of a WebSocket the RPC client uses: the browser `WebSocket` and the `ws` package both fit.
 *
 * @example
 * ```ts
 * const socket: WebSocketLike = new WebSocket("ws://127.0.0.1:26657/websocket");
 * ```
 */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  send(data: string): void;
  close(code?: number): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
}

/**
 * A WebSocket constructor.
 *
 * @example
 * ```ts
 * const Socket: WebSocketConstructor = WebSocket;
 * ```
 */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/**
 * Options of {@link WebSocketRpcClient}.
 *
 * @example
 * ```ts
 * const options: WebSocketRpcOptions = { url: "ws://127.0.0.1:26657/websocket", WebSocket };
 * ```
 */
export interface WebSocketRpcOptions {
  /** `ws(s)://host:port/websocket`. */
  url: string;
  /**
   * The WebSocket constructor.
   * @default the `ws` package's, loaded on first use
   */
  WebSocket?: WebSocketConstructor;
}

interface Pending {
  resolve(response: unknown): void;
  reject(error: unknown): void;
}

/** A JSON-RPC answer or event as it arrives on the socket. */
interface Incoming {
  id?: number | string;
  result?: { query?: string; data?: unknown };
  error?: { code?: number; message?: string; data?: unknown };
}

/** Loads the `ws` package's constructor (the one place the WebSocket dependency is imported). */
async function loadWebSocket(): Promise<WebSocketConstructor> {
  const module = await import("ws");
  return module.WebSocket as unknown as WebSocketConstructor;
}

const SUBSCRIPTION_ID_BASE = 1_000_000_000;

/**
 * A CometBFT JSON-RPC client over one WebSocket: requests, and event subscriptions
 * (`subscribe` with a query such as `tm.event='NewBlock'`). It dials on first use and never
 * reconnects by itself; {@link WebSocketRpcClient.disconnect} closes the socket, rejects what is
 * pending and ends every subscription, leaving no timer or listener behind.
 *
 * @example
 * ```ts
 * const socket = new WebSocketRpcClient({ url: "ws://127.0.0.1:26657/websocket" });
 * const stop = await socket.subscribe("tm.event='NewBlock'", (data) => console.log(data));
 * stop();
 * socket.disconnect();
 * ```
 */
export class WebSocketRpcClient implements RpcClient {
  readonly #url: string;
  readonly #Socket: WebSocketConstructor | undefined;
  #socket: Promise<WebSocketLike> | undefined;
  #closed = false;
  readonly #pending = new Map<number | string, Pending>();
  readonly #subscriptions = new Map<
    string,
    { onEvent(data: unknown): void; onError(error: unknown): void }
  >();
  #nextSubscriptionId = SUBSCRIPTION_ID_BASE;

  /** @param options - the URL and, optionally, the WebSocket constructor. */
  constructor(options: WebSocketRpcOptions) {
    this.#url = options.url;
    this.#Socket = options.WebSocket;
  }

  #open(): Promise<WebSocketLike> {
    if (this.#closed) {
      return Promise.reject(new TransportError("rpc", "the WebSocket client is closed", { url: this.#url }));
    }
    this.#socket ??= (async () => {
      const Socket = this.#Socket ?? (await loadWebSocket());
      const socket = new Socket(this.#url);
      await new Promise<void>((resolve, reject) => {
        socket.onopen = () => resolve();
        socket.onerror = (event) =>
          reject(
            new TransportError("rpc", "the WebSocket could not connect", { url: this.#url, cause: event }),
          );
      });
      if (this.#closed) {
        socket.close(1000);
        throw new TransportError("rpc", "the WebSocket client is closed", { url: this.#url });
      }
      socket.onmessage = (event) => this.#receive(event.data);
      socket.onerror = () => {};
      socket.onclose = () =>
        this.#fail(new TransportError("rpc", "the WebSocket closed", { url: this.#url }));
      return socket;
    })();
    this.#socket.catch(() => {
      this.#socket = undefined;
    });
    return this.#socket;
  }

  #receive(data: unknown): void {
    let message: Incoming;
    try {
      message = JSON.parse(String(data)) as Incoming;
    } catch {
      return;
    }
    if (message.id === undefined) return;
    const query = message.result?.query;
    if (query !== undefined) {
      // An event of a subscription: its id is the subscribe request's, its query the subscription's.
      if (message.result?.data !== undefined) this.#subscriptions.get(query)?.onEvent(message.result.data);
      return;
    }
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    if (message.error) pending.reject(new Error(JSON.stringify(message.error)));
    else pending.resolve(message);
  }

  #fail(error: unknown): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    for (const subscription of this.#subscriptions.values()) subscription.onError(error);
    this.#subscriptions.clear();
    this.#socket = undefined;
  }

  /** Sends one JSON-RPC request and returns the success answer. */
  readonly execute = async (request: JsonRpcRequestLike): Promise<never> => {
    const socket = await this.#open();
    return new Promise<never>((resolve, reject) => {
      this.#pending.set(request.id, { resolve: resolve as (value: unknown) => void, reject });
      socket.send(JSON.stringify(request));
    });
  };

  /**
   * Subscribes to CometBFT events matching `query`; `onEvent` gets each event's `data`. Resolves
   * once the node accepted the subscription, with a function that ends it.
   *
   * @throws {TransportError} when the socket cannot be opened or closes.
   */
  async subscribe(
    query: string,
    onEvent: (data: unknown) => void,
    onError: (error: unknown) => void = () => {},
  ): Promise<() => void> {
    if (this.#subscriptions.has(query)) {
      throw new TransportError("rpc", `already subscribed to ${query}`, { url: this.#url });
    }
    this.#subscriptions.set(query, { onEvent, onError });
    try {
      await this.execute({
        jsonrpc: "2.0",
        id: this.#nextSubscriptionId++,
        method: "subscribe",
        params: { query },
      });
    } catch (error) {
      this.#subscriptions.delete(query);
      throw error;
    }
    return () => {
      if (!this.#subscriptions.delete(query) || this.#closed) return;
      const id = this.#nextSubscriptionId++;
      this.execute({ jsonrpc: "2.0", id, method: "unsubscribe", params: { query } }).catch(() => {});
    };
  }

  /** Closes the socket: pending calls reject, subscriptions end, nothing is left scheduled. */
  readonly disconnect = (): void => {
    if (this.#closed) return;
    this.#closed = true;
    const socket = this.#socket;
    this.#fail(new TransportError("rpc", "the WebSocket client is closed", { url: this.#url }));
    socket
      ?.then((open) => {
        open.onclose = null;
        open.onmessage = null;
        open.close(1000);
      })
      .catch(() => {});
  };
}
