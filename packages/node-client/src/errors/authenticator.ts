/** An account's authenticator refusing a transaction: which check refused, and why. */
import { errorGuard, type PerpxErrorOptions } from "@perpx/errors";
import { BroadcastTxError, type BroadcastTxErrorParameters } from "./broadcast.js";

/**
 * Which check of an account's authenticator refused a transaction.
 *
 * @example
 * ```ts
 * const check: AuthenticatorCheck = parseAuthenticatorRefusal("authenticator id 9: authenticator not found").check;
 * check; // "not-found"
 * ```
 */
export type AuthenticatorCheck =
  | "signature"
  | "message-type"
  | "clob-pair"
  | "subaccount"
  | "not-found"
  | "inactive"
  | "other";

const AUTHENTICATOR_LEAVES: ReadonlyArray<[string, AuthenticatorCheck]> = [
  ["signature verification failed", "signature"],
  ["message type verification failed", "message-type"],
  ["clob pair id verification failed", "clob-pair"],
  ["subaccount verification failed", "subaccount"],
  ["authenticator is not found", "not-found"],
  ["authenticator not found", "not-found"],
  ["smart account is not active", "inactive"],
];
// Case-insensitive: the chain registers these texts capitalized ("Signature verification failed").
const LEAF = new RegExp(
  `(?:^|: |; )([^:;]+): (${AUTHENTICATOR_LEAVES.map(([description]) => description).join("|")})`,
  "gi",
);

/**
 * What an authenticator's log says: the check that refused and the reasons of its failing leaves.
 *
 * @param log - the ABCI log of a transaction the authenticator refused.
 * @returns the check that refused (`signature`, `message-type`, `clob-pair`, `subaccount`,
 *   `not-found` or `inactive`) and the failing leaves' reasons.
 * @example
 * ```ts
 * parseAuthenticatorRefusal("sub-authenticator failed to authenticate: subaccount number 1 not in allowed list 0: subaccount verification failed: AllOf verification failed");
 * // { check: "subaccount", reason: "subaccount number 1 not in allowed list 0" }
 * ```
 */
export function parseAuthenticatorRefusal(log: string): { check: AuthenticatorCheck; reason: string } {
  const leaves = [...log.matchAll(LEAF)];
  if (leaves.length === 0) return { check: "other", reason: log };
  const leaf = leaves[0]![2]!.toLowerCase();
  const check = AUTHENTICATOR_LEAVES.find(([description]) => description === leaf)![1];
  return { check, reason: [...new Set(leaves.map((leaf) => leaf[1]!.trim()))].join("; ") };
}

/**
 * The account's authenticator refused a transaction (codespace `dydxaccountplus`): a trading key
 * used outside its scope (a message type, a subaccount or a market it may not touch), a wrong
 * signature, or an authenticator id that does not exist. `check` says which check refused and
 * `authenticatorReason` what it said, whichever phase found it (simulation, CheckTx, DeliverTx).
 *
 * @example
 * ```ts
 * const log = "message types do not match. Got /cosmos.bank.v1beta1.MsgSend: message type verification failed";
 * const error = new AuthenticatorRefusedError({ abciCode: 104, codespace: "dydxaccountplus", log, txHash: "AB12", phase: "simulate" });
 * [error.reason, error.check]; // ["unauthorized", "message-type"]
 * error.authenticatorReason; // "message types do not match. Got /cosmos.bank.v1beta1.MsgSend"
 * ```
 */
export class AuthenticatorRefusedError extends BroadcastTxError {
  override name = "AuthenticatorRefusedError";
  /** Which check refused. */
  readonly check: AuthenticatorCheck;
  /** What the failing checks said, e.g. `message types do not match. Got /cosmos.bank.v1beta1.MsgSend, ...`. */
  readonly authenticatorReason: string;

  /**
   * @param parameters - what the chain said.
   * @param options - the `cause` and the extra `details` and `metaMessages` of the error.
   */
  constructor(parameters: BroadcastTxErrorParameters, options: PerpxErrorOptions = {}) {
    const { check, reason } = parseAuthenticatorRefusal(parameters.log);
    super(parameters, { ...options, summary: `the authenticator refused it (${check}): ${reason}` });
    this.check = check;
    this.authenticatorReason = reason;
  }
}

/**
 * True for an {@link AuthenticatorRefusedError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * const log = "authenticator id 9: authenticator not found";
 * isAuthenticatorRefusedError(broadcastTxError({ abciCode: 104, codespace: "dydxaccountplus", log, txHash: "AB12", phase: "checkTx" })); // true
 * ```
 */
export const isAuthenticatorRefusedError = errorGuard<AuthenticatorRefusedError>("AuthenticatorRefusedError");
