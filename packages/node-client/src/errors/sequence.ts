/** A sequence mismatch: its error class, guard and log parser. */
import { errorGuard, type PerpxErrorOptions } from "@perpx/errors";
import { BroadcastTxError, type BroadcastTxErrorParameters } from "./broadcast.js";

/**
 * A sequence mismatch (sdk 32): the chain expected another account sequence. `expected` and `got`
 * are parsed from the log (`account sequence mismatch, expected 7, got 6`) when it has them.
 *
 * @example
 * ```ts
 * const log = "account sequence mismatch, expected 7, got 6: incorrect account sequence";
 * const error = new SequenceMismatchError({ abciCode: 32, codespace: "sdk", log, txHash: "AB12", phase: "checkTx" });
 * [error.expected, error.got]; // [7n, 6n]
 * ```
 */
export class SequenceMismatchError extends BroadcastTxError {
  override name = "SequenceMismatchError";
  /** The sequence the chain expected, when the log says. */
  readonly expected: bigint | undefined;
  /** The sequence the tx carried, when the log says. */
  readonly got: bigint | undefined;

  /**
   * @param parameters - what the chain said.
   * @param options - the `cause` and the extra `details` and `metaMessages` of the error.
   */
  constructor(parameters: BroadcastTxErrorParameters, options: PerpxErrorOptions = {}) {
    super(parameters, options);
    const parsed = parseSequenceMismatch(parameters.log);
    this.expected = parsed?.expected;
    this.got = parsed?.got;
  }
}

/**
 * Parses `expected N, got M` out of a sequence-mismatch log.
 *
 * @param log - the ABCI log of a refused transaction.
 * @returns the sequence the chain expected and the one the transaction carried, or `undefined` when
 *   the log is not a sequence mismatch.
 * @example
 * ```ts
 * parseSequenceMismatch("account sequence mismatch, expected 7, got 6: incorrect account sequence"); // { expected: 7n, got: 6n }
 * ```
 */
export function parseSequenceMismatch(log: string): { expected: bigint; got: bigint } | undefined {
  const match = /expected (\d+), got (\d+)/.exec(log);
  return match ? { expected: BigInt(match[1]!), got: BigInt(match[2]!) } : undefined;
}

/**
 * True for a {@link SequenceMismatchError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * const error = broadcastTxError({ abciCode: 32, codespace: "sdk", log: "", txHash: "AB12", phase: "checkTx" });
 * isSequenceMismatchError(error); // true
 * ```
 */
export const isSequenceMismatchError = errorGuard<SequenceMismatchError>("SequenceMismatchError");
