/**
 * Timers for any delay. `setTimeout` and `setInterval` fire a delay above 2^31 - 1 ms (about 24.8
 * days) at once (Node warns, browsers do not), so a user's "wait up to 30 days" would be instant.
 */
import { InvalidArgumentError } from "@perpx/errors";

/**
 * The longest delay `setTimeout` honours: 2^31 - 1 ms, about 24.8 days.
 *
 * @example
 * ```ts
 * 30 * 86_400_000 > MAX_TIMER_MS; // true: 30 days needs setLongTimeout
 * ```
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * A timer armed by {@link setLongTimeout}.
 *
 * @example
 * ```ts
 * const timer: LongTimeout = setLongTimeout(() => undefined, 1_000).unref();
 * timer.clear();
 * ```
 */
export interface LongTimeout {
  /** Stops the timer; `fire` does not run (safe to call more than once, or after it fired). */
  clear(): void;
  /** Lets the process exit while only this timer is pending (Node; a no-op in browsers). */
  unref(): LongTimeout;
}

/**
 * `setTimeout` for any delay: one past {@link MAX_TIMER_MS} is armed in steps of at most that, so
 * a long delay is as long as asked, never instant. A delay that is not a finite number of
 * milliseconds (`Infinity`) never fires; a negative or `NaN` one fires on the next turn, as
 * `setTimeout`'s does.
 *
 * @param fire - runs once the delay has passed.
 * @param ms - the delay in milliseconds.
 * @returns the timer, to clear it.
 * @example
 * ```ts
 * const timer = setLongTimeout(() => console.log("30 days later"), 30 * 86_400_000);
 * timer.clear();
 * ```
 */
export function setLongTimeout(fire: () => void, ms: number): LongTimeout {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unref = false;
  let cleared = false;
  const arm = (left: number): void => {
    if (cleared || left === Number.POSITIVE_INFINITY) return;
    timer = setTimeout(
      () => (left > MAX_TIMER_MS ? arm(left - MAX_TIMER_MS) : fire()),
      Math.min(left, MAX_TIMER_MS),
    );
    if (unref) unrefTimer(timer);
  };
  arm(ms);
  const handle: LongTimeout = {
    clear() {
      cleared = true;
      clearTimeout(timer);
    },
    unref() {
      unref = true;
      if (timer !== undefined) unrefTimer(timer);
      return handle;
    },
  };
  return handle;
}

function unrefTimer(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}

/**
 * Checks a delay or timeout option: a finite number of milliseconds, positive, or also 0 when
 * `allowZero` (0 then means what the option documents). Any size is fine: {@link setLongTimeout}
 * waits past {@link MAX_TIMER_MS} as asked.
 *
 * @param value - the option's value.
 * @param argument - the option's name, for the error.
 * @param allowZero - whether 0 is allowed.
 * @returns the delay.
 * @throws {InvalidArgumentError} naming `argument` for NaN, an infinity, a negative number (or 0
 *   unless allowed), or anything but a number.
 * @example
 * ```ts
 * checkDelayMs(500, "pollIntervalMs"); // 500
 * checkDelayMs(0, "refreshIntervalMs", true); // 0
 * checkDelayMs(Number.NaN, "pollIntervalMs"); // throws InvalidArgumentError
 * ```
 */
export function checkDelayMs(value: number, argument: string, allowZero = false): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new InvalidArgumentError(
      argument,
      `must be a ${allowZero ? "non-negative" : "positive"} number of milliseconds, got ${String(value)}`,
    );
  }
  return value;
}
