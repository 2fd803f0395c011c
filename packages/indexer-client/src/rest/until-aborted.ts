/**
 * Settles as `work` does, or rejects with `failure()` as soon as `signal` aborts (at once when it
 * already has): work that ignores its signal (an injected `fetch`, a slow route) cannot hold a call
 * past its abort. What `work` does after that is no one's concern: its rejection is never unhandled.
 *
 * @param work - the work to wait for.
 * @param signal - the signal that ends the wait.
 * @param failure - the error to reject with once `signal` aborts.
 * @returns a promise of what `work` resolves with.
 * @example
 * ```ts
 * const controller = new AbortController();
 * const waiting = untilAborted(new Promise(() => {}), controller.signal, () => new Error("gave up"));
 * controller.abort();
 * await waiting; // throws Error
 * ```
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, failure: () => unknown): Promise<T> {
  work.catch(() => {});
  if (signal.aborted) return Promise.reject(failure());
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(failure());
    signal.addEventListener("abort", stop, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", stop);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", stop);
        reject(error);
      },
    );
  });
}
