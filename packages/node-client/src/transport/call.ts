import { checkDelayMs, setLongTimeout } from "@perpx/core";
import { AbortedError, TimeoutError } from "@perpx/errors";

/**
 * Options every call to a node takes.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const options: CallOptions = { timeoutMs: 2_000, signal: controller.signal };
 * await getBalances(client, { address: wallet.address, ...options });
 * ```
 */
export interface CallOptions {
  /**
   * Gives up after this many milliseconds with a `TimeoutError`.
   * @default the client's `timeoutMs` (10,000)
   */
  timeoutMs?: number;
  /**
   * Cancels the call with an `AbortedError` when it aborts.
   * @default undefined
   */
  signal?: AbortSignal;
}

/** A call's deadline as one signal, with a way to tell a timeout from an abort. */
export interface Deadline {
  /** Aborts on timeout or on the caller's abort. */
  signal: AbortSignal;
  /** The timeout in force. */
  timeoutMs: number;
  /**
   * Turns an abort of {@link Deadline.signal} into the right perpx error; undefined when not
   * aborted. Its `nothingSent` is `nothingSent` when given, else what the transports reported
   * through {@link reportSending}.
   */
  error(operation: string, nothingSent?: boolean): TimeoutError | AbortedError | undefined;
  /** Stops the timer. */
  clear(): void;
}

/**
 * Per signal of a deadline, what the transports that ran a call under it reported: for each call,
 * whether its request may have left the client yet.
 */
const sendReports = new WeakMap<AbortSignal, (() => boolean)[]>();

/**
 * Tells the deadline whose signal is `signal` how to learn whether a call a transport runs under
 * it may have written its request yet, so that the deadline's error says `nothingSent` truly: a
 * deadline counts nothing as sent only when a transport reported and none of its calls may have
 * written. A signal that is no deadline's (or none) is ignored. For the transports (a WebSocket
 * waits for its handshake before it writes); not exported from the package.
 *
 * @param signal - the signal the call was given.
 * @param mayHaveSent - true once the call's request may have left the client (it never goes back
 *   to false).
 * @example
 * ```ts
 * const controller = new AbortController();
 * const deadline = startDeadline({ signal: controller.signal }, 10_000);
 * reportSending(deadline.signal, () => false); // its call still waits for the WebSocket handshake
 * controller.abort();
 * deadline.error("status")?.nothingSent; // true
 * deadline.clear();
 * ```
 */
export function reportSending(signal: AbortSignal | undefined, mayHaveSent: () => boolean): void {
  if (signal !== undefined) sendReports.get(signal)?.push(mayHaveSent);
}

/**
 * Checks a timeout option.
 *
 * @throws {InvalidArgumentError} unless it is a positive finite number.
 */
export function checkTimeout(timeoutMs: number, argument = "timeoutMs"): number {
  return checkDelayMs(timeoutMs, argument);
}

/**
 * Starts a deadline for one call: the caller's signal combined with a timer.
 *
 * @example
 * ```ts
 * const deadline = startDeadline({ timeoutMs: 1000 }, 10_000);
 * ```
 */
export function startDeadline(options: CallOptions, defaultTimeoutMs: number): Deadline {
  const timeoutMs = checkTimeout(options.timeoutMs ?? defaultTimeoutMs);
  const controller = new AbortController();
  const reports: (() => boolean)[] = [];
  sendReports.set(controller.signal, reports);
  let timedOut = false;
  const timer = setLongTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const outer = options.signal;
  const onAbort = () => controller.abort(outer?.reason);
  if (outer) {
    if (outer.aborted) onAbort();
    else outer.addEventListener("abort", onAbort, { once: true });
  }
  return {
    signal: controller.signal,
    timeoutMs,
    error(operation, nothingSent) {
      if (!controller.signal.aborted) return undefined;
      const gaveUp = {
        nothingSent: nothingSent ?? (reports.length > 0 && reports.every((mayHaveSent) => !mayHaveSent())),
      };
      return timedOut
        ? new TimeoutError(operation, timeoutMs, gaveUp)
        : new AbortedError(operation, outer?.reason, gaveUp);
    },
    clear() {
      timer.clear();
      outer?.removeEventListener("abort", onAbort);
    },
  };
}

/**
 * What {@link withDeadline} runs under: the caller's timeout and signal, the default timeout, and
 * the operation's name for the error.
 *
 * @example
 * ```ts
 * const params: DeadlineParams = { operation: "status", timeoutMs: 2_000, defaultTimeoutMs: client.timeoutMs };
 * await withDeadline(params, (signal) => cometCall(client.rpc!, signal, (comet) => comet.status()));
 * ```
 */
export interface DeadlineParams extends CallOptions {
  /** What runs, as the `TimeoutError` or `AbortedError` names it. */
  operation: string;
  /** The timeout when `timeoutMs` is not given, ms. */
  defaultTimeoutMs: number;
}

/**
 * Runs `task` under a deadline: it rejects with `TimeoutError` or `AbortedError` as soon as the
 * deadline fires, even if `task` ignores the signal.
 *
 * @param params - see `DeadlineParams`: each field is documented there.
 * @param task - the work; it gets a signal that aborts when the deadline fires or the caller
 *   aborts.
 * @returns what `task` resolves with; rejects with `TimeoutError` when `timeoutMs` passes first and
 *   `AbortedError` when the caller's signal aborts first. Their `nothingSent` is true only when
 *   the request certainly never left: the signal had aborted before `task` ran, or a WebSocket
 *   call under it was still waiting for its handshake; otherwise it may have been sent.
 * @example
 * ```ts
 * // The task gets a signal that aborts at the deadline (or when the caller's signal does).
 * const slow = withDeadline({ operation: "a slow call", timeoutMs: 50, defaultTimeoutMs: 10_000 }, (signal) => sleep(5_000, signal));
 * await slow; // throws TimeoutError
 * ```
 */
export async function withDeadline<T>(
  params: DeadlineParams,
  task: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { operation, defaultTimeoutMs, ...options } = params;
  const deadline = startDeadline(options, defaultTimeoutMs);
  // Aborted before the task ran: nothing was sent.
  const early = deadline.error(operation, true);
  if (early) {
    deadline.clear();
    throw early;
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(deadline.error(operation));
    deadline.signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([task(deadline.signal), aborted]);
  } catch (error) {
    throw deadline.error(operation) ?? error;
  } finally {
    if (onAbort) deadline.signal.removeEventListener("abort", onAbort);
    deadline.clear();
  }
}

/**
 * Sleeps `ms`, or rejects when `signal` aborts.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const waiting = sleep(60_000, controller.signal);
 * controller.abort();
 * await waiting.catch(() => "aborted"); // "aborted"
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setLongTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      timer.clear();
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
