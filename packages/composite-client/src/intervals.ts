import { InvalidArgumentError } from "@perpx/errors";

/**
 * Checks an interval option: a finite number of milliseconds, positive (or 0 when `zeroMeans`
 * says what 0 does). Any size is fine: the timers behind it wait past 2^31 ms as asked.
 *
 * @param value - the candidate.
 * @param argument - the option's name, for the error.
 * @param allowZero - whether 0 is allowed (it turns the schedule off).
 * @returns the interval.
 * @throws {InvalidArgumentError} naming `argument`.
 * @example
 * ```ts
 * checkIntervalMs(500, "pollIntervalMs", false); // 500
 * checkIntervalMs(Number.NaN, "pollIntervalMs", false); // throws InvalidArgumentError
 * ```
 */
export function checkIntervalMs(value: number, argument: string, allowZero: boolean): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new InvalidArgumentError(
      argument,
      `must be a ${allowZero ? "non-negative (0: never)" : "positive"} number of milliseconds, got ${String(value)}`,
    );
  }
  return value;
}
