import type { ConsentRequest, Grant } from "./store.js";

/**
 * A client's registration metadata (RFC 7591 2), as a registration request sends it.
 *
 * @example
 * ```ts
 * const metadata: ClientMetadata = { redirect_uris: ["http://127.0.0.1:7/callback"], token_endpoint_auth_method: "none" };
 * ```
 */
export interface ClientMetadata {
  /** Where the authorization server may send the user back (exact match). */
  redirect_uris: string[];
  /** How the client authenticates at the token endpoint: `none`, `client_secret_post` or `client_secret_basic`. */
  token_endpoint_auth_method?: string;
  /** The grants it uses (omitted: both this server offers). */
  grant_types?: string[];
  /** The response types it uses (`code`). */
  response_types?: string[];
  /** Its name, as the consent page shows it. */
  client_name?: string;
  /** Its home page. */
  client_uri?: string;
  /** Its logo. */
  logo_uri?: string;
  /** The scopes it may ask for. */
  scope?: string;
  /** People to contact. */
  contacts?: string[];
  /** Its terms of service. */
  tos_uri?: string;
  /** Its privacy policy. */
  policy_uri?: string;
  /** Its keys' URL. */
  jwks_uri?: string;
  /** Its keys. */
  jwks?: unknown;
  /** Its software's id. */
  software_id?: string;
  /** Its software's version. */
  software_version?: string;
  /** A signed statement of its metadata. */
  software_statement?: string;
}

/**
 * A registered client (RFC 7591 3.2.1): its metadata, id, and secret for a confidential client.
 *
 * @example
 * ```ts
 * const client: RegisteredClient = { client_id: "c-1", client_id_issued_at: 1_700_000_000, redirect_uris: ["http://127.0.0.1:7/callback"], token_endpoint_auth_method: "none" };
 * ```
 */
export interface RegisteredClient extends ClientMetadata {
  /** Its id. */
  client_id: string;
  /** Its secret (a confidential client), in clear only in the registration response. */
  client_secret?: string;
  /** When the id was issued, unix s. */
  client_id_issued_at?: number;
  /** When the secret expires, unix s (0: never). */
  client_secret_expires_at?: number;
}

/**
 * An authorization request (RFC 6749 4.1.1 with RFC 7636 and RFC 8707) the HTTP layer checked: the
 * client is registered and the redirect URI is exactly one of its own.
 *
 * @example
 * ```ts
 * const request: AuthorizationRequest = {
 *   client: { client_id: "c-1", redirect_uris: ["http://127.0.0.1:7/callback"] },
 *   redirectUri: "http://127.0.0.1:7/callback",
 *   codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
 *   scopes: ["trade"],
 * };
 * ```
 */
export interface AuthorizationRequest {
  /** The client that asks. */
  client: RegisteredClient;
  /** Where the answer goes. */
  redirectUri: string;
  /** The PKCE S256 challenge. */
  codeChallenge: string;
  /** The scopes asked for (empty: the default). */
  scopes: string[];
  /** The client's `state`, echoed. */
  state?: string;
  /** The RFC 8707 resource the tokens are for. */
  resource?: URL;
}

/**
 * What the consent page of a new authorization request shows: the request id (only in the page),
 * the client and where the answer goes.
 *
 * @example
 * ```ts
 * const view: ConsentPrompt = { requestId: "r-1", client: { client_id: "c-1", redirect_uris: ["http://127.0.0.1:7/callback"] }, redirectUri: "http://127.0.0.1:7/callback" };
 * ```
 */
export interface ConsentPrompt {
  /** The pending consent's id. */
  requestId: string;
  /** The client that asks. */
  client: RegisteredClient;
  /** Where the answer goes. */
  redirectUri: string;
}

/**
 * A token request (RFC 6749 4.1.3 and 6) of an authenticated client.
 *
 * @example
 * ```ts
 * const request: TokenRequest = { grantType: "refresh_token", refreshToken: "…" };
 * ```
 */
export type TokenRequest =
  | {
      grantType: "authorization_code";
      /** The code `/authorize` sent back. */
      code: string;
      /** The PKCE verifier. */
      codeVerifier: string;
      /** The authorization request's redirect URI, when the client repeats it. */
      redirectUri?: string;
      /** The RFC 8707 resource. */
      resource?: URL;
    }
  | {
      grantType: "refresh_token";
      /** The refresh token (rotated: each is used once). */
      refreshToken: string;
      /** A narrower set of the granted scopes. */
      scopes?: string[];
      /** The RFC 8707 resource. */
      resource?: URL;
    };

/**
 * A successful token response (RFC 6749 5.1).
 *
 * @example
 * ```ts
 * const tokens: TokenResponse = { access_token: "…", token_type: "Bearer", expires_in: 3600, refresh_token: "…", scope: "trade" };
 * ```
 */
export interface TokenResponse {
  /** The access token (opaque). */
  access_token: string;
  /** Always `Bearer`. */
  token_type: "Bearer";
  /** Seconds until the access token expires. */
  expires_in: number;
  /** The next refresh token (absent for a client that did not register the `refresh_token` grant). */
  refresh_token?: string;
  /** The granted scopes, space-separated. */
  scope: string;
}

/**
 * What a valid access token acts for: its client, grant and expiry.
 *
 * @example
 * ```ts
 * const access: VerifiedAccess = { clientId: "c-1", grant: { id: "g-1", clientId: "c-1", account: "perpx1…", credentialSealed: "v1.…", scopes: ["trade"] }, expiresAt: Date.now() + 3_600_000 };
 * ```
 */
export interface VerifiedAccess {
  /** The client it was issued to. */
  clientId: string;
  /** The grant it acts for. */
  grant: Grant;
  /** Unix ms after which it is void. */
  expiresAt: number;
}

/**
 * Authorization Server Metadata (RFC 8414 2).
 *
 * @example
 * ```ts
 * const metadata: AuthorizationServerMetadata = {
 *   issuer: "http://127.0.0.1:8080/",
 *   authorization_endpoint: "http://127.0.0.1:8080/authorize",
 *   token_endpoint: "http://127.0.0.1:8080/token",
 *   registration_endpoint: "http://127.0.0.1:8080/register",
 *   revocation_endpoint: "http://127.0.0.1:8080/revoke",
 *   response_types_supported: ["code"],
 *   grant_types_supported: ["authorization_code", "refresh_token"],
 *   code_challenge_methods_supported: ["S256"],
 *   token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
 *   revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
 *   scopes_supported: ["trade"],
 * };
 * ```
 */
export interface AuthorizationServerMetadata {
  /** The issuer, the server's origin. */
  issuer: string;
  /** `/authorize`. */
  authorization_endpoint: string;
  /** `/token`. */
  token_endpoint: string;
  /** `/register`. */
  registration_endpoint: string;
  /** `/revoke`. */
  revocation_endpoint: string;
  /** `code`. */
  response_types_supported: string[];
  /** `authorization_code`, `refresh_token`. */
  grant_types_supported: string[];
  /** `S256`. */
  code_challenge_methods_supported: string[];
  /** How clients authenticate at the token endpoint. */
  token_endpoint_auth_methods_supported: string[];
  /** How clients authenticate at the revocation endpoint. */
  revocation_endpoint_auth_methods_supported: string[];
  /** The scopes. */
  scopes_supported: string[];
}

/**
 * Protected Resource Metadata (RFC 9728 2).
 *
 * @example
 * ```ts
 * const metadata: ProtectedResourceMetadata = {
 *   resource: "http://127.0.0.1:8080/mcp",
 *   authorization_servers: ["http://127.0.0.1:8080/"],
 *   scopes_supported: ["trade"],
 *   bearer_methods_supported: ["header"],
 *   resource_name: "perpx agent server (local)",
 * };
 * ```
 */
export interface ProtectedResourceMetadata {
  /** The resource: the `/mcp` URL. */
  resource: string;
  /** The authorization servers that issue its tokens. */
  authorization_servers: string[];
  /** The scopes. */
  scopes_supported: string[];
  /** How tokens are sent: in the `Authorization` header only. */
  bearer_methods_supported: string[];
  /** Its name. */
  resource_name: string;
}

/**
 * The agent server's authorization server, as the HTTP layer uses it: dynamic registration,
 * authorization (a consent per request), the token grants, revocation, the bearer check of the
 * protected resource, and both metadata documents. Every refusal is an {@link OAuthError} naming
 * the RFC's code; nothing here knows HTTP or the MCP SDK.
 *
 * @example
 * ```ts
 * const store = openSqliteStore({ path: ":memory:" });
 * const server: AuthorizationServer = createAuthorizationServer({
 *   store: store.oauth,
 *   sealer: createSealer("a server secret of at least thirty-two characters"),
 *   issuer: new URL("http://127.0.0.1:8080/"),
 *   resource: new URL("http://127.0.0.1:8080/mcp"),
 *   resourceName: "perpx agent server (local)",
 *   lifetimes: { accessTokenMs: 3_600_000, refreshTokenMs: 2_592_000_000, codeMs: 120_000, consentMs: 600_000 },
 * });
 * server.metadata.token_endpoint; // "http://127.0.0.1:8080/token"
 * await store.close();
 * ```
 */
export interface AuthorizationServer {
  /** Authorization Server Metadata (RFC 8414). */
  readonly metadata: AuthorizationServerMetadata;
  /** Protected Resource Metadata of the `/mcp` resource (RFC 9728). */
  readonly resourceMetadata: ProtectedResourceMetadata;
  /** Registers a client (RFC 7591); a confidential one gets a secret, shown only here. */
  register(metadata: ClientMetadata): Promise<RegisteredClient>;
  /** A registered client (its secret, if any, opened), or undefined. */
  client(clientId: string): Promise<RegisteredClient | undefined>;
  /** The client a token or revocation request authenticates as; `invalid_client` otherwise. */
  authenticateClient(clientId: string, secret: string | undefined): Promise<RegisteredClient>;
  /** Opens the pending consent of an authorization request. */
  authorize(request: AuthorizationRequest): Promise<ConsentPrompt>;
  /** Creates the grant of an approved consent and its authorization code. */
  issueCode(
    request: ConsentRequest,
    grant: Omit<Grant, "id" | "clientId" | "scopes" | "resource">,
  ): Promise<string>;
  /** Answers a token request of an authenticated client. */
  token(client: RegisteredClient, request: TokenRequest): Promise<TokenResponse>;
  /** Revokes a token of this client (RFC 7009); unknown or foreign tokens are ignored. */
  revoke(client: RegisteredClient, token: string): Promise<void>;
  /** The grant an access token acts for; `invalid_token` otherwise. */
  verifyAccessToken(token: string): Promise<VerifiedAccess>;
}
