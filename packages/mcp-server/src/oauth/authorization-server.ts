import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { LocalWallet } from "@perpx/node-client/wallets";
import { OAuthError } from "./errors.js";
import { hashToken, randomToken, type Sealer } from "./secrets.js";
import type { Grant, OAuthStore } from "./store.js";
import type {
  AuthorizationServer,
  ClientMetadata,
  RegisteredClient,
  TokenResponse,
  VerifiedAccess,
} from "./types.js";

/** The one scope: trade (and read) the account's subaccount 0 with a scoped trading key. */
export const TRADE_SCOPE = "trade";

/**
 * Lifetimes of what the authorization server issues, ms.
 *
 * @example
 * ```ts
 * const lifetimes: OAuthLifetimes = { accessTokenMs: 3_600_000, refreshTokenMs: 2_592_000_000, codeMs: 120_000, consentMs: 600_000 };
 * ```
 */
export interface OAuthLifetimes {
  /** Access tokens. */
  accessTokenMs: number;
  /** Refresh tokens (each refresh rotates it). */
  refreshTokenMs: number;
  /** Authorization codes. */
  codeMs: number;
  /** A consent page, from `/authorize` to the wallet's approval. */
  consentMs: number;
}

/**
 * What the authorization server needs: the store, the sealer, its issuer, the protected resource
 * (the `/mcp` URL, the tokens' audience) and the lifetimes.
 *
 * @example
 * ```ts
 * const store = openSqliteStore({ path: ":memory:" });
 * const settings: AuthorizationServerSettings = {
 *   store: store.oauth,
 *   sealer: createSealer("a server secret of at least thirty-two characters"),
 *   issuer: new URL("http://127.0.0.1:8080/"),
 *   resource: new URL("http://127.0.0.1:8080/mcp"),
 *   resourceName: "perpx agent server (local)",
 *   lifetimes: { accessTokenMs: 3_600_000, refreshTokenMs: 2_592_000_000, codeMs: 120_000, consentMs: 600_000 },
 * };
 * await store.close();
 * ```
 */
export interface AuthorizationServerSettings {
  /** Where clients, consents, grants, codes and tokens live. */
  store: OAuthStore;
  /** Seals trading keys, credentials and client secrets. */
  sealer: Sealer;
  /** The issuer: the server's origin, with its trailing slash. */
  issuer: URL;
  /** The protected resource: the tokens' audience. */
  resource: URL;
  /** The resource's name in its metadata. */
  resourceName: string;
  /** Lifetimes. */
  lifetimes: OAuthLifetimes;
}

/** The token endpoint's client authentication methods. */
const AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"];
/** The grants this server offers. */
const GRANT_TYPES = ["authorization_code", "refresh_token"];
/** A confidential client's secret lives this long (s). */
const CLIENT_SECRET_SECONDS = 30 * 24 * 60 * 60;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const BLOCKED_SCHEMES = new Set(["javascript:", "data:", "vbscript:"]);

/** A resource URL without a fragment or a trailing slash, for comparing. */
const comparable = (url: string) => url.replace(/#.*$/, "").replace(/\/$/, "");

/** Refuses redirect URIs that would send a code in clear to another host (RFC 7591 3.2.2). */
function checkRedirectUris(uris: readonly string[]): void {
  if (uris.length === 0) throw new OAuthError("invalid_redirect_uri", "redirect_uris must not be empty");
  for (const uri of uris) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new OAuthError("invalid_redirect_uri", `redirect_uri ${JSON.stringify(uri)} is not a URL`);
    }
    if (BLOCKED_SCHEMES.has(url.protocol)) {
      throw new OAuthError("invalid_redirect_uri", `redirect_uri ${uri} uses a refused scheme`);
    }
    if (url.hash)
      throw new OAuthError("invalid_client_metadata", `redirect_uri ${uri} must not have a fragment`);
    if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) {
      throw new OAuthError(
        "invalid_client_metadata",
        `redirect_uri ${uri} must be https (or http on a loopback host)`,
      );
    }
  }
}

/** Equal secrets, compared in constant time over their hashes. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The S256 challenge of a PKCE verifier (RFC 7636 4.2). */
const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

/**
 * The agent server's authorization server over the store: dynamic registration, a consent page per
 * authorization, single-use codes bound to their PKCE challenge and redirect URI, opaque tokens
 * stored as hashes, refresh-token rotation with reuse detection (a reused code or refresh token
 * revokes its grant), and revocation.
 *
 * @param settings - the store, sealer, issuer, resource and lifetimes.
 * @returns the {@link AuthorizationServer}.
 *
 * @example
 * ```ts
 * const store = openSqliteStore({ path: ":memory:" });
 * const server = createAuthorizationServer({
 *   store: store.oauth,
 *   sealer: createSealer("a server secret of at least thirty-two characters"),
 *   issuer: new URL("http://127.0.0.1:8080/"),
 *   resource: new URL("http://127.0.0.1:8080/mcp"),
 *   resourceName: "perpx agent server (local)",
 *   lifetimes: { accessTokenMs: 3_600_000, refreshTokenMs: 2_592_000_000, codeMs: 120_000, consentMs: 600_000 },
 * });
 * const client = await server.register({ redirect_uris: ["http://127.0.0.1:7/callback"], token_endpoint_auth_method: "none" });
 * client.client_secret; // undefined
 * await server.register({ redirect_uris: ["http://evil.example/callback"] }); // throws OAuthError
 * await store.close();
 * ```
 */
export function createAuthorizationServer(settings: AuthorizationServerSettings): AuthorizationServer {
  const { store, sealer, lifetimes } = settings;
  const resource = comparable(settings.resource.href);
  const endpoint = (path: string) => new URL(path, settings.issuer).href;

  async function client(clientId: string): Promise<RegisteredClient | undefined> {
    const info = await store.client(clientId);
    if (!info) return undefined;
    const secret = typeof info.client_secret === "string" ? sealer.open(info.client_secret) : undefined;
    return { ...info, ...(secret === undefined ? {} : { client_secret: secret }) } as RegisteredClient;
  }

  /** An access token, and a refresh token unless the client did not register that grant. */
  async function issueTokens(grant: Grant, registered: RegisteredClient): Promise<TokenResponse> {
    const access = randomToken();
    const now = Date.now();
    const base = { grantId: grant.id, clientId: grant.clientId };
    await store.saveToken({
      ...base,
      hash: hashToken(access),
      kind: "access",
      expiresAt: now + lifetimes.accessTokenMs,
    });
    const tokens: TokenResponse = {
      access_token: access,
      token_type: "Bearer",
      expires_in: Math.floor(lifetimes.accessTokenMs / 1000),
      scope: grant.scopes.join(" "),
    };
    if (registered.grant_types && !registered.grant_types.includes("refresh_token")) return tokens;
    const refresh = randomToken();
    await store.saveToken({
      ...base,
      hash: hashToken(refresh),
      kind: "refresh",
      expiresAt: now + lifetimes.refreshTokenMs,
    });
    return { ...tokens, refresh_token: refresh };
  }

  function checkResource(requested: URL | undefined): void {
    if (requested && comparable(requested.href) !== resource) {
      throw new OAuthError(
        "invalid_target",
        `this authorization server issues tokens for ${settings.resource.href} only`,
      );
    }
  }

  function checkGrantType(registered: RegisteredClient, grantType: string): void {
    if (registered.grant_types && !registered.grant_types.includes(grantType)) {
      throw new OAuthError("unauthorized_client", `this client did not register the ${grantType} grant`);
    }
  }

  const server: AuthorizationServer = {
    metadata: {
      issuer: settings.issuer.href,
      authorization_endpoint: endpoint("/authorize"),
      token_endpoint: endpoint("/token"),
      registration_endpoint: endpoint("/register"),
      revocation_endpoint: endpoint("/revoke"),
      response_types_supported: ["code"],
      grant_types_supported: GRANT_TYPES,
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: AUTH_METHODS,
      revocation_endpoint_auth_methods_supported: AUTH_METHODS,
      scopes_supported: [TRADE_SCOPE],
    },
    resourceMetadata: {
      resource: settings.resource.href,
      authorization_servers: [settings.issuer.href],
      scopes_supported: [TRADE_SCOPE],
      bearer_methods_supported: ["header"],
      resource_name: settings.resourceName,
    },

    async register(metadata: ClientMetadata) {
      checkRedirectUris(metadata.redirect_uris);
      const method = metadata.token_endpoint_auth_method ?? "client_secret_basic";
      if (!AUTH_METHODS.includes(method)) {
        throw new OAuthError(
          "invalid_client_metadata",
          `token_endpoint_auth_method ${method} is not supported`,
        );
      }
      const unknownGrant = (metadata.grant_types ?? []).find((grant) => !GRANT_TYPES.includes(grant));
      if (unknownGrant !== undefined) {
        throw new OAuthError("invalid_client_metadata", `grant_types: ${unknownGrant} is not supported`);
      }
      if (metadata.response_types && !metadata.response_types.every((type) => type === "code")) {
        throw new OAuthError("invalid_client_metadata", 'response_types: only "code" is supported');
      }
      const issuedAt = Math.floor(Date.now() / 1000);
      const secret = method === "none" ? undefined : randomToken();
      const info: RegisteredClient = {
        ...metadata,
        token_endpoint_auth_method: method,
        client_id: randomUUID(),
        client_id_issued_at: issuedAt,
        ...(secret === undefined
          ? {}
          : { client_secret: secret, client_secret_expires_at: issuedAt + CLIENT_SECRET_SECONDS }),
      };
      await store.saveClient(info.client_id, {
        ...info,
        ...(secret === undefined ? {} : { client_secret: sealer.seal(secret) }),
      });
      return info;
    },

    client,

    async authenticateClient(clientId, secret) {
      const found = await client(clientId);
      if (!found) throw new OAuthError("invalid_client", "unknown client_id");
      if (found.client_secret === undefined) return found;
      if (secret === undefined)
        throw new OAuthError("invalid_client", "this client must authenticate with its secret");
      if (!sameSecret(secret, found.client_secret))
        throw new OAuthError("invalid_client", "wrong client_secret");
      const expires = found.client_secret_expires_at ?? 0;
      if (expires !== 0 && expires < Math.floor(Date.now() / 1000)) {
        throw new OAuthError("invalid_client", "the client_secret expired: register again");
      }
      return found;
    },

    async authorize(request) {
      if (request.client.response_types && !request.client.response_types.includes("code")) {
        throw new OAuthError("unauthorized_client", 'this client did not register the "code" response type');
      }
      checkGrantType(request.client, "authorization_code");
      const scopes = request.scopes.length > 0 ? request.scopes : [TRADE_SCOPE];
      const unknown = scopes.filter((scope) => scope !== TRADE_SCOPE);
      if (unknown.length > 0) {
        throw new OAuthError(
          "invalid_scope",
          `unknown scope ${unknown.join(" ")}: this server grants "${TRADE_SCOPE}"`,
        );
      }
      checkResource(request.resource);
      const requestId = randomToken();
      await store.saveRequest({
        id: hashToken(requestId),
        clientId: request.client.client_id,
        redirectUri: request.redirectUri,
        ...(request.state === undefined ? {} : { state: request.state }),
        codeChallenge: request.codeChallenge,
        scopes,
        ...(request.resource ? { resource: request.resource.href } : {}),
        tradingKeySealed: sealer.seal(LocalWallet.generate().exportPrivateKeyHex()),
        expiresAt: Date.now() + lifetimes.consentMs,
      });
      return { requestId, client: request.client, redirectUri: request.redirectUri };
    },

    async issueCode(request, approved) {
      const grant: Grant = {
        ...approved,
        id: randomToken(),
        clientId: request.clientId,
        scopes: request.scopes,
        ...(request.resource ? { resource: request.resource } : {}),
      };
      await store.saveGrant(grant);
      const code = randomToken();
      await store.saveCode({
        hash: hashToken(code),
        grantId: grant.id,
        clientId: request.clientId,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
        expiresAt: Date.now() + lifetimes.codeMs,
      });
      return code;
    },

    async token(registered, request) {
      checkGrantType(registered, request.grantType);
      if (request.grantType === "authorization_code") {
        const found = await store.code(hashToken(request.code));
        if (!found || found.clientId !== registered.client_id) {
          throw new OAuthError(
            "invalid_grant",
            "the authorization code is unknown, expired or not this client's",
          );
        }
        const reused = async () => {
          await store.revokeGrant(found.grantId);
          return new OAuthError(
            "invalid_grant",
            "the authorization code was already used: its grant is revoked",
          );
        };
        if (found.used) throw await reused();
        // RFC 7636 4.6: a wrong verifier leaves the code as it was (the client may not be the thief).
        if (!sameSecret(s256(request.codeVerifier), found.codeChallenge)) {
          throw new OAuthError("invalid_grant", "code_verifier does not match the code_challenge");
        }
        if (request.redirectUri !== undefined && request.redirectUri !== found.redirectUri) {
          throw new OAuthError("invalid_grant", "redirect_uri differs from the authorization request's");
        }
        checkResource(request.resource);
        if (!(await store.takeCode(found.hash))) throw await reused();
        const grant = await store.grant(found.grantId);
        if (!grant) throw new OAuthError("invalid_grant", "the grant was revoked");
        return issueTokens(grant, registered);
      }
      const found = await store.token(hashToken(request.refreshToken));
      if (found?.kind !== "refresh" || found.clientId !== registered.client_id) {
        throw new OAuthError(
          "invalid_grant",
          "the refresh token is unknown, expired, revoked or not this client's",
        );
      }
      const reused = async () => {
        await store.revokeGrant(found.grantId);
        return new OAuthError("invalid_grant", "the refresh token was already used: its grant is revoked");
      };
      if (found.used) throw await reused();
      const grant = await store.grant(found.grantId);
      if (!grant) throw new OAuthError("invalid_grant", "the grant was revoked");
      const extra = (request.scopes ?? []).filter((scope) => !grant.scopes.includes(scope));
      if (extra.length > 0) throw new OAuthError("invalid_scope", `scope ${extra.join(" ")} was not granted`);
      checkResource(request.resource);
      if (!(await store.takeToken(found.hash))) throw await reused();
      return issueTokens(grant, registered);
    },

    async revoke(registered, token) {
      const found = await store.token(hashToken(token));
      if (!found || found.clientId !== registered.client_id) return;
      await store.revokeToken(found.hash);
      // Revoking a refresh token ends the grant: its access tokens stop working too (RFC 7009 2.1).
      if (found.kind === "refresh") await store.revokeGrant(found.grantId);
    },

    async verifyAccessToken(token): Promise<VerifiedAccess> {
      const found = await store.token(hashToken(token));
      if (found?.kind !== "access")
        throw new OAuthError("invalid_token", "the access token is unknown, expired or revoked");
      const grant = await store.grant(found.grantId);
      if (!grant) throw new OAuthError("invalid_token", "the access token's grant was revoked");
      if (grant.resource && comparable(grant.resource) !== resource) {
        throw new OAuthError("invalid_token", "the access token was not issued for this server");
      }
      return { clientId: found.clientId, grant, expiresAt: found.expiresAt };
    },
  };
  return server;
}
