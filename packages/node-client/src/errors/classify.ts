/** Choosing the error class of a chain refusal, and reading an sdk code out of a log. */
import type { PerpxErrorOptions } from "@perpx/errors";
import { chainErrorOfLog } from "../chainErrors.js";
import { AuthenticatorRefusedError } from "./authenticator.js";
import {
  AUTHENTICATOR_CODESPACES,
  BroadcastTxError,
  type BroadcastTxErrorParameters,
  broadcastFailureReason,
} from "./broadcast.js";
import { SequenceMismatchError } from "./sequence.js";

/**
 * Builds the right error class for a failure: {@link SequenceMismatchError} for sdk 32,
 * {@link AuthenticatorRefusedError} for the authenticator's codespace, else {@link BroadcastTxError}.
 *
 * @param parameters - what the node said: hash, ABCI code, codespace, log, height.
 * @param options - the `cause` and the extra `details` and `metaMessages` of the error.
 * @returns a `SequenceMismatchError`, an `AuthenticatorRefusedError` or a plain `BroadcastTxError`,
 *   ready to throw.
 * @example
 * ```ts
 * broadcastTxError({ abciCode: 32, codespace: "sdk", log: "", txHash: "AB12", phase: "checkTx" }).name; // "SequenceMismatchError"
 * broadcastTxError({ abciCode: 5, codespace: "sdk", log: "", txHash: "AB12", phase: "checkTx" }).name; // "BroadcastTxError"
 * ```
 */
export function broadcastTxError(
  parameters: BroadcastTxErrorParameters,
  options: PerpxErrorOptions = {},
): BroadcastTxError {
  if (broadcastFailureReason(parameters.abciCode, parameters.codespace) === "sequence-mismatch") {
    return new SequenceMismatchError(parameters, options);
  }
  if (AUTHENTICATOR_CODESPACES.has(parameters.codespace))
    return new AuthenticatorRefusedError(parameters, options);
  return new BroadcastTxError(parameters, options);
}

/**
 * The sdk root error a log ends with (`...: insufficient funds` -> 5), for failures reported
 * without a code (gRPC status messages); a simulation envelope (`... With gas wanted: ...`) is
 * ignored. See {@link chainErrorOfLog} for every codespace.
 *
 * @param log - an error message, such as a gRPC status message.
 * @returns the Cosmos SDK root error code (5 for insufficient funds), or `undefined` when the log
 *   ends with none it knows.
 * @example
 * ```ts
 * sdkCodeFromLog("spendable balance 0uusdc is smaller than 5uusdc: insufficient funds"); // 5
 * ```
 */
export function sdkCodeFromLog(log: string): number | undefined {
  const known = chainErrorOfLog(log.split(" With gas wanted:")[0]!.trim(), ["sdk"]);
  return known?.codespace === "sdk" ? known.code : undefined;
}
