/**
 * The HTTP side of an indexer client: one GET with its deadline, retries on 429 and 5xx, and the
 * mapping of every failure to a typed error. Uses only `fetch`, so it runs in browsers too.
 */
import { InvalidArgumentError } from "@perpx/errors";
import { httpErrorOf, IndexerDecodeError, IndexerRateLimitError, IndexerTransportError } from "../errors.js";
import { type CallOptions, checkTimeoutMs, type Deadline, startDeadline } from "./deadline.js";
import { encodeQuery, type QueryValue } from "./query.js";
import {
  backoffDelayMs,
  isRetryableStatus,
  type RetryOptions,
  type RetryPolicy,
  retryAfterMsOf,
  retryPolicyOf,
} from "./retry.js";

/**
 * Options of {@link createIndexerConnection} (and of `createIndexerClient`).
 *
 * @example
 * ```ts
 * const options: IndexerConnectionOptions = { baseUrl: "http://127.0.0.1:3002", timeoutMs: 5_000, retry: { retries: 2 } };
 * ```
 */
export interface IndexerConnectionOptions {
  /** The indexer's base URL, `http(s)://host:port` (the client adds `/v4/...`). */
  readonly baseUrl: string;
  /**
   * The `fetch` used for requests.
   * @default globalThis.fetch
   */
  readonly fetch?: typeof fetch;
  /**
   * The default time budget of a call, retries included, in milliseconds.
   * @default 10000
   */
  readonly timeoutMs?: number;
  /**
   * Retries on 429, 5xx and transport failures; `false` disables them.
   * @default { retries: 3, baseDelayMs: 250, maxDelayMs: 10000, retryTransportErrors: true }
   */
  readonly retry?: RetryOptions | false;
  /**
   * Extra request headers (never logged nor put into errors).
   * @default {}
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The bech32 prefix addresses are checked and sent with (`0x` addresses are converted to it).
   * @default "perpx"
   */
  readonly addressPrefix?: string;
}

/**
 * The JSON shape an endpoint answers with: an object, or a bare array (`/v4/orders`).
 *
 * @example
 * ```ts
 * const shape: BodyShape = "array";
 * ```
 */
export type BodyShape = "object" | "array";

/**
 * An open connection to an indexer: what every action receives as its first argument.
 *
 * @example
 * ```ts
 * const connection = createIndexerConnection({ baseUrl: "http://127.0.0.1:3002" });
 * connection.baseUrl; // "http://127.0.0.1:3002"
 * ```
 */
export interface IndexerConnection {
  /** The base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** The default time budget of a call, in milliseconds. */
  readonly timeoutMs: number;
  /** The retry policy. */
  readonly retry: RetryPolicy;
  /** The bech32 prefix of addresses. */
  readonly addressPrefix: string;
  /**
   * GETs `path` (starting with `/`) with the query, and returns the parsed JSON body, checked to be
   * of `shape`.
   */
  get(
    path: string,
    query: Readonly<Record<string, QueryValue>>,
    call: CallOptions,
    shape: BodyShape,
  ): Promise<unknown>;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function hasShape(body: unknown, shape: BodyShape): boolean {
  return shape === "array"
    ? Array.isArray(body)
    : typeof body === "object" && body !== null && !Array.isArray(body);
}

async function attempt(
  doFetch: typeof fetch,
  url: string,
  headers: Readonly<Record<string, string>>,
  deadline: Deadline,
): Promise<{ response: Response; text: string } | { transportError: unknown }> {
  try {
    // Raced against the deadline: a fetch that ignores its signal still ends with the call.
    return await deadline.race(
      (async () => {
        const response = await doFetch(url, { method: "GET", headers, signal: deadline.signal });
        return { response, text: await response.text() };
      })(),
      url,
    );
  } catch (error) {
    if (deadline.signal.aborted) throw deadline.failure(url);
    return { transportError: error };
  }
}

/**
 * Opens a connection to an indexer. Nothing is dialled until the first call.
 *
 * @param options - base URL, fetch, timeout, retry policy, headers and address prefix.
 * @returns the connection.
 * @throws InvalidArgumentError for a base URL that is not http(s) or a bad option.
 * @example
 * ```ts
 * const connection = createIndexerConnection({ baseUrl: "http://127.0.0.1:3002/" });
 * connection.baseUrl; // "http://127.0.0.1:3002"
 * connection.timeoutMs; // 10000
 * ```
 */
export function createIndexerConnection(options: IndexerConnectionOptions): IndexerConnection {
  if (typeof options.baseUrl !== "string" || !/^https?:\/\/[^/]/i.test(options.baseUrl)) {
    throw new InvalidArgumentError(
      "baseUrl",
      `expected an http(s):// URL, got ${JSON.stringify(options.baseUrl)}`,
    );
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = checkTimeoutMs(options.timeoutMs ?? 10_000);
  const retry = retryPolicyOf(options.retry);
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const headers = { accept: "application/json", ...(options.headers ?? {}) };
  return {
    baseUrl,
    timeoutMs,
    retry,
    addressPrefix: options.addressPrefix ?? "perpx",
    async get(path, query, call, shape) {
      const url = `${baseUrl}${path}${encodeQuery(query)}`;
      const deadline = startDeadline(checkTimeoutMs(call.timeoutMs ?? timeoutMs), call.signal);
      try {
        for (let retryIndex = 0; ; retryIndex++) {
          if (deadline.signal.aborted) throw deadline.failure(url);
          const result = await attempt(doFetch, url, headers, deadline);
          const canRetry = retryIndex < retry.retries;
          if ("transportError" in result) {
            if (!canRetry || !retry.retryTransportErrors)
              throw new IndexerTransportError(url, result.transportError);
            await deadline.sleep(backoffDelayMs(retry, retryIndex, undefined, Math.random()), url);
            continue;
          }
          const { response, text } = result;
          const body = parseBody(text);
          if (response.ok) {
            if (typeof body === "string") throw new IndexerDecodeError(url, "not JSON");
            if (!hasShape(body, shape)) throw new IndexerDecodeError(url, `not a JSON ${shape}`);
            return body;
          }
          const serverMs = response.status === 429 ? retryAfterMsOf(response.headers, Date.now()) : undefined;
          const answer = { status: response.status, url, body };
          if (!isRetryableStatus(response.status) || !canRetry) throw httpErrorOf(answer, serverMs);
          if (serverMs !== undefined && serverMs > retry.maxDelayMs) {
            throw new IndexerRateLimitError(answer, serverMs);
          }
          await deadline.sleep(backoffDelayMs(retry, retryIndex, serverMs, Math.random()), url);
        }
      } finally {
        deadline.clear();
      }
    },
  };
}
