/**
 * Waiting for states seen over the network, however long a loaded machine takes: each wait ends
 * when its state is there, and only a guard against a hang (nothing ever comes) fails it.
 */
import type { OrderHandle, OrderResult } from "@perpx/composite-client";
import { isTimeoutError } from "@perpx/core";

/** How long a wait goes on before it is called a hang: a guard, never a claim on speed. */
export const HANG_GUARD_MS = 120_000;

/**
 * Runs a read, and runs it again when the network answered it too late (a `TimeoutError`: a
 * client's per-call deadline, 10 s, is a claim on speed that a loaded machine breaks), until
 * `timeoutMs` has passed. Only for what can run twice (a query, a connect): a write that timed
 * out may have been applied.
 *
 * @example
 * ```ts
 * const btc = await patiently(() => client.getMarket({ ticker: "BTC-USD", refresh: true }));
 * ```
 */
export async function patiently<T>(read: () => Promise<T>, timeoutMs = HANG_GUARD_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (!isTimeoutError(error) || Date.now() > deadline) throw error;
    }
  }
}

/**
 * Polls `check` until it returns a value, or fails after `timeoutMs` naming `what` (the condition
 * seen over the network: the indexer catching up with a block, a book changing). A check whose
 * read the network answered too late (a `TimeoutError`) has not seen the state yet.
 *
 * @example
 * ```ts
 * const order = await waitFor("the order on the indexer", () => findOrder());
 * ```
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = HANG_GUARD_MS,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await Promise.resolve()
      .then(check)
      .catch((error: unknown) => {
        if (isTimeoutError(error)) return undefined;
        throw error;
      });
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Follows an order until it reaches a state `until` accepts, or a final one, and returns that
 * state (by default: waits for the final state). Unlike `result({ timeoutMs })`, which answers the
 * current state (`UNKNOWN` when nothing was seen) once its time is up, this waits for the state.
 *
 * @example
 * ```ts
 * (await orderState(order, (s) => s.status === "RESTING")).status; // "RESTING"
 * (await orderState(order)).final; // true
 * ```
 */
export async function orderState(
  handle: OrderHandle,
  until: (state: OrderResult) => boolean = (state) => state.final,
): Promise<OrderResult> {
  const states = handle.updates();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no state of order ${handle.clientId} came in ${HANG_GUARD_MS} ms`)),
      HANG_GUARD_MS,
    );
  });
  try {
    for (;;) {
      const next = await Promise.race([states.next(), guard]);
      if (next.done) throw new Error(`order ${handle.clientId} stopped reporting before a final state`);
      if (until(next.value) || next.value.final) return next.value;
    }
  } finally {
    clearTimeout(timer);
    void states.return?.(undefined);
  }
}
