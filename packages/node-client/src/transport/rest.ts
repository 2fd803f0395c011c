import { InvalidArgumentError } from "@perpx/errors";
import { failedBeforeConnecting, QueryError, TransportError } from "../errors.js";
import { answerText } from "./answer-text.js";

/**
 * Options of the Cosmos REST transport.
 *
 * @example
 * ```ts
 * // Any `fetch`: here one that adds a header to every request.
 * const rest: RestOptions = { url: "http://127.0.0.1:1317", fetch: (input, init) => fetch(input, { ...init, headers: { "x-api-key": "my-key" } }) };
 * ```
 */
export interface RestOptions {
  /** `http(s)://host:port` of the node's REST (API) server. */
  url: string;
  /**
   * The `fetch` used for requests.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
  /**
   * Extra HTTP headers on every request.
   * @default {}
   */
  headers?: Record<string, string>;
}

/** An open REST transport. */
export interface RestConnection {
  /** The base URL, without a trailing slash. */
  readonly url: string;
  /** GETs `path` and returns the parsed JSON body. */
  get(path: string, signal?: AbortSignal): Promise<unknown>;
}

/**
 * Opens a REST transport over an injectable `fetch`.
 *
 * @throws {InvalidArgumentError} for a URL without an http(s) scheme.
 *
 * @example
 * ```ts
 * const rest = openRest({ url: process.env.PERPX_NODE_REST_URL ?? "http://127.0.0.1:1317" });
 * const config = (await rest.get("/cosmos/base/node/v1beta1/config")) as { minimum_gas_price: string };
 * config.minimum_gas_price.length > 0; // true
 * ```
 */
export function openRest(input: string | RestOptions): RestConnection {
  const options = typeof input === "string" ? { url: input } : input;
  if (!/^https?:\/\//i.test(options.url)) {
    throw new InvalidArgumentError(
      "rest.url",
      `expected an http(s):// URL, got ${JSON.stringify(options.url)}`,
    );
  }
  const base = options.url.replace(/\/+$/, "");
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const headers = { accept: "application/json", ...(options.headers ?? {}) };
  return {
    url: base,
    async get(path, signal) {
      const url = `${base}${path}`;
      let response: Response;
      try {
        response = await doFetch(url, { method: "GET", headers, ...(signal ? { signal } : {}) });
      } catch (error) {
        if (signal?.aborted) throw error;
        throw new TransportError(
          {
            transport: "rest",
            problem: "the node could not be reached",
            url,
            nothingSent: failedBeforeConnecting(error),
          },
          { cause: error },
        );
      }
      const text = await answerText(response, signal, "rest", url);
      let body: unknown;
      try {
        body = text === "" ? {} : JSON.parse(text);
      } catch (error) {
        throw new TransportError(
          { transport: "rest", problem: `HTTP ${response.status} with a body that is not JSON`, url },
          { cause: error },
        );
      }
      if (!response.ok) {
        const detail = body as { code?: number; message?: string };
        throw new QueryError({
          path,
          transport: "rest",
          httpStatus: response.status,
          ...(typeof detail.code === "number" ? { grpcCode: detail.code } : {}),
          log: typeof detail.message === "string" ? detail.message : text.slice(0, 500),
        });
      }
      return body;
    },
  };
}
