/**
 * How the secret-redaction tests see an error: every way a program shows one, and the refusal a
 * call makes.
 */
import { inspect } from "node:util";

/**
 * Everything `error` shows: its message, `String()`, `JSON.stringify` and `util.inspect` (which
 * prints each cause), one after the other.
 */
export function shownError(error: unknown): string {
  return [(error as Error).message, String(error), JSON.stringify(error), inspect(error, { depth: 10 })].join(
    "\n",
  );
}

/** What `call` throws; fails the test when it returns. */
export function refusalOf(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}
