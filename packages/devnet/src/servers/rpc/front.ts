/**
 * The RPC's front thread. The connections of the CometBFT RPC port are held by a worker thread,
 * which reads each HTTP/1 request, hands it to the main thread as data ({@link RpcHttpRequest}) and
 * writes the answer ({@link HttpReply}) back: the main thread, where the chain runs, is spared the
 * sockets, the HTTP parsing and the writes, which cost it more than CheckTx's signature check.
 * WebSocket upgrades are tunnelled, bytes as they are, to a server of the main thread on a loopback
 * port, which holds the subscriptions.
 *
 * The requests read in one turn of the front's event loop go to the main thread as one message, and
 * the answers ready in one turn of the main loop come back as one.
 */
import { type HttpReply, httpServerOptions, type ServerTimeouts } from "../http.js";
import { RPC_MAX_BODY_BYTES, type RpcHttpRequest } from "./framing.js";
import {
  type ControlMessage,
  type FrontConfig,
  type FrontEvent,
  type ReplyItems,
  type RequestItems,
  takeRpcFrontThread,
} from "./front-thread.js";

/**
 * Most HTTP requests the front hands to the main thread before their answers: CometBFT's RPC
 * serves at most 900 connections at once (`max_open_connections`), each with one request.
 */
export const RPC_MAX_PENDING_REQUESTS = 900;

/** Options of {@link startRpcFront}. */
export interface RpcFrontOptions {
  /** Interface and port to listen on (0: a free port). */
  readonly host: string;
  readonly port: number;
  /** The loopback port of the main thread's server that WebSocket upgrades are tunnelled to. */
  readonly upgradePort: number;
  readonly timeouts: Partial<ServerTimeouts> | undefined;
  /** Answers one request (on the main thread); never rejects. */
  readonly respond: (request: RpcHttpRequest) => Promise<HttpReply>;
  /** Told when the front thread fails after it started (the port is then closed). */
  readonly onError?: (error: Error) => void;
}

/** A running front thread. */
export interface RpcFront {
  /** The port it listens on. */
  readonly port: number;
  /** Closes the port and every connection (tunnels too), then ends the thread. */
  close(): Promise<void>;
}

/** A failure to listen, shaped as `listen` throws it (with the system's `code`). */
function listenError(event: { code: string | undefined; message: string }): Error {
  return Object.assign(new Error(event.message), event.code === undefined ? {} : { code: event.code });
}

/**
 * Starts the front thread on `host:port` (see the module comment).
 *
 * @param options - where to listen, where upgrades go, and the main thread's answers.
 * @returns the front once it listens; rejects as `listen` would (e.g. `code` `EADDRINUSE`).
 * @example
 * ```ts
 * const front = await startRpcFront({
 *   host: "127.0.0.1",
 *   port: 0,
 *   upgradePort: 9,
 *   timeouts: {},
 *   respond: async () => jsonReply(200, { ok: true }),
 * });
 * const answer = await fetch(`http://127.0.0.1:${front.port}/`);
 * await answer.json(); // { ok: true }
 * await front.close();
 * ```
 */
export function startRpcFront(options: RpcFrontOptions): Promise<RpcFront> {
  const config: FrontConfig = {
    host: options.host,
    port: options.port,
    upgradePort: options.upgradePort,
    serverOptions: httpServerOptions(options.timeouts),
    maxBodyBytes: RPC_MAX_BODY_BYTES,
    maxPending: RPC_MAX_PENDING_REQUESTS,
  };
  const worker = takeRpcFrontThread();
  worker.postMessage({ type: "listen", config } satisfies ControlMessage);
  let outbox: ReplyItems = [];
  const flush = () => {
    const items = outbox;
    outbox = [];
    worker.postMessage(items);
  };
  const answer = (id: number, reply: HttpReply) => {
    if (outbox.length === 0) setImmediate(flush);
    outbox.push(id, reply.status, reply.headers, reply.body);
  };
  const serve = (items: RequestItems) => {
    for (let i = 0; i + 3 < items.length; i += 4) {
      const id = items[i] as number;
      const body = items[i + 3];
      options
        .respond({
          method: items[i + 1] as string,
          url: items[i + 2] as string,
          ...(typeof body === "string" ? { body } : {}),
          ...(body === false ? { oversize: true } : {}),
        })
        .then((reply) => answer(id, reply));
    }
  };

  return new Promise((resolve, reject) => {
    let state: "starting" | "running" | "closing" | "closed" = "starting";
    let closed: (() => void) | undefined;
    const fail = (error: Error) => {
      if (state === "starting") reject(error);
      else if (state === "running") options.onError?.(error);
      state = "closed";
      closed?.();
      void worker.terminate();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (state !== "closed") fail(new Error(`the RPC front thread exited (code ${code})`));
    });
    worker.on("message", (message: RequestItems | FrontEvent) => {
      if (Array.isArray(message)) {
        serve(message);
        return;
      }
      if (message.type === "failed") fail(listenError(message));
      else if (message.type === "closed") {
        state = "closed";
        void worker.terminate().then(() => closed?.());
      } else {
        state = "running";
        let closing: Promise<void> | undefined;
        resolve({
          port: message.port,
          close: () => {
            if (state === "closed") return Promise.resolve();
            state = "closing";
            closing ??= new Promise<void>((done) => {
              closed = done;
              worker.postMessage({ type: "close" });
            });
            return closing;
          },
        });
      }
    });
  });
}
