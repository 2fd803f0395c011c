/**
 * One call's time budget: the caller's `AbortSignal` and the call's `timeoutMs` as one signal, and
 * an abortable sleep for the waits between retries.
 */
import { checkDelayMs, setLongTimeout } from "@perpx/core";
import { AbortedError } from "@perpx/errors";
import { IndexerTimeoutError } from "../errors.js";
import { untilAborted } from "./until-aborted.js";

/**
 * Options every indexer call takes.
 *
 * @example
 * ```ts
 * const call: CallOptions = { timeoutMs: 2_000, signal: AbortSignal.timeout(5_000) };
 * ```
 */
export interface CallOptions {
  /**
   * Gives up after this many milliseconds (retries and waits included) with `IndexerTimeoutError`.
   * @default the client's `timeoutMs` (10000)
   */
  readonly timeoutMs?: number;
  /**
   * Cancels the call with an `AbortedError` when it aborts.
   * @default undefined
   */
  readonly signal?: AbortSignal;
}

/** A running call's deadline. */
export interface Deadline {
  /** Aborts on timeout or on the caller's abort. */
  readonly signal: AbortSignal;
  /** The error for the abort that happened (timeout or caller), once `signal` is aborted. */
  failure(url: string): IndexerTimeoutError | AbortedError;
  /** Waits `ms`, or rejects with {@link Deadline.failure} as soon as the deadline aborts. */
  sleep(ms: number, url: string): Promise<void>;
  /**
   * Settles as `work` does, or rejects with {@link Deadline.failure} as soon as the deadline
   * aborts: a `fetch` that ignores its signal cannot hold the call past its budget.
   */
  race<T>(work: Promise<T>, url: string): Promise<T>;
  /** Stops the timer and removes the listener on the caller's signal. */
  clear(): void;
}

/**
 * Checks a timeout option: a positive finite number of milliseconds.
 *
 * @param timeoutMs - the candidate.
 * @param argument - the option's name, for the error.
 * @returns the timeout.
 * @throws InvalidArgumentError naming `argument`.
 * @example
 * ```ts
 * checkTimeoutMs(1_000); // 1000
 * checkTimeoutMs(0); // throws InvalidArgumentError
 * ```
 */
export function checkTimeoutMs(timeoutMs: number, argument = "timeoutMs"): number {
  return checkDelayMs(timeoutMs, argument);
}

/**
 * Starts a deadline of `timeoutMs` joined with the caller's signal.
 *
 * @param timeoutMs - the budget in milliseconds.
 * @param outer - the caller's signal.
 * @returns the running deadline; call `clear()` when the call ends.
 * @example
 * ```ts
 * const deadline = startDeadline(1_000, undefined);
 * deadline.signal.aborted; // false
 * deadline.clear();
 * ```
 */
export function startDeadline(timeoutMs: number, outer: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setLongTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  if (outer?.aborted) controller.abort();
  else outer?.addEventListener("abort", onAbort, { once: true });
  const failure = (url: string) =>
    timedOut ? new IndexerTimeoutError(url, timeoutMs) : new AbortedError(`GET ${url}`, outer?.reason);
  return {
    signal: controller.signal,
    failure,
    sleep(ms, url) {
      return new Promise<void>((resolve, reject) => {
        if (controller.signal.aborted) {
          reject(failure(url));
          return;
        }
        const wake = () => {
          controller.signal.removeEventListener("abort", stop);
          resolve();
        };
        const stop = () => {
          sleeper.clear();
          reject(failure(url));
        };
        const sleeper = setLongTimeout(wake, ms);
        controller.signal.addEventListener("abort", stop, { once: true });
      });
    },
    race: (work, url) => untilAborted(work, controller.signal, () => failure(url)),
    clear() {
      timer.clear();
      outer?.removeEventListener("abort", onAbort);
    },
  };
}
