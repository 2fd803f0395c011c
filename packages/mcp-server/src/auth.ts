import { createHash } from "node:crypto";
import { decodeCredential, isInvalidCredentialError } from "@perpx/core";
import { PerpxError } from "@perpx/errors";
import type { NodeClient } from "@perpx/node-client";
import { getAuthenticators } from "@perpx/node-client/queries";
import { encodeAuthenticatorConfig, tradingKeyAuthenticator } from "@perpx/node-client/tx";
import { type TradingKey, tradingKeyFromCredential } from "@perpx/node-client/wallets";

/**
 * Who is calling: the account a credential names, and its trading key unless the session is
 * read-only. `fingerprint` (a hash of the bearer token) ties later requests to the session; the
 * token itself is not kept.
 *
 * @example
 * ```ts
 * const principal = principalOf(`Bearer ${credential}`);
 * principal.readOnly; // false
 * ```
 */
export interface Principal {
  /** The master account, `perpx1...`. */
  account: string;
  /** The trading key, absent for a read-only session. */
  tradingKey: TradingKey | undefined;
  /** True without a trading key. */
  readOnly: boolean;
  /** SHA-256 of the bearer token, hex. */
  fingerprint: string;
}

/**
 * A request the server refuses before any MCP message is read: `status` is the HTTP status; the
 * message never contains the credential or its key.
 *
 * @example
 * ```ts
 * new AuthError(401, "invalid_token", "the credential is not base64").status; // 401
 * ```
 */
export class AuthError extends PerpxError {
  override name = "AuthError";
  /** The HTTP status to answer. */
  readonly status: number;
  /** The OAuth-style error name (`invalid_request`, `invalid_token`). */
  readonly error: string;

  /**
   * @param status - the HTTP status.
   * @param error - the OAuth-style error name.
   * @param problem - what was wrong, with no secret in it.
   */
  constructor(status: number, error: string, problem: string) {
    super("INVALID_CREDENTIAL", problem);
    this.status = status;
    this.error = error;
  }
}

/**
 * SHA-256 of a bearer token, hex.
 *
 * @param token - the bearer token.
 * @returns its SHA-256, 64 hex characters.
 *
 * @example
 * ```ts
 * fingerprintOf("abc").length; // 64
 * ```
 */
export function fingerprintOf(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Reads the `Authorization: Bearer <base64 credential>` header into a {@link Principal}.
 *
 * @param header - the `Authorization` header, if any.
 * @returns the principal the credential names.
 *
 * @throws {AuthError} 401 when the header is missing, not a bearer token, or not a valid credential.
 *
 * @example
 * ```ts
 * principalOf(undefined); // throws AuthError
 * principalOf("Basic abc"); // throws AuthError
 * principalOf(`Bearer ${credential}`).fingerprint === fingerprintOf(credential); // true
 * ```
 */
export function principalOf(header: string | undefined): Principal {
  if (header === undefined || header.trim() === "") {
    throw new AuthError(
      401,
      "invalid_request",
      "missing Authorization header: send `Authorization: Bearer <base64 credential>`",
    );
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) {
    throw new AuthError(
      401,
      "invalid_request",
      "the Authorization header must be `Bearer <base64 credential>`",
    );
  }
  const token = match[1];
  try {
    const credential = decodeCredential(token);
    const tradingKey = credential.readOnly ? undefined : tradingKeyFromCredential(credential);
    return {
      account: credential.masterAddress,
      tradingKey,
      readOnly: tradingKey === undefined,
      fingerprint: fingerprintOf(token),
    };
  } catch (error) {
    if (isInvalidCredentialError(error)) throw new AuthError(401, "invalid_token", error.shortMessage);
    throw error;
  }
}

/**
 * The id of the newest authenticator the master account registered for this trading key (place,
 * cancel and batch cancel on subaccount 0).
 *
 * @param node - the node client to query.
 * @param tradingKey - the trading key and its master account.
 * @returns the authenticator's id.
 *
 * @throws {AuthError} 401 when the account has none for the key.
 *
 * @example
 * ```ts
 * import { tradingKeyFromCredential } from "@perpx/node-client/wallets";
 *
 * const id = await authenticatorOf(node, tradingKeyFromCredential(credential));
 * typeof id; // "bigint"
 * ```
 */
export async function authenticatorOf(node: NodeClient, tradingKey: TradingKey): Promise<bigint> {
  const config = encodeAuthenticatorConfig(tradingKeyAuthenticator(tradingKey.wallet.publicKey)).join();
  const authenticators = await getAuthenticators(node, { address: tradingKey.masterAddress });
  const ids = authenticators
    .filter((a) => a.type === "AllOf" && a.config.join() === config)
    .map((a) => a.id)
    .sort((a, b) => (a < b ? 1 : -1));
  if (ids[0] === undefined) {
    throw new AuthError(
      401,
      "invalid_token",
      `the account ${tradingKey.masterAddress} has not registered this trading key: register it on chain first`,
    );
  }
  return ids[0];
}
