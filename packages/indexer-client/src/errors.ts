/**
 * The errors of the indexer client, all on `PerpxError`: an HTTP answer that is not 2xx
 * ({@link IndexerHttpError} and its subclasses by status and code), a request that never got an
 * answer ({@link IndexerTransportError}), a 2xx body that is not JSON ({@link IndexerDecodeError})
 * and a call that ran out of time ({@link IndexerTimeoutError}).
 */
import type { IndexerBlockedErrorEntry, IndexerValidationErrorEntry } from "@perpx/core/indexer";
import { errorGuard, PerpxError, type PerpxErrorOptions, TimeoutError } from "@perpx/errors";

/**
 * The parts of a non-2xx answer an {@link IndexerHttpError} keeps.
 *
 * @example
 * ```ts
 * const answer: IndexerHttpAnswer = { status: 500, url: "http://127.0.0.1:3002/v4/height", body: { errors: [{ msg: "Internal Server Error" }] } };
 * ```
 */
export interface IndexerHttpAnswer {
  /** The HTTP status. */
  readonly status: number;
  /** The URL requested (path and query; the client sends no credentials in URLs). */
  readonly url: string;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  readonly body: unknown;
}

function firstMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (Array.isArray(errors)) {
    const messages = errors
      .map((entry) =>
        typeof entry === "object" && entry !== null ? (entry as { msg?: unknown }).msg : undefined,
      )
      .filter((msg): msg is string => typeof msg === "string");
    if (messages.length > 0) return messages.join("; ");
  }
  const error = (body as { error?: unknown }).error;
  return typeof error === "string" ? error : undefined;
}

/**
 * The indexer answered with a non-2xx status. Subclasses say more: {@link IndexerValidationError}
 * (400), {@link GeoBlockedError} and {@link ComplianceBlockedError} (403),
 * {@link IndexerNotFoundError} (404), {@link IndexerRateLimitError} (429 after the retries).
 *
 * @example
 * ```ts
 * const error = new IndexerHttpError({ status: 500, url: "http://127.0.0.1:3002/v4/height", body: { errors: [{ msg: "Internal Server Error" }] } });
 * error.status; // 500
 * error.shortMessage; // "Indexer answered 500 for /v4/height: Internal Server Error"
 * ```
 */
export class IndexerHttpError extends PerpxError {
  override name = "IndexerHttpError";
  /** The HTTP status. */
  readonly status: number;
  /** The URL requested. */
  readonly url: string;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  readonly body: unknown;

  /**
   * @param answer - status, URL and body of the answer.
   * @param options - cause, details and meta lines.
   */
  constructor(answer: IndexerHttpAnswer, options: PerpxErrorOptions = {}) {
    const message = firstMessage(answer.body);
    const path = pathOf(answer.url);
    super(
      "INDEXER_HTTP",
      `Indexer answered ${answer.status} for ${path}${message ? `: ${message}` : ""}`,
      options,
    );
    this.status = answer.status;
    this.url = answer.url;
    this.body = answer.body;
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/**
 * True when `value` is an {@link IndexerHttpError} or one of its subclasses (any error of code
 * `INDEXER_HTTP`).
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isIndexerHttpError(new IndexerNotFoundError({ status: 404, url: "http://x/v4/height", body: {} })); // true
 * ```
 */
export function isIndexerHttpError(value: unknown): value is IndexerHttpError {
  return value instanceof PerpxError && value.code === "INDEXER_HTTP";
}

/**
 * A 400: the indexer's validators refused the request. `entries` are the server's
 * `{ value?, msg, param?, location? }` items, one per failed rule.
 *
 * @example
 * ```ts
 * const error = new IndexerValidationError({
 *   status: 400, url: "http://x/v4/fills",
 *   body: { errors: [{ value: "2000", msg: "limit must be a positive integer that is not greater than max: 1000", param: "limit", location: "query" }] },
 * });
 * error.entries[0]?.param; // "limit"
 * ```
 */
export class IndexerValidationError extends IndexerHttpError {
  override name = "IndexerValidationError";
  /** The failed rules, as the server listed them. */
  readonly entries: readonly IndexerValidationErrorEntry[];

  /**
   * @param answer - status, URL and body of the answer.
   * @param options - cause, details and meta lines.
   */
  constructor(answer: IndexerHttpAnswer, options: PerpxErrorOptions = {}) {
    super(answer, options);
    this.entries = entriesOf(answer.body).flatMap((entry) => {
      if (typeof entry.msg !== "string") return [];
      const location = entry.location === "query" || entry.location === "params" ? entry.location : undefined;
      return [
        {
          msg: entry.msg,
          ...(typeof entry.param === "string" ? { param: entry.param } : {}),
          ...(location === undefined ? {} : { location }),
          ...("value" in entry ? { value: entry.value } : {}),
        },
      ];
    });
  }
}

function entriesOf(body: unknown): Array<Record<string, unknown>> {
  if (typeof body !== "object" || body === null) return [];
  const errors = (body as { errors?: unknown }).errors;
  return Array.isArray(errors)
    ? errors.filter((entry): entry is Record<string, unknown> => typeof entry === "object" && entry !== null)
    : [];
}

/**
 * The code of the first 403 entry, when the body has one (`GEOBLOCKED`, `COMPLIANCE_BLOCKED`).
 *
 * @param body - a parsed error body.
 * @returns the code, or undefined.
 * @example
 * ```ts
 * blockedCodeOf({ errors: [{ code: "GEOBLOCKED", msg: "..." }] }); // "GEOBLOCKED"
 * blockedCodeOf({ errors: [{ msg: "Forbidden" }] }); // undefined
 * ```
 */
export function blockedCodeOf(body: unknown): IndexerBlockedErrorEntry["code"] | undefined {
  for (const entry of entriesOf(body)) {
    if (entry.code === "GEOBLOCKED" || entry.code === "COMPLIANCE_BLOCKED") return entry.code;
  }
  return undefined;
}

/**
 * A 403 with code `GEOBLOCKED`: the request came from a restricted region.
 *
 * @example
 * ```ts
 * const error = new GeoBlockedError({ status: 403, url: "http://x/v4/fills", body: { errors: [{ code: "GEOBLOCKED", msg: "Blocked" }] } });
 * error.status; // 403
 * ```
 */
export class GeoBlockedError extends IndexerHttpError {
  override name = "GeoBlockedError";
}

/**
 * A 403 with code `COMPLIANCE_BLOCKED`: the address is blocked.
 *
 * @example
 * ```ts
 * const error = new ComplianceBlockedError({ status: 403, url: "http://x/v4/fills", body: { errors: [{ code: "COMPLIANCE_BLOCKED", msg: "Blocked" }] } });
 * isComplianceBlockedError(error); // true
 * ```
 */
export class ComplianceBlockedError extends IndexerHttpError {
  override name = "ComplianceBlockedError";
}

/**
 * A 404: no such entity (`No subaccount found ...`, `No blocks found`) or no such route.
 *
 * @example
 * ```ts
 * const error = new IndexerNotFoundError({ status: 404, url: "http://x/v4/height", body: { errors: [{ msg: "No blocks found" }] } });
 * error.shortMessage; // "Indexer answered 404 for /v4/height: No blocks found"
 * ```
 */
export class IndexerNotFoundError extends IndexerHttpError {
  override name = "IndexerNotFoundError";
}

/**
 * A 429 that outlasted the retries (or asked to wait longer than the retry policy allows).
 * `retryAfterMs` is what the server asked for, when it said.
 *
 * @example
 * ```ts
 * const error = new IndexerRateLimitError({ status: 429, url: "http://x/v4/fills", body: { errors: [{ msg: "Too many requests" }] } }, 1500);
 * error.retryAfterMs; // 1500
 * ```
 */
export class IndexerRateLimitError extends IndexerHttpError {
  override name = "IndexerRateLimitError";
  /** The wait the server asked for, in milliseconds, when it sent `Retry-After` or `RateLimit-Reset`. */
  readonly retryAfterMs: number | undefined;

  /**
   * @param answer - status, URL and body of the answer.
   * @param retryAfterMs - the wait the server asked for, in milliseconds.
   * @param options - cause, details and meta lines.
   */
  constructor(answer: IndexerHttpAnswer, retryAfterMs: number | undefined, options: PerpxErrorOptions = {}) {
    super(answer, options);
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * A request that got no HTTP answer: refused, reset, DNS or TLS failure.
 *
 * @example
 * ```ts
 * const error = new IndexerTransportError("http://127.0.0.1:9/v4/height", new Error("connect ECONNREFUSED"));
 * error.code; // "TRANSPORT"
 * ```
 */
export class IndexerTransportError extends PerpxError {
  override name = "IndexerTransportError";
  /** The URL requested. */
  readonly url: string;

  /**
   * @param url - the URL requested.
   * @param cause - the failure `fetch` raised.
   */
  constructor(url: string, cause: unknown) {
    super("TRANSPORT", `Indexer request to ${pathOf(url)} failed`, { cause });
    this.url = url;
  }
}

/**
 * A 2xx answer whose body is not the JSON the endpoint promises.
 *
 * @example
 * ```ts
 * const error = new IndexerDecodeError("http://x/v4/height", "not JSON");
 * error.code; // "DECODE"
 * ```
 */
export class IndexerDecodeError extends PerpxError {
  override name = "IndexerDecodeError";
  /** The URL requested. */
  readonly url: string;

  /**
   * @param url - the URL requested.
   * @param problem - what was wrong with the body.
   * @param options - cause, details and meta lines.
   */
  constructor(url: string, problem: string, options: PerpxErrorOptions = {}) {
    super("DECODE", `Indexer answer from ${pathOf(url)} is ${problem}`, options);
    this.url = url;
  }
}

/**
 * An indexer call that did not finish within its `timeoutMs` (retries and waits included); a
 * {@link TimeoutError}, so `isTimeoutError` is true for it.
 *
 * @example
 * ```ts
 * const error = new IndexerTimeoutError("http://x/v4/height", 2_000);
 * error.timeoutMs; // 2000
 * error.shortMessage; // "GET /v4/height timed out after 2000 ms"
 * ```
 */
export class IndexerTimeoutError extends TimeoutError {
  override name = "IndexerTimeoutError";
  /** The URL requested. */
  readonly url: string;

  /**
   * @param url - the URL requested.
   * @param timeoutMs - the limit, in milliseconds.
   */
  constructor(url: string, timeoutMs: number) {
    super(`GET ${pathOf(url)}`, timeoutMs);
    this.url = url;
  }
}

/**
 * True when `value` is an {@link IndexerValidationError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isIndexerValidationError(new IndexerValidationError({ status: 400, url: "http://x/v4/fills", body: { errors: [] } })); // true
 * ```
 */
export const isIndexerValidationError = errorGuard<IndexerValidationError>("IndexerValidationError");
/**
 * True when `value` is a {@link GeoBlockedError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isGeoBlockedError(new GeoBlockedError({ status: 403, url: "http://x/v4/fills", body: {} })); // true
 * ```
 */
export const isGeoBlockedError = errorGuard<GeoBlockedError>("GeoBlockedError");
/**
 * True when `value` is a {@link ComplianceBlockedError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isComplianceBlockedError(new GeoBlockedError({ status: 403, url: "http://x/v4/fills", body: {} })); // false
 * ```
 */
export const isComplianceBlockedError = errorGuard<ComplianceBlockedError>("ComplianceBlockedError");
/**
 * True when `value` is an {@link IndexerNotFoundError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isIndexerNotFoundError(new IndexerNotFoundError({ status: 404, url: "http://x/v4/height", body: {} })); // true
 * ```
 */
export const isIndexerNotFoundError = errorGuard<IndexerNotFoundError>("IndexerNotFoundError");
/**
 * True when `value` is an {@link IndexerRateLimitError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isIndexerRateLimitError(new IndexerRateLimitError({ status: 429, url: "http://x/v4/fills", body: {} }, undefined)); // true
 * ```
 */
export const isIndexerRateLimitError = errorGuard<IndexerRateLimitError>("IndexerRateLimitError");
/**
 * True when `value` is an {@link IndexerTransportError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isIndexerTransportError(new IndexerTransportError("http://x/v4/height", new Error("reset"))); // true
 * ```
 */
export const isIndexerTransportError = errorGuard<IndexerTransportError>("IndexerTransportError");

/**
 * The typed error for a non-2xx answer: by status, and for 403 by the body's code.
 *
 * @param answer - status, URL and parsed body.
 * @param retryAfterMs - for a 429, the wait the server asked for.
 * @returns the most specific {@link IndexerHttpError}.
 * @example
 * ```ts
 * httpErrorOf({ status: 404, url: "http://x/v4/height", body: { errors: [{ msg: "No blocks found" }] } }).name; // "IndexerNotFoundError"
 * ```
 */
export function httpErrorOf(answer: IndexerHttpAnswer, retryAfterMs?: number): IndexerHttpError {
  switch (answer.status) {
    case 400:
      return new IndexerValidationError(answer);
    case 403: {
      const code = blockedCodeOf(answer.body);
      if (code === "GEOBLOCKED") return new GeoBlockedError(answer);
      if (code === "COMPLIANCE_BLOCKED") return new ComplianceBlockedError(answer);
      return new IndexerHttpError(answer);
    }
    case 404:
      return new IndexerNotFoundError(answer);
    case 429:
      return new IndexerRateLimitError(answer, retryAfterMs);
    default:
      return new IndexerHttpError(answer);
  }
}
