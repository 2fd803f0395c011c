/**
 * CometBFT JSON-RPC over one standard `WebSocket` (the browser's, or the `ws` package's in Node):
 * calls, and event subscriptions. It dials on first use and never reconnects by itself (a call after
 * the node dropped the socket dials again); `disconnect()` is final and leaves nothing running.
 */
import { TransportError } from "../errors.js";
import { checkTimeout, reportSending, withDeadline } from "./call.js";
import { lastingFailure } from "./lasting.js";
import {
  type JsonRpcClient,
  JsonRpcError,
  type JsonRpcRequest,
  type JsonRpcSuccess,
  nextRequestId,
} from "./rpc-json.js";

/**
 * The part of a WebSocket the RPC client uses: the browser `WebSocket` and the `ws` package both fit.
 *
 * @example
 * ```ts
 * // The browser's WebSocket is one; in Node, the `ws` package's (its types differ from the DOM's).
 * import { WebSocket } from "ws";
 *
 * const url = `${(process.env.PERPX_NODE_RPC_URL ?? "http://127.0.0.1:26657").replace(/^http/, "ws")}/websocket`;
 * const socket = new WebSocket(url) as unknown as WebSocketLike;
 * await new Promise((resolve) => { socket.onopen = resolve; });
 * socket.readyState; // 1: open
 * socket.close();
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
 * // In a browser, `globalThis.WebSocket`; in Node, the `ws` package's (its types differ from the DOM's).
 * import { WebSocket } from "ws";
 *
 * const Socket = WebSocket as unknown as WebSocketConstructor;
 * ```
 */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/**
 * Options of {@link WebSocketRpcClient}.
 *
 * @example
 * ```ts
 * // In Node the `ws` package loads on first use; a browser's global WebSocket is taken as it is.
 * const options: WebSocketRpcOptions = { url: "ws://127.0.0.1:26657", loadWebSocket: async () => (await import("ws")).WebSocket as unknown as WebSocketConstructor };
 * ```
 */
export interface WebSocketRpcOptions {
  /** `ws(s)://host:port`, with or without the `/websocket` path (it is added when missing). */
  url: string;
  /**
   * The WebSocket constructor.
   * @default `loadWebSocket`'s, else globalThis.WebSocket
   */
  webSocket?: WebSocketConstructor;
  /**
   * Loads the WebSocket constructor on first use when `webSocket` is not given (Node's transports
   * load the `ws` package this way).
   * @default undefined
   */
  loadWebSocket?: () => Promise<WebSocketConstructor>;
}

/** A call waiting for its answer. */
interface Pending {
  resolve(response: unknown): void;
  reject(error: unknown): void;
}

/** One dial of the socket, from loading the constructor to the end of the handshake. */
interface Dial {
  /** Resolves with the socket once its handshake completed. */
  readonly open: Promise<WebSocketLike>;
  /** How many calls with a deadline wait for this handshake. */
  waiting: number;
  /** True once the calls waiting for it gave it up (or `disconnect()` did) before it completed. */
  abandoned: boolean;
  /** Gives the handshake up, closing its socket, unless it already completed or failed. */
  abandon(error: unknown): void;
}

/** A JSON-RPC answer or event as it arrives on the socket. */
interface Incoming {
  id?: number | string;
  result?: { query?: string; data?: unknown };
  error?: { code?: number; message?: string; data?: unknown };
}

/** A subscription as the client routes its events: `live` once the node accepted it. */
interface Subscription {
  onEvent(data: unknown): void;
  onError(error: unknown): void;
  live: boolean;
}

/** How long {@link WebSocketRpcClient.subscribe} waits for the node's answer by default, ms. */
const SUBSCRIBE_TIMEOUT_MS = 10_000;

/** Gives a subscription an error; what its `onError` throws is dropped (nowhere is left to report it). */
function tell(subscription: { onError(error: unknown): void }, error: unknown): void {
  try {
    subscription.onError(error);
  } catch {
    // The listener's own failure: dropped rather than thrown into the socket's callback.
  }
}

/** The socket URL of a CometBFT RPC address: `/websocket` added when missing. */
function webSocketUrl(url: string): string {
  const base = url.replace(/\/+$/, "");
  return /\/websocket$/i.test(base) ? base : `${base}/websocket`;
}

/**
 * What {@link WebSocketRpcClient.subscribe} listens to, and who hears it.
 *
 * @example
 * ```ts
 * const heights: unknown[] = [];
 * const params: SubscribeParams = { query: "tm.event='NewBlock'", onEvent: (data) => heights.push(data) };
 * ```
 */
export interface SubscribeParams {
  /** A CometBFT event query, e.g. `tm.event='NewBlock'`. */
  query: string;
  /** Gets each matching event's `data`. */
  onEvent: (data: unknown) => void;
  /**
   * Gets the error that ends the subscription once the node accepted it (the socket closed), and
   * whatever `onEvent` threw (the subscription goes on). What `onError` itself throws is dropped:
   * nothing a listener throws escapes into the socket's callbacks.
   * @default a function that ignores it
   */
  onError?: (error: unknown) => void;
  /**
   * Gives up waiting for the node to accept the subscription after this many milliseconds, with a
   * `TimeoutError` (the handshake included).
   * @default 10,000
   */
  timeoutMs?: number;
  /**
   * Gives up waiting for the node to accept the subscription when it aborts, with an
   * `AbortedError`. Once `subscribe` resolved, it has no effect: the returned function ends it.
   * @default undefined
   */
  signal?: AbortSignal;
}

/**
 * How many calls wait for an answer on `client`'s socket. For this package's tests: no entry point
 * exports it.
 */
export let pendingCallCount: (client: WebSocketRpcClient) => number;

/**
 * A CometBFT JSON-RPC client over one WebSocket: requests, and event subscriptions
 * (`subscribe` with a query such as `tm.event='NewBlock'`). It dials on first use and never
 * reconnects by itself; {@link WebSocketRpcClient.disconnect} closes the socket, rejects what is
 * pending and ends every subscription, leaving no timer or listener behind.
 *
 * @example
 * ```ts
 * import { WebSocket } from "ws"; // in a browser, leave `webSocket` out: the global one is used
 *
 * const url = (process.env.PERPX_NODE_RPC_URL ?? "http://127.0.0.1:26657").replace(/^http/, "ws");
 * const socket = new WebSocketRpcClient({ url, webSocket: WebSocket as unknown as WebSocketConstructor });
 * const block = await new Promise<unknown>((resolve) => {
 *   void socket.subscribe({ query: "tm.event='NewBlock'", onEvent: resolve });
 * });
 * block !== undefined; // true
 * socket.disconnect();
 * ```
 */
export class WebSocketRpcClient implements JsonRpcClient {
  readonly #url: string;
  readonly #loadSocket: () => Promise<WebSocketConstructor>;
  /** The socket being dialled, or open; undefined before the first call and after it failed or closed. */
  #dial: Dial | undefined;
  #closed = false;
  /**
   * Calls waiting for their answer, by the id this client put on the wire: its own counter, not the
   * caller's id (two calls in flight may carry the same one), which the answer gets back.
   */
  readonly #pending = new Map<number, Pending>();
  #nextWireId = 1;
  readonly #subscriptions = new Map<string, Subscription>();

  /**
   * @param options - the URL and the WebSocket constructor (or its loader).
   * @throws {TransportError} when no constructor is given and the platform has none.
   */
  constructor(options: WebSocketRpcOptions) {
    this.#url = webSocketUrl(options.url);
    const given = options.webSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (options.webSocket === undefined && options.loadWebSocket !== undefined) {
      this.#loadSocket = options.loadWebSocket;
    } else if (given !== undefined) {
      this.#loadSocket = () => Promise.resolve(given);
    } else {
      throw new TransportError({
        transport: "rpc",
        problem: "this platform has no WebSocket: pass nodeRpc.webSocket (the ws package's, say)",
        url: this.#url,
      });
    }
  }

  /** The error of a call the closed client never sent. */
  #closedBeforeSending(): TransportError {
    return lastingFailure(
      new TransportError({
        transport: "rpc",
        problem: "the WebSocket client is closed",
        url: this.#url,
        nothingSent: true,
      }),
    );
  }

  /**
   * Dials the socket: the constructor is loaded, the socket made, and its handshake awaited. The
   * dial is this client's until it fails, is abandoned, or its socket closes.
   */
  #startDial(): Dial {
    let socket: WebSocketLike | undefined;
    let settled = false;
    let resolveOpen!: (socket: WebSocketLike) => void;
    let rejectOpen!: (error: unknown) => void;
    const open = new Promise<WebSocketLike>((resolve, reject) => {
      resolveOpen = resolve;
      rejectOpen = reject;
    });
    // Nobody may be waiting when it fails (every call gave up): that is not an unhandled rejection.
    open.catch(() => {});
    const failed = (error: unknown) => {
      if (settled) return;
      settled = true;
      if (this.#dial === dial) this.#dial = undefined;
      rejectOpen(error);
    };
    const dial: Dial = {
      open,
      waiting: 0,
      abandoned: false,
      abandon: (error) => {
        if (settled) return;
        dial.abandoned = true;
        if (socket) {
          // A server that never completes the handshake must not keep the socket alive.
          socket.onopen = null;
          socket.onerror = () => {};
          socket.close(1000);
        }
        failed(error);
      },
    };
    this.#loadSocket()
      .then((Socket) => {
        if (settled) return;
        const made = new Socket(this.#url);
        socket = made;
        made.onopen = () => {
          if (settled) return;
          settled = true;
          made.onmessage = (event) => this.#receive(event?.data);
          made.onerror = () => {};
          made.onclose = () => {
            if (this.#dial === dial) this.#dial = undefined;
            this.#fail(
              new TransportError({ transport: "rpc", problem: "the WebSocket closed", url: this.#url }),
            );
          };
          resolveOpen(made);
        };
        made.onerror = (event) =>
          failed(
            new TransportError(
              {
                transport: "rpc",
                problem: "the WebSocket could not connect",
                url: this.#url,
                nothingSent: true,
              },
              { cause: event },
            ),
          );
      })
      .catch(failed);
    return dial;
  }

  /**
   * The open socket, dialled when there is none. A call with a signal waits for the handshake until
   * it aborts; once every such call has given up, the handshake is abandoned (its socket closed) and
   * the next call dials afresh. A call without one waits for the handshake, dialling again when the
   * calls with a deadline abandoned it.
   *
   * @throws {TransportError} with `nothingSent` when the client is closed, the socket could not
   *   connect, or `signal` aborted first.
   */
  async #socketFor(signal: AbortSignal | undefined): Promise<WebSocketLike> {
    for (;;) {
      if (this.#closed) throw this.#closedBeforeSending();
      if (signal?.aborted) throw this.#gaveUp(signal, true);
      this.#dial ??= this.#startDial();
      const dial = this.#dial;
      if (signal === undefined) {
        try {
          return await dial.open;
        } catch (error) {
          if (dial.abandoned && !this.#closed) continue;
          throw error;
        }
      }
      dial.waiting += 1;
      let onAbort: (() => void) | undefined;
      try {
        return await new Promise<WebSocketLike>((resolve, reject) => {
          onAbort = () => reject(this.#gaveUp(signal, true));
          signal.addEventListener("abort", onAbort, { once: true });
          dial.open.then(resolve, reject);
        });
      } finally {
        if (onAbort) signal.removeEventListener("abort", onAbort);
        dial.waiting -= 1;
        if (signal.aborted && dial.waiting === 0) {
          dial.abandon(
            new TransportError({
              transport: "rpc",
              problem: "every call waiting for the WebSocket handshake gave up",
              url: this.#url,
              nothingSent: true,
            }),
          );
        }
      }
    }
  }

  /** The error of a call whose signal aborted: before its request was written, or after. */
  #gaveUp(signal: AbortSignal, nothingSent: boolean): TransportError {
    return new TransportError(
      {
        transport: "rpc",
        problem: nothingSent
          ? "the call gave up before the WebSocket handshake completed"
          : "the call gave up waiting for the node's answer",
        url: this.#url,
        nothingSent,
      },
      { cause: signal.reason },
    );
  }

  /**
   * Routes one frame; never throws: a frame that is not a JSON-RPC object is dropped, and what a
   * subscription's `onEvent` throws goes to its `onError`.
   */
  #receive(data: unknown): void {
    let message: Incoming;
    try {
      message = JSON.parse(String(data)) as Incoming;
    } catch {
      return;
    }
    if (typeof message !== "object" || message === null || message.id === undefined) return;
    const result = typeof message.result === "object" && message.result !== null ? message.result : undefined;
    const query = result?.query;
    if (query !== undefined) {
      // An event of a subscription: its id is the subscribe request's, its query the subscription's.
      const subscription = this.#subscriptions.get(String(query));
      if (result?.data === undefined || !subscription) return;
      try {
        subscription.onEvent(result.data);
      } catch (thrown) {
        tell(subscription, thrown);
      }
      return;
    }
    if (typeof message.id !== "number") return;
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    if (message.error) pending.reject(new JsonRpcError(message.error));
    else pending.resolve(message as JsonRpcSuccess);
  }

  #fail(error: unknown): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    const ended = [...this.#subscriptions.values()];
    this.#subscriptions.clear();
    // One not yet accepted hears it as its `subscribe` call's rejection instead.
    for (const subscription of ended) if (subscription.live) tell(subscription, error);
  }

  /**
   * The signal of the next `execute` call, consumed by it (the comet clients call `execute`
   * synchronously from their methods, so it is set right before one). When it aborts while the
   * call waits for the handshake, the call rejects with a `TransportError` whose `nothingSent` is
   * true (the handshake is abandoned once no call waits for it); while it waits for the answer,
   * with one whose `nothingSent` is false, and a late answer is ignored.
   */
  nextSignal: AbortSignal | undefined;

  /** Sends one JSON-RPC request and returns the success answer. */
  readonly execute = async (request: JsonRpcRequest): Promise<JsonRpcSuccess> => {
    const signal = this.nextSignal;
    this.nextSignal = undefined;
    return this.#call(request, signal);
  };

  /**
   * Sends one request and waits for its answer; `onWrite` hears the socket its frame is written to,
   * right before it is.
   */
  async #call(
    request: JsonRpcRequest,
    signal: AbortSignal | undefined,
    onWrite?: (socket: WebSocketLike) => void,
  ): Promise<JsonRpcSuccess> {
    // Until the frame is written, a deadline that fires finds nothing sent.
    let written = false;
    reportSending(signal, () => written);
    const socket = await this.#socketFor(signal);
    // Closed, or dropped, while this call waited for the socket: nothing would ever answer it.
    if (this.#closed || socket.readyState !== 1) {
      if (this.#closed) throw this.#closedBeforeSending();
      throw new TransportError({
        transport: "rpc",
        problem: "the WebSocket closed",
        url: this.#url,
        nothingSent: true,
      });
    }
    if (signal?.aborted) throw this.#gaveUp(signal, true);
    return new Promise<JsonRpcSuccess>((resolve, reject) => {
      const id = this.#nextWireId++;
      const onAbort = () => {
        // The call gives up: its entry goes now, so a late answer finds nobody.
        if (this.#pending.get(id) === pending) this.#pending.delete(id);
        reject(this.#gaveUp(signal!, false));
      };
      const pending: Pending = {
        resolve: (answer) => {
          signal?.removeEventListener("abort", onAbort);
          resolve({ ...(answer as JsonRpcSuccess), id: request.id });
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      this.#pending.set(id, pending);
      signal?.addEventListener("abort", onAbort, { once: true });
      written = true;
      onWrite?.(socket);
      socket.send(JSON.stringify({ ...request, id }));
    });
  }

  /**
   * Subscribes to CometBFT events matching `query`; `onEvent` gets each event's `data`. Resolves
   * once the node accepted the subscription, with a function that ends it. When the node does not
   * accept it within `timeoutMs` (or `signal` aborts first), it rejects and leaves nothing behind:
   * the query is free to subscribe again, and a subscribe the node may still accept is taken back
   * with an `unsubscribe` on the same socket, so no subscription lives on the node that nobody
   * hears.
   *
   * @param params - see `SubscribeParams`: each field is documented there.
   * @returns resolves with the function that unsubscribes.
   * @throws {TransportError} when the socket cannot be opened or closes.
   * @throws {JsonRpcError} when the node refuses the query.
   * @throws `TimeoutError` past `timeoutMs` and `AbortedError` when `signal` aborts, each with
   *   `nothingSent` true when the subscribe request was never written.
   * @throws `InvalidArgumentError` for a `timeoutMs` that is not a positive number.
   */
  async subscribe(params: SubscribeParams): Promise<() => void> {
    const { query, onEvent, onError = () => {}, timeoutMs = SUBSCRIBE_TIMEOUT_MS, signal } = params;
    checkTimeout(timeoutMs);
    if (this.#subscriptions.has(query)) {
      throw new TransportError({
        transport: "rpc",
        problem: `already subscribed to ${query}`,
        url: this.#url,
      });
    }
    const subscription: Subscription = { onEvent, onError, live: false };
    this.#subscriptions.set(query, subscription);
    let sentOn: WebSocketLike | undefined;
    try {
      await withDeadline(
        {
          operation: `subscribe to ${query}`,
          defaultTimeoutMs: SUBSCRIBE_TIMEOUT_MS,
          timeoutMs,
          ...(signal === undefined ? {} : { signal }),
        },
        (deadline) =>
          this.#call(
            { jsonrpc: "2.0", id: nextRequestId(), method: "subscribe", params: { query } },
            deadline,
            (socket) => {
              sentOn = socket;
            },
          ),
      );
    } catch (error) {
      if (this.#subscriptions.get(query) === subscription) this.#subscriptions.delete(query);
      // Given up on with the request written: the node may yet accept it, so take it back.
      if (sentOn && !(error instanceof JsonRpcError)) this.#unsubscribeOn(sentOn, query);
      throw error;
    }
    subscription.live = true;
    return () => {
      if (this.#subscriptions.get(query) !== subscription) return;
      this.#subscriptions.delete(query);
      if (sentOn) this.#unsubscribeOn(sentOn, query);
    };
  }

  /**
   * Writes an `unsubscribe` of `query` on `socket` without waiting for its answer (nothing stays
   * pending when the node never answers; the answer finds no call and is dropped). A socket that
   * is no longer open took its subscriptions with it: nothing is written.
   */
  #unsubscribeOn(socket: WebSocketLike, query: string): void {
    if (this.#closed || socket.readyState !== 1) return;
    const request = { jsonrpc: "2.0", id: this.#nextWireId++, method: "unsubscribe", params: { query } };
    socket.send(JSON.stringify(request));
  }

  /** Closes the socket: pending calls reject, subscriptions end, nothing is left scheduled. */
  readonly disconnect = (): void => {
    if (this.#closed) return;
    this.#closed = true;
    const dial = this.#dial;
    this.#dial = undefined;
    // During the handshake: a server that never completes it must not keep the socket, or the
    // calls waiting for it, alive.
    dial?.abandon(this.#closedBeforeSending());
    this.#fail(
      lastingFailure(
        new TransportError({ transport: "rpc", problem: "the WebSocket client is closed", url: this.#url }),
      ),
    );
    dial?.open
      .then((open) => {
        open.onclose = null;
        open.onmessage = null;
        open.close(1000);
      })
      .catch(() => {});
  };

  static {
    pendingCallCount = (client) => client.#pending.size;
  }
}
