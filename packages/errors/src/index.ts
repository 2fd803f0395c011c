import { redactSecrets } from "./redact.js";

export { REDACTED, redactSecrets, shortenRedacted, showValue } from "./redact.js";

/**
 * The closed set of error codes a perpx package can raise. Switch on `error.code` to handle a class
 * of failure without string matching.
 *
 * @example
 * ```ts
 * const error = new InvalidArgumentError("size", "must be positive, got -1");
 * error instanceof PerpxError; // true
 * error.code; // "INVALID_ARGUMENT"
 * ```
 */
export type PerpxErrorCode =
  /** An address in neither valid form, or of the wrong prefix, length or checksum. */
  | "INVALID_ADDRESS"
  /** A subaccount number or subaccount id that is out of range or malformed. */
  | "INVALID_SUBACCOUNT"
  /** A trading credential that is not valid base64 JSON of the documented shape. */
  | "INVALID_CREDENTIAL"
  /** An order that cannot be placed as given (size, price, time in force, expiry...). */
  | "INVALID_ORDER"
  /** A price, size or amount that does not convert exactly under the requested policy. */
  | "INVALID_AMOUNT"
  /** Any other argument that fails validation before anything is signed or sent. */
  | "INVALID_ARGUMENT"
  /** A network preset name that does not exist. */
  | "UNKNOWN_NETWORK"
  /** An endpoint a call needs that neither the caller nor the environment configured. */
  | "MISSING_ENDPOINT"
  /** A protobuf type URL that no registry knows. */
  | "UNKNOWN_TYPE_URL"
  /** Bytes or JSON that do not decode as the expected message. */
  | "DECODE"
  /** A transaction the chain refused (CheckTx) or executed with a non-zero code. */
  | "BROADCAST_TX"
  /** A node query that the node answered with an error. */
  | "QUERY"
  /** An indexer HTTP request answered with a non-2xx status. */
  | "INDEXER_HTTP"
  /** A WebSocket that closed while it was needed. */
  | "WEBSOCKET_CLOSED"
  /** A network-level failure reaching a server (refused, reset, DNS, TLS). */
  | "TRANSPORT"
  /** An operation that did not finish within its time limit. */
  | "TIMEOUT"
  /** An operation cancelled through its `AbortSignal`. */
  | "ABORTED"
  /**
   * A transaction that may have reached the chain when its call failed (sent, no answer): its
   * outcome must be looked up, not assumed; resending it as new may apply it twice.
   */
  | "OUTCOME_UNKNOWN"
  /** A devnet that could not start or serve as asked. */
  | "DEVNET"
  /** An optional dependency that the chosen feature needs is not installed (or not built). */
  | "MISSING_DEPENDENCY";

/**
 * Optional parts of a {@link PerpxError}.
 *
 * @example
 * ```ts
 * const cause = new Error("connect ECONNREFUSED 127.0.0.1:26657");
 * const error = new PerpxError("TIMEOUT", "the node did not answer", {
 *   cause,
 *   details: "the request waited 5000 ms",
 *   metaMessages: ["url: http://127.0.0.1:26657"],
 * });
 * error.cause === cause; // true
 * error.message;
 * // "the node did not answer\n\nurl: http://127.0.0.1:26657\n\nDetails: the request waited 5000 ms"
 * ```
 */
export interface PerpxErrorOptions {
  /** The lower-level error that caused this one. */
  cause?: unknown;
  /** A longer explanation of what went wrong, appended to the message. */
  details?: string;
  /** A docs path (relative to the perpx docs root) that explains this error. */
  docsPath?: string;
  /** Extra lines shown between the short message and the details (values, hints). */
  metaMessages?: readonly string[];
}

/**
 * Redacts the message (and the stack, which repeats it) of every `Error` down a `cause` chain, in
 * place, so that `util.inspect(error)`, which prints each cause, shows no secret a lower-level error
 * quoted (`Cannot convert <input> to a BigInt`). A string cause comes back redacted.
 */
function redactCause(cause: unknown): unknown {
  if (typeof cause === "string") return redactSecrets(cause);
  const seen = new Set<unknown>();
  for (let current = cause; current instanceof Error && !seen.has(current); current = current.cause) {
    seen.add(current);
    const safe = redactSecrets(current.message);
    if (safe === current.message) continue;
    try {
      const stack = current.stack;
      // defined, not assigned: a DOMException's message is a getter of its prototype
      Object.defineProperty(current, "message", { value: safe, writable: true, configurable: true });
      if (typeof stack === "string") {
        Object.defineProperty(current, "stack", {
          value: redactSecrets(stack),
          writable: true,
          configurable: true,
        });
      }
    } catch {
      // a frozen error keeps its text; its message still reaches ours only through redaction
    }
  }
  return cause;
}

/**
 * The base of every error a perpx package throws. It carries a closed {@link PerpxErrorCode}, a
 * one-line `shortMessage`, optional `details`, `docsPath` and `cause`, and can `walk()` its cause
 * chain. Its message, details and meta lines never carry a secret: they pass through
 * {@link redactSecrets}, and so do the message and stack of each `Error` down its `cause` chain
 * (redacted in place) and a string cause.
 *
 * @example
 * ```ts
 * try {
 *   throw new InvalidArgumentError("size", "must be positive, got -1");
 * } catch (error) {
 *   isPerpxError(error) && error.code; // "INVALID_ARGUMENT"
 * }
 * ```
 */
export class PerpxError extends Error {
  /** The class of failure; stable across versions. */
  readonly code: PerpxErrorCode;
  /** The one-line summary, without details or meta lines. */
  readonly shortMessage: string;
  /** The longer explanation, when there is one. */
  readonly details: string | undefined;
  /** A docs path that explains this error, when there is one. */
  readonly docsPath: string | undefined;
  /** Extra lines shown in the message. */
  readonly metaMessages: readonly string[];
  override name = "PerpxError";

  /**
   * @param code - the class of failure.
   * @param shortMessage - one line saying what was wrong.
   * @param options - cause, details, docs path and meta lines.
   */
  constructor(code: PerpxErrorCode, shortMessage: string, options: PerpxErrorOptions = {}) {
    const causeDetails =
      options.details ??
      (options.cause instanceof Error && !(options.cause instanceof PerpxError)
        ? options.cause.message
        : undefined);
    const short = redactSecrets(shortMessage);
    const details = causeDetails === undefined ? undefined : redactSecrets(causeDetails);
    const meta = (options.metaMessages ?? []).map(redactSecrets);
    const lines = [short];
    if (meta.length) lines.push("", ...meta);
    if (details) lines.push("", `Details: ${details}`);
    if (options.docsPath) lines.push(`Docs: https://perpx.dev/docs${options.docsPath}`);
    super(lines.join("\n"), options.cause === undefined ? undefined : { cause: redactCause(options.cause) });
    this.code = code;
    this.shortMessage = short;
    this.details = details;
    this.docsPath = options.docsPath;
    this.metaMessages = meta;
  }

  /**
   * Walks the `cause` chain from this error down.
   *
   * @param predicate - stop at the first error for which it returns true; without it, the deepest cause.
   * @returns the matching error, the deepest cause when no predicate is given, or `undefined`.
   *
   * @example
   * ```ts
   * const timeout = new TimeoutError("broadcast", 30_000);
   * const error = new PerpxError("TRANSPORT", "the send failed", { cause: timeout });
   * error.walk((e) => isTimeoutError(e)) === timeout; // true
   * error.walk() === timeout; // true: the deepest cause
   * ```
   */
  walk(predicate?: (error: unknown) => boolean): unknown {
    let current: unknown = this;
    const seen = new Set<unknown>();
    while (current !== undefined && current !== null && !seen.has(current)) {
      seen.add(current);
      if (predicate?.(current)) return current;
      const next: unknown = current instanceof Error ? current.cause : undefined;
      if (next === undefined || next === null) return predicate ? undefined : current;
      current = next;
    }
    return undefined;
  }
}

/**
 * True when `value` is a {@link PerpxError} (by `name`-independent brand: it has a perpx `code`).
 * Works across duplicated copies of the package, unlike `instanceof`.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` for any perpx error (it has a string `code` and `shortMessage` and a `walk`
 *   method), from this copy of the package or another; `false` for anything else.
 * @example
 * ```ts
 * isPerpxError(new TimeoutError("broadcast", 30_000)); // true
 * isPerpxError(new Error("plain")); // false
 * ```
 */
export function isPerpxError(value: unknown): value is PerpxError {
  return (
    value instanceof Error &&
    typeof (value as { code?: unknown }).code === "string" &&
    typeof (value as { shortMessage?: unknown }).shortMessage === "string" &&
    typeof (value as { walk?: unknown }).walk === "function"
  );
}

/** True when `value`'s class or one of its ancestors is named `name`. */
function descendsFrom(value: object, name: string): boolean {
  for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
    if (proto === Error.prototype) return false;
    if (Object.hasOwn(proto, "constructor") && (proto.constructor as { name?: unknown }).name === name) {
      return true;
    }
  }
  return false;
}

/**
 * Builds a name-based guard for a PerpxError subclass, so `isXError(e)` holds across duplicated
 * package copies where `instanceof` would not. It holds for the subclasses of that class too
 * (`isTimeoutError` is true for a `TxInclusionTimeoutError`).
 *
 * @param name - the subclass's `name`.
 * @returns a type guard for that subclass and its subclasses.
 *
 * @example
 * ```ts
 * class WidgetError extends PerpxError {
 *   override name = "WidgetError";
 * }
 * const isWidgetError = errorGuard<WidgetError>("WidgetError");
 * isWidgetError(new WidgetError("INVALID_ARGUMENT", "bad widget")); // true
 * isWidgetError(new TimeoutError("broadcast", 30_000)); // false
 * ```
 */
export function errorGuard<T extends PerpxError>(name: string): (value: unknown) => value is T {
  return (value: unknown): value is T =>
    isPerpxError(value) && (value.name === name || descendsFrom(value, name));
}

/**
 * An argument failed validation before anything was signed or sent. `argument` names it.
 *
 * @example
 * ```ts
 * const error = new InvalidArgumentError("timeoutMs", "must be a positive integer, got -1");
 * error.argument; // "timeoutMs"
 * error.shortMessage; // "Invalid timeoutMs: must be a positive integer, got -1"
 * ```
 */
export class InvalidArgumentError extends PerpxError {
  override name = "InvalidArgumentError";
  /**
   * The name of the argument (or option path, like `order.size`) that was wrong, redacted like the
   * message (an unknown option key can be a secret pasted as a key).
   */
  readonly argument: string;

  /**
   * @param argument - which argument was wrong.
   * @param problem - what was wrong with it.
   * @param options - cause and details.
   */
  constructor(argument: string, problem: string, options: PerpxErrorOptions = {}) {
    super("INVALID_ARGUMENT", `Invalid ${argument}: ${problem}`, options);
    this.argument = redactSecrets(argument);
  }
}

/**
 * True when `value` is an {@link InvalidArgumentError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * const error: unknown = new InvalidArgumentError("size", "must be positive, got -1");
 * isInvalidArgumentError(error) && error.argument; // "size"
 * ```
 */
export const isInvalidArgumentError = errorGuard<InvalidArgumentError>("InvalidArgumentError");

/**
 * Whether an operation that gave up (a {@link TimeoutError} or an {@link AbortedError}) had sent
 * anything.
 *
 * @example
 * ```ts
 * const unsent: GaveUpOptions = { nothingSent: true }; // the request never left the client
 * new TimeoutError("broadcast_tx_sync", 5_000, unsent).nothingSent; // true
 * ```
 */
export interface GaveUpOptions {
  /**
   * True when the operation certainly sent nothing before it gave up (its request never left the
   * client: a connection or handshake that never completed), so retrying it cannot do it twice.
   * @default false (it may have been sent)
   */
  nothingSent?: boolean | undefined;
}

/**
 * An operation did not finish within its time limit.
 *
 * @example
 * ```ts
 * const error = new TimeoutError("broadcast", 30_000);
 * error.shortMessage; // "broadcast timed out after 30000 ms"
 * error.timeoutMs; // 30000
 * error.nothingSent; // false: unless told otherwise, the request may have left
 * ```
 */
export class TimeoutError extends PerpxError {
  override name = "TimeoutError";
  /** What timed out. */
  readonly operation: string;
  /** The limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number;
  /**
   * True when the operation certainly sent nothing before it timed out (a request that waited
   * for a handshake that never completed); false when it may have reached the server.
   */
  readonly nothingSent: boolean;

  /**
   * @param operation - what timed out.
   * @param timeoutMs - the limit, in milliseconds.
   * @param options - cause, details and meta lines (a tx hash to look up later, say), and whether
   *   nothing was sent.
   */
  constructor(operation: string, timeoutMs: number, options: PerpxErrorOptions & GaveUpOptions = {}) {
    const { nothingSent = false, ...rest } = options;
    super("TIMEOUT", `${operation} timed out after ${timeoutMs} ms`, rest);
    this.operation = operation;
    this.timeoutMs = timeoutMs;
    this.nothingSent = nothingSent;
  }
}

/**
 * True when `value` is a {@link TimeoutError} or one of its subclasses (every error of code
 * `TIMEOUT`, such as the node client's `TxInclusionTimeoutError`).
 *
 * @param value - anything, typically a caught error.
 * @returns `true` for every error of code `TIMEOUT`, whatever its class or package copy.
 * @example
 * ```ts
 * const error: unknown = new TimeoutError("broadcast", 30_000);
 * isTimeoutError(error) && error.timeoutMs; // 30000
 * ```
 */
export function isTimeoutError(value: unknown): value is TimeoutError {
  return isPerpxError(value) && value.code === "TIMEOUT";
}

/**
 * An operation was cancelled through its `AbortSignal`.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * controller.abort(new Error("user cancelled"));
 * const error = new AbortedError("placeOrder", controller.signal.reason);
 * error.shortMessage; // "placeOrder was aborted"
 * error.details; // "user cancelled"
 * ```
 */
export class AbortedError extends PerpxError {
  override name = "AbortedError";
  /** What was aborted. */
  readonly operation: string;
  /**
   * True when the operation certainly sent nothing before it was aborted (a request that waited
   * for a handshake that never completed); false when it may have reached the server.
   */
  readonly nothingSent: boolean;

  /**
   * @param operation - what was aborted.
   * @param reason - the signal's reason, kept as the cause.
   * @param options - whether nothing was sent.
   */
  constructor(operation: string, reason?: unknown, options: GaveUpOptions = {}) {
    super("ABORTED", `${operation} was aborted`, reason === undefined ? {} : { cause: reason });
    this.operation = operation;
    this.nothingSent = options.nothingSent ?? false;
  }
}

/**
 * True when `value` is an {@link AbortedError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isAbortedError(new AbortedError("getBalances")); // true
 * isAbortedError(new TimeoutError("getBalances", 5_000)); // false
 * ```
 */
export const isAbortedError = errorGuard<AbortedError>("AbortedError");
