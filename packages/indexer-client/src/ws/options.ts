/**
 * Options of {@link connectIndexerSocket}, checked before anything is opened.
 */
import { checkDelayMs } from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";
import type { ReconnectOptions } from "./backoff.js";
import type { IndexerWebSocketConstructor } from "./transport.js";

/**
 * How to reach the indexer's WebSocket and how hard to hold on to it.
 *
 * @example
 * ```ts
 * const options: IndexerSocketOptions = {
 *   url: "ws://127.0.0.1:3003/v4/ws",
 *   idleTimeoutMs: 40_000,
 *   reconnect: { initialDelayMs: 250, maxDelayMs: 10_000 },
 * };
 * ```
 */
export interface IndexerSocketOptions {
  /** The WebSocket URL, `ws://` or `wss://` (the public indexer serves it at `/v4/ws`). */
  readonly url: string;
  /**
   * The WebSocket constructor.
   * @default `ws`'s in Node (loaded on first use), the global `WebSocket` in a browser
   */
  readonly WebSocket?: IndexerWebSocketConstructor;
  /**
   * How long the server may stay silent (no frame, no protocol ping or pong) before the socket is
   * dropped as stalled and reconnected. The server pings every 30 s; in a browser, whose pings are
   * invisible to scripts, only messages count, so keep it above the quietest expected period (or
   * subscribe to `v4_block_height`). `0` disables it. Frames that arrived while this process was
   * busy past the timeout are read before the silence is judged, so they count.
   * @default 40_000
   */
  readonly idleTimeoutMs?: number;
  /**
   * With `ws` (Node), after this long without a frame the client sends a protocol ping, which the
   * server answers, so a healthy quiet server is never taken for a stalled one. It is at most half
   * of `idleTimeoutMs`, so the answer has time to come.
   * @default 15_000
   */
  readonly pingIntervalMs?: number;
  /**
   * How long each connection may take to open and say `connected`: the first one fails
   * `connectIndexerSocket` with a `TimeoutError`, a reconnect is dropped as stalled and tried again
   * on the backoff schedule.
   * @default 10_000
   */
  readonly connectTimeoutMs?: number;
  /**
   * The reconnect policy, or `false` to end every subscription when the socket drops.
   * @default { initialDelayMs: 250, maxDelayMs: 10_000, maxAttempts: Infinity, stableAfterMs: 10_000 }
   */
  readonly reconnect?: ReconnectOptions | false;
  /**
   * The largest frame accepted, in bytes (UTF-8). A larger one is refused with an
   * `IndexerFrameError` `error` event and the connection resyncs (it reconnects with backoff: the
   * frame is not read, so which subscription it was for is unknown). The indexer's largest
   * messages, initial snapshots of busy markets or accounts, stay well under the default. In Node,
   * the default `ws` is given this limit and refuses a larger frame from its header, before its
   * payload is buffered (a `WebSocket` passed in measures frames once received).
   * @default 8_388_608 (8 MiB)
   */
  readonly maxFrameBytes?: number;
  /**
   * The random source of the reconnect jitter, in [0, 1).
   * @default Math.random
   */
  readonly random?: () => number;
}

function checkMs(name: string, value: number | undefined, allowZero: boolean): void {
  if (value !== undefined) checkDelayMs(value, name, allowZero);
}

/** Throws an `InvalidArgumentError` naming the first bad option. */
export function checkSocketOptions(options: IndexerSocketOptions): void {
  if (typeof options?.url !== "string" || !/^wss?:\/\/[^\s/]+/i.test(options.url)) {
    throw new InvalidArgumentError(
      "url",
      `must be a ws:// or wss:// URL, got ${JSON.stringify(options?.url)}`,
    );
  }
  if (options.WebSocket !== undefined && typeof options.WebSocket !== "function") {
    throw new InvalidArgumentError("WebSocket", "must be a WebSocket constructor");
  }
  checkMs("idleTimeoutMs", options.idleTimeoutMs, true);
  checkMs("pingIntervalMs", options.pingIntervalMs, false);
  checkMs("connectTimeoutMs", options.connectTimeoutMs, false);
  const maxFrameBytes = options.maxFrameBytes;
  if (maxFrameBytes !== undefined && !(Number.isSafeInteger(maxFrameBytes) && maxFrameBytes > 0)) {
    throw new InvalidArgumentError("maxFrameBytes", `must be a positive integer, got ${maxFrameBytes}`);
  }
  if (options.reconnect) {
    checkMs("reconnect.initialDelayMs", options.reconnect.initialDelayMs, false);
    checkMs("reconnect.maxDelayMs", options.reconnect.maxDelayMs, false);
    checkMs("reconnect.stableAfterMs", options.reconnect.stableAfterMs, true);
    const attempts = options.reconnect.maxAttempts;
    if (attempts !== undefined && !(attempts >= 0)) {
      throw new InvalidArgumentError("reconnect.maxAttempts", `must be >= 0, got ${attempts}`);
    }
  }
}
