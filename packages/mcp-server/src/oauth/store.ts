/**
 * A pending consent: what `/authorize` asked for, and the fresh trading key (sealed) the wallet is
 * asked to approve. Kept until it is approved, denied or expires.
 *
 * @example
 * ```ts
 * const request: ConsentRequest = { id: "…", clientId: "…", redirectUri: "http://127.0.0.1/cb", codeChallenge: "…", scopes: ["trade"], tradingKeySealed: "v1.…", expiresAt: Date.now() + 600_000 };
 * ```
 */
export interface ConsentRequest {
  /** The hash of the request id the consent page carries. */
  id: string;
  /** The client that asked. */
  clientId: string;
  /** Where the answer goes (exactly as registered). */
  redirectUri: string;
  /** The client's `state`, echoed. */
  state?: string;
  /** The PKCE S256 challenge. */
  codeChallenge: string;
  /** The granted scopes. */
  scopes: string[];
  /** The RFC 8707 resource asked for. */
  resource?: string;
  /** The trading key's private key, hex, sealed. */
  tradingKeySealed: string;
  /** The wallet's 0x address, once the page connected it. */
  evmAddress?: string;
  /** The approval's nonce (unix ms), once prepared. */
  nonce?: string;
  /** The approval's expiry (unix s), once prepared. */
  expiry?: string;
  /** Unix ms after which the request is void. */
  expiresAt: number;
}

/**
 * What an approved consent grants: the account and its sealed trading credential; codes and tokens
 * point to it.
 *
 * @example
 * ```ts
 * const grant: Grant = { id: "…", clientId: "…", account: "perpx1…", credentialSealed: "v1.…", scopes: ["trade"] };
 * ```
 */
export interface Grant {
  /** Random id. */
  id: string;
  /** The client it was granted to. */
  clientId: string;
  /** The master account, `perpx1...`. */
  account: string;
  /** The base64 credential `{ tradingPrivateKey, masterAddress }`, sealed. */
  credentialSealed: string;
  /** The granted scopes. */
  scopes: string[];
  /** The resource the tokens are for. */
  resource?: string;
}

/**
 * An authorization code (by hash), single use.
 *
 * @example
 * ```ts
 * const code: AuthorizationCode = { hash: "…", grantId: "…", clientId: "…", redirectUri: "http://127.0.0.1/cb", codeChallenge: "…", expiresAt: Date.now() + 60_000 };
 * ```
 */
export interface AuthorizationCode {
  /** The code's hash. */
  hash: string;
  /** The grant it redeems. */
  grantId: string;
  /** The client it was issued to. */
  clientId: string;
  /** The redirect URI of the authorization request. */
  redirectUri: string;
  /** The PKCE S256 challenge. */
  codeChallenge: string;
  /** Unix ms after which it is void. */
  expiresAt: number;
}

/**
 * An access or refresh token (by hash).
 *
 * @example
 * ```ts
 * const token: IssuedToken = { hash: "…", kind: "access", grantId: "…", clientId: "…", expiresAt: Date.now() + 3_600_000 };
 * ```
 */
export interface IssuedToken {
  /** The token's hash. */
  hash: string;
  /** Which kind. */
  kind: "access" | "refresh";
  /** The grant it acts for. */
  grantId: string;
  /** The client it was issued to. */
  clientId: string;
  /** Unix ms after which it is void. */
  expiresAt: number;
}

/**
 * The OAuth state of the agent server: registered clients, pending consents, grants, codes and
 * tokens. Secrets are stored sealed, codes and tokens only as hashes. `take*` operations are
 * atomic, so a code or refresh token is redeemed once even across instances sharing a database.
 *
 * @example
 * ```ts
 * const store = openSqliteStore({ path: ":memory:" });
 * await store.oauth.saveClient("id", { client_id: "id", redirect_uris: ["http://127.0.0.1/cb"] });
 * ```
 */
export interface OAuthStore {
  /** Stores a registered client (its JSON, the secret already sealed). */
  saveClient(clientId: string, info: Record<string, unknown>): Promise<void>;
  /** A registered client's JSON. */
  client(clientId: string): Promise<Record<string, unknown> | undefined>;
  /** Stores (or replaces) a pending consent. */
  saveRequest(request: ConsentRequest): Promise<void>;
  /** A pending consent that is neither used nor expired. */
  request(id: string): Promise<ConsentRequest | undefined>;
  /** Marks a pending consent used: true for the one caller that did. */
  takeRequest(id: string): Promise<boolean>;
  /** Stores a grant. */
  saveGrant(grant: Grant): Promise<void>;
  /** A grant that was not revoked. */
  grant(id: string): Promise<Grant | undefined>;
  /** Revokes a grant (its tokens stop working). */
  revokeGrant(id: string): Promise<void>;
  /** Stores an authorization code. */
  saveCode(code: AuthorizationCode): Promise<void>;
  /** An unexpired code, used or not (`used`). */
  code(hash: string): Promise<(AuthorizationCode & { used: boolean }) | undefined>;
  /** Marks a code used: true for the one caller that did. */
  takeCode(hash: string): Promise<boolean>;
  /** Stores a token. */
  saveToken(token: IssuedToken): Promise<void>;
  /** A token that was not revoked, used or not (`used`: a rotated refresh token). */
  token(hash: string): Promise<(IssuedToken & { used: boolean }) | undefined>;
  /** Marks a refresh token used: true for the one caller that did (rotation). */
  takeToken(hash: string): Promise<boolean>;
  /** Revokes one token. */
  revokeToken(hash: string): Promise<void>;
}
