/**
 * The one place core calls into `ox` through: an error of `ox` never escapes as it is, but as an
 * `InvalidArgumentError` naming the argument (its message kept, the `ox` error as `cause`).
 */
import { InvalidArgumentError } from "@perpx/errors";
import * as Errors from "ox/Errors";

/**
 * Runs `ox`, turning its errors into an `InvalidArgumentError` naming `argument`.
 *
 * @param argument - the argument the error names.
 * @param run - the call into `ox`.
 * @returns what `run` returns.
 * @throws {InvalidArgumentError} in place of an `ox` error.
 */
export function viaOx<T>(argument: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof Errors.BaseError) {
      throw new InvalidArgumentError(argument, error.shortMessage, { cause: error });
    }
    throw error;
  }
}
