/**
 * The program of the RPC's front thread (see `front.ts`) and the thread itself: started by
 * {@link prepareRpcFront} ahead of its use, so its start runs beside the devnet's, and taken by
 * {@link takeRpcFrontThread}. This module imports nothing at run time but `node:worker_threads`:
 * the command line's launcher starts the thread before it loads the program, and hands it over
 * through a process-wide slot, since the launcher and the program are separate bundles.
 */
import type { IncomingMessage, ServerOptions, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Worker } from "node:worker_threads";

/** Where and how the front listens (its first message). */
export interface FrontConfig {
  readonly host: string;
  readonly port: number;
  readonly upgradePort: number;
  readonly serverOptions: ServerOptions;
  readonly maxBodyBytes: number;
  /**
   * Most requests handed to the main thread and not yet answered. A request beyond them waits,
   * unread, with its connection paused, until answers make room: a flood of requests queues in
   * the sockets as it would before a busy single thread, not in memory.
   */
  readonly maxPending: number;
}

/**
 * A request as the front posts it, four items each: its number, method, target, and body (the text
 * of a POST's, null for other methods, false when it was over the limit).
 */
export type RequestItems = Array<number | string | null | false>;

/** Answers as the main thread posts them, four items each: the request's number, status, headers, body. */
export type ReplyItems = Array<number | Readonly<Record<string, string | number>> | string | Uint8Array>;

/** What the main thread tells the front besides answers. */
export type ControlMessage =
  | { readonly type: "listen"; readonly config: FrontConfig }
  | { readonly type: "close" };

/** The front's other messages. */
export type FrontEvent =
  | { readonly type: "listening"; readonly port: number }
  | { readonly type: "failed"; readonly code: string | undefined; readonly message: string }
  | { readonly type: "closed" };

/**
 * The front thread's program. It runs from its source text (see {@link FRONT_SOURCE}), so it uses
 * nothing from outside its body: the modules it needs come as arguments.
 */
function runFront(
  threads: typeof import("node:worker_threads"),
  http: typeof import("node:http"),
  net: typeof import("node:net"),
): void {
  const parent = threads.parentPort;
  if (parent === null) return;
  let config: FrontConfig;
  const waiting = new Map<number, ServerResponse>();
  const tunnels = new Set<Socket>();
  let nextId = 0;
  let outbox: RequestItems = [];
  const flush = () => {
    const items = outbox;
    outbox = [];
    parent.postMessage(items);
  };
  const forward = (res: ServerResponse, method: string, url: string, body: string | null | false) => {
    const id = nextId++;
    waiting.set(id, res);
    if (outbox.length === 0) setImmediate(flush);
    outbox.push(id, method, url, body);
  };

  // Requests admitted (being read, or handed over and not yet answered), and those that wait for
  // room (see `FrontConfig.maxPending`), first come first served.
  let admitted = 0;
  const held: Array<() => void> = [];
  const admit = (req: IncomingMessage, res: ServerResponse) => {
    if (res.destroyed) return;
    admitted++;
    res.once("close", () => {
      admitted--;
      while (admitted < config.maxPending && held.length > 0) held.shift()?.();
    });
    read(req, res);
  };
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    if (admitted < config.maxPending && held.length === 0) {
      admit(req, res);
      return;
    }
    req.socket.pause();
    held.push(() => {
      req.socket.resume();
      admit(req, res);
    });
  };
  const read = (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    if (method !== "POST") {
      forward(res, method, url, null);
      return;
    }
    // An oversize body is read to its end (and dropped) before the answer, so the answer reaches a
    // client that is still uploading.
    let chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > config.maxBodyBytes) chunks = [];
      else chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > config.maxBodyBytes) forward(res, method, url, false);
      else
        forward(
          res,
          method,
          url,
          (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))?.toString("utf8") ?? "",
        );
    });
    req.on("error", () => res.destroy());
  };

  const tunnel = (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const upstream = net.connect(config.upgradePort, "127.0.0.1");
    upstream.setNoDelay(true);
    tunnels.add(socket);
    tunnels.add(upstream);
    const drop = () => {
      socket.destroy();
      upstream.destroy();
      tunnels.delete(socket);
      tunnels.delete(upstream);
    };
    for (const end of [socket, upstream]) end.on("error", drop).on("close", drop);
    let text = `${req.method ?? "GET"} ${req.url ?? "/"} HTTP/1.1\r\n`;
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
      text += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
    upstream.write(`${text}\r\n`);
    if (head.length > 0) upstream.write(head);
    socket.pipe(upstream).pipe(socket);
  };

  // Made at the first message, which says where to listen (the thread may start before that is known).
  let server: import("node:http").Server | undefined;
  const listen = () => {
    const listening = http.createServer(config.serverOptions, serve).on("upgrade", tunnel);
    const failed = (error: NodeJS.ErrnoException) => {
      parent.postMessage({ type: "failed", code: error.code, message: error.message } satisfies FrontEvent);
    };
    listening.once("error", failed);
    listening.listen(config.port, config.host, () => {
      // Once listening, an error is a failed accept (out of file descriptors, say): Node tries the
      // next connection anyway, and the connections already open go on.
      listening.off("error", failed).on("error", () => undefined);
      const address = listening.address();
      const port = typeof address === "object" && address !== null ? address.port : config.port;
      parent.postMessage({ type: "listening", port } satisfies FrontEvent);
    });
    server = listening;
  };

  parent.on("message", (message: ReplyItems | ControlMessage) => {
    if (!Array.isArray(message)) {
      if (message.type === "listen") {
        config = message.config;
        listen();
        return;
      }
      if (server === undefined) {
        parent.postMessage({ type: "closed" } satisfies FrontEvent);
        return;
      }
      server.close(() => parent.postMessage({ type: "closed" } satisfies FrontEvent));
      server.closeAllConnections();
      for (const socket of tunnels) socket.destroy();
      return;
    }
    for (let i = 0; i + 3 < message.length; i += 4) {
      const id = message[i] as number;
      const res = waiting.get(id);
      if (res === undefined) continue;
      waiting.delete(id);
      if (res.destroyed) continue;
      try {
        res.writeHead(message[i + 1] as number, message[i + 2] as Readonly<Record<string, string | number>>);
        res.end(message[i + 3] as string | Uint8Array);
      } catch {
        res.destroy();
      }
    }
  });
}

/**
 * The front thread's script: {@link runFront} called with the modules it needs. A transpiler that
 * keeps function names (tsx, which runs the sources) wraps the inner functions in a `__name` helper
 * of its module: the script has its own, which leaves them as they are.
 */
const FRONT_SOURCE = `var __name = (target) => target;
(${runFront.toString()})(require("node:worker_threads"), require("node:http"), require("node:net"));`;

/** A front thread started ahead of its use by {@link prepareRpcFront}. */
interface Spare {
  readonly worker: Worker;
  readonly forget: () => void;
}

const SPARE = Symbol.for("@perpx/devnet: RPC front thread");

/** The process-wide slot of the spare thread (one for every copy of this module). */
const slot = globalThis as { [SPARE]?: Spare | undefined };

/**
 * Starts a front thread ahead of {@link startRpcFront}, which takes it: its start (a thread and
 * Node's HTTP modules) then runs beside the devnet's own, not after it. Until taken, the thread
 * keeps no process alive; a second call while one waits does nothing.
 *
 * @example
 * ```ts
 * prepareRpcFront(); // first thing in startDevnet
 * ```
 */
export function prepareRpcFront(): void {
  if (slot[SPARE] !== undefined) return;
  const worker = new Worker(FRONT_SOURCE, { eval: true });
  worker.unref();
  const forget = () => {
    if (slot[SPARE]?.worker === worker) slot[SPARE] = undefined;
  };
  worker.on("error", forget).on("exit", forget);
  slot[SPARE] = { worker, forget };
}

/**
 * The front thread: the one {@link prepareRpcFront} started, or a new one. It keeps the process
 * alive from now on.
 *
 * @returns the thread, waiting for its `listen` message.
 * @example
 * ```ts
 * const worker = takeRpcFrontThread();
 * await worker.terminate();
 * ```
 */
export function takeRpcFrontThread(): Worker {
  const taken = slot[SPARE];
  slot[SPARE] = undefined;
  if (taken === undefined) return new Worker(FRONT_SOURCE, { eval: true });
  taken.worker.off("error", taken.forget).off("exit", taken.forget).ref();
  return taken.worker;
}
