/**
 * The devnet's own typed error: a {@link PerpxError} with a closed `reason`. Bad input answered on
 * the wire has its own classes (`FieldError`, `QuerySyntaxError`, the servers' error answers);
 * `AbciError` carries chain codes; `DevnetStateError` names an unusable state directory.
 */
import { errorGuard, PerpxError, type PerpxErrorCode } from "@perpx/errors";

/**
 * Why a devnet operation failed:
 * - `invalid-argument`: an argument out of its range (a block count, a block time, a clock step, a port);
 * - `out-of-range`: a number beyond its encoding (u64, u256, i256);
 * - `malformed`: bytes or text that do not decode (hex, varints, truncated state, decimal coins);
 * - `unusable-snapshot`: a snapshot or block list the chain application cannot resume from;
 * - `no-block`: the latest block asked for before genesis;
 * - `duplicate-route`: a module, message route, query route or control route registered twice;
 * - `unavailable`: a server that could not start (its port taken), a state lock other devnets keep
 *   taking over, a state directory used after it was closed, a write to a read-only (frozen) store;
 * - `misconfigured`: a chain application built without a part a message needs.
 *
 * @example
 * ```ts
 * const retry = (reason: DevnetErrorReason) => reason === "no-block";
 * ```
 */
export type DevnetErrorReason =
  | "invalid-argument"
  | "out-of-range"
  | "malformed"
  | "unusable-snapshot"
  | "no-block"
  | "duplicate-route"
  | "unavailable"
  | "misconfigured";

const CODE_OF: Record<DevnetErrorReason, PerpxErrorCode> = {
  "invalid-argument": "INVALID_ARGUMENT",
  "out-of-range": "INVALID_ARGUMENT",
  malformed: "DECODE",
  "unusable-snapshot": "DEVNET",
  "no-block": "DEVNET",
  "duplicate-route": "DEVNET",
  unavailable: "DEVNET",
  misconfigured: "DEVNET",
};

/**
 * A devnet failure with a closed {@link DevnetErrorReason}; `message` is the one-line text.
 *
 * @example
 * ```ts
 * try {
 *   devnet.mine(0);
 * } catch (error) {
 *   if (isDevnetError(error) && error.reason === "invalid-argument") console.error(error.shortMessage);
 * }
 * ```
 */
export class DevnetError extends PerpxError {
  override name = "DevnetError";
  /** Why it failed. */
  readonly reason: DevnetErrorReason;

  /**
   * @param reason - why it failed.
   * @param message - one line naming what was wrong.
   * @param options - the cause, when another error caused it.
   */
  constructor(reason: DevnetErrorReason, message: string, options: { cause?: unknown } = {}) {
    super(CODE_OF[reason], message, options.cause === undefined ? {} : { cause: options.cause, details: "" });
    this.reason = reason;
  }
}

/**
 * True when `value` is a {@link DevnetError} (also across package copies).
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * let failure: unknown;
 * try {
 *   createChainApp({ profile: "local", genesisTime: new Date(), pruning: { keepRecent: -1 } });
 * } catch (error) {
 *   failure = error;
 * }
 * isDevnetError(failure); // true
 * isDevnetError(failure) && failure.reason; // "out-of-range"
 * isDevnetError(new Error("no")); // false
 * ```
 */
export const isDevnetError = errorGuard<DevnetError>("DevnetError");
