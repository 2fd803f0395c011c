import { PerpxError } from "@perpx/errors";

/**
 * The OAuth error codes the authorization server answers with: RFC 6749 (5.2 and 4.1.2.1), RFC
 * 7591 (3.2.2), RFC 8707 (`invalid_target`), RFC 6750 (`invalid_token`), and two for the HTTP layer
 * (`method_not_allowed`, `too_many_requests`).
 *
 * @example
 * ```ts
 * const code: OAuthErrorCode = "invalid_grant";
 * ```
 */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_client_metadata"
  | "invalid_redirect_uri"
  | "invalid_token"
  | "access_denied"
  | "method_not_allowed"
  | "too_many_requests"
  | "server_error";

/** The HTTP status of each code (RFC 6749 5.2: 400, but 401 for a failed client authentication). */
const STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  invalid_target: 400,
  invalid_client_metadata: 400,
  invalid_redirect_uri: 400,
  invalid_token: 401,
  access_denied: 403,
  method_not_allowed: 405,
  too_many_requests: 429,
  server_error: 500,
};

/**
 * A request the authorization server refuses, as the OAuth error response carries it: `error` is
 * the RFC's code and `status` its HTTP status. The message names what was wrong and never contains
 * a secret, a code or a token.
 *
 * @example
 * ```ts
 * const error = new OAuthError("invalid_grant", "the authorization code was already used");
 * error.status; // 400
 * error.body(); // { error: "invalid_grant", error_description: "the authorization code was already used" }
 * ```
 */
export class OAuthError extends PerpxError {
  override name = "OAuthError";
  /** The RFC error code. */
  readonly error: OAuthErrorCode;
  /** The HTTP status of the response. */
  readonly status: number;

  /**
   * @param error - the RFC error code.
   * @param problem - what was wrong (the `error_description`), with no secret in it.
   */
  constructor(error: OAuthErrorCode, problem: string) {
    super("INVALID_ARGUMENT", problem);
    this.error = error;
    this.status = STATUS[error];
  }

  /**
   * The JSON body of the error response.
   *
   * @returns `{ error, error_description }`.
   *
   * @example
   * ```ts
   * new OAuthError("invalid_scope", "unknown scope admin").body().error; // "invalid_scope"
   * ```
   */
  body(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.shortMessage };
  }
}

/**
 * True for an {@link OAuthError}.
 *
 * @param value - anything, typically a caught error.
 * @returns whether it is an OAuth error response to send.
 *
 * @example
 * ```ts
 * isOAuthError(new OAuthError("invalid_request", "code is required")); // true
 * isOAuthError(new Error("boom")); // false
 * ```
 */
export function isOAuthError(value: unknown): value is OAuthError {
  return value instanceof OAuthError;
}
