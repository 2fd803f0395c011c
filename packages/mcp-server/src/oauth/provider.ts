import { randomUUID } from "node:crypto";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import {
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidScopeError,
  InvalidTargetError,
  InvalidTokenError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { LocalWallet } from "@perpx/node-client/wallets";
import type { Response } from "express";
import { hashToken, randomToken, type Sealer } from "./secrets.js";
import type { ConsentRequest, Grant, OAuthStore } from "./store.js";

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
 * What the provider needs: the store, the sealer, the protected resource (the `/mcp` URL), the
 * lifetimes, and how to render the consent page of a new request.
 */
export interface ProviderSettings {
  /** Where clients, consents, grants, codes and tokens live. */
  store: OAuthStore;
  /** Seals trading keys, credentials and client secrets. */
  sealer: Sealer;
  /** The protected resource: the tokens' audience. */
  resource: URL;
  /** Lifetimes. */
  lifetimes: OAuthLifetimes;
  /** Answers `/authorize` with the consent page of a request (its id is only in the page). */
  renderConsent(
    res: Response,
    view: { requestId: string; client: OAuthClientInformationFull; redirectUri: string },
  ): void;
}

/** A resource URL without a fragment or a trailing slash, for comparing. */
const comparable = (url: string) => url.replace(/#.*$/, "").replace(/\/$/, "");

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Refuses redirect URIs that would send a code in clear to another host. */
function checkRedirectUris(uris: readonly string[]): void {
  for (const uri of uris) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new InvalidClientMetadataError(`redirect_uri ${JSON.stringify(uri)} is not a URL`);
    }
    if (url.hash) throw new InvalidClientMetadataError(`redirect_uri ${uri} must not have a fragment`);
    if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) {
      throw new InvalidClientMetadataError(`redirect_uri ${uri} must be https (or http on a loopback host)`);
    }
  }
}

/**
 * The agent server's OAuth provider (the MCP SDK's `OAuthServerProvider`), backed by the store:
 * dynamic registration, a consent page per authorization, single-use codes bound to their PKCE
 * challenge and redirect URI, opaque tokens stored as hashes, refresh-token rotation with reuse
 * detection (a reused code or refresh token revokes its grant), and revocation.
 */
export function createOAuthProvider(settings: ProviderSettings): OAuthServerProvider & {
  /** Creates the grant of an approved consent and its authorization code. */
  issueCode(
    request: ConsentRequest,
    grant: Omit<Grant, "id" | "clientId" | "scopes" | "resource">,
  ): Promise<string>;
} {
  const { store, sealer, lifetimes } = settings;
  const resource = comparable(settings.resource.href);

  const clientsStore: OAuthRegisteredClientsStore = {
    async getClient(clientId) {
      const info = await store.client(clientId);
      if (!info) return undefined;
      const secret = typeof info.client_secret === "string" ? sealer.open(info.client_secret) : undefined;
      return {
        ...info,
        ...(secret === undefined ? {} : { client_secret: secret }),
      } as OAuthClientInformationFull;
    },
    async registerClient(client) {
      checkRedirectUris(client.redirect_uris);
      const full = client as OAuthClientInformationFull;
      const clientId = full.client_id ?? randomUUID();
      const info = { ...full, client_id: clientId };
      await store.saveClient(clientId, {
        ...info,
        ...(info.client_secret ? { client_secret: sealer.seal(info.client_secret) } : {}),
      });
      return info;
    },
  };

  async function issueTokens(grant: Grant): Promise<OAuthTokens> {
    const access = randomToken();
    const refresh = randomToken();
    const now = Date.now();
    const base = { grantId: grant.id, clientId: grant.clientId };
    await store.saveToken({
      ...base,
      hash: hashToken(access),
      kind: "access",
      expiresAt: now + lifetimes.accessTokenMs,
    });
    await store.saveToken({
      ...base,
      hash: hashToken(refresh),
      kind: "refresh",
      expiresAt: now + lifetimes.refreshTokenMs,
    });
    return {
      access_token: access,
      token_type: "Bearer",
      expires_in: Math.floor(lifetimes.accessTokenMs / 1000),
      refresh_token: refresh,
      scope: grant.scopes.join(" "),
    };
  }

  /** A code of this client, refusing (and revoking the grant of) a reused one. */
  async function liveCode(client: OAuthClientInformationFull, code: string) {
    const found = await store.code(hashToken(code));
    if (!found || found.clientId !== client.client_id) {
      throw new InvalidGrantError("the authorization code is unknown, expired or not this client's");
    }
    if (found.used) {
      await store.revokeGrant(found.grantId);
      throw new InvalidGrantError("the authorization code was already used: its grant is revoked");
    }
    return found;
  }

  function checkResource(requested: URL | undefined): void {
    if (requested && comparable(requested.href) !== resource) {
      throw new InvalidTargetError(
        `this authorization server issues tokens for ${settings.resource.href} only`,
      );
    }
  }

  return {
    clientsStore,

    async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response) {
      const scopes = params.scopes?.length ? params.scopes : [TRADE_SCOPE];
      const unknown = scopes.filter((scope) => scope !== TRADE_SCOPE);
      if (unknown.length > 0) {
        throw new InvalidScopeError(
          `unknown scope ${unknown.join(" ")}: this server grants "${TRADE_SCOPE}"`,
        );
      }
      checkResource(params.resource);
      const requestId = randomToken();
      await store.saveRequest({
        id: hashToken(requestId),
        clientId: client.client_id,
        redirectUri: params.redirectUri,
        ...(params.state === undefined ? {} : { state: params.state }),
        codeChallenge: params.codeChallenge,
        scopes,
        ...(params.resource ? { resource: params.resource.href } : {}),
        tradingKeySealed: sealer.seal(LocalWallet.generate().exportPrivateKeyHex()),
        expiresAt: Date.now() + lifetimes.consentMs,
      });
      settings.renderConsent(res, { requestId, client, redirectUri: params.redirectUri });
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

    async challengeForAuthorizationCode(client, code) {
      return (await liveCode(client, code)).codeChallenge;
    },

    async exchangeAuthorizationCode(client, code, _verifier, redirectUri, requested) {
      const found = await liveCode(client, code);
      if (redirectUri !== undefined && redirectUri !== found.redirectUri) {
        throw new InvalidGrantError("redirect_uri differs from the authorization request's");
      }
      checkResource(requested);
      if (!(await store.takeCode(found.hash))) {
        await store.revokeGrant(found.grantId);
        throw new InvalidGrantError("the authorization code was already used: its grant is revoked");
      }
      const grant = await store.grant(found.grantId);
      if (!grant) throw new InvalidGrantError("the grant was revoked");
      return issueTokens(grant);
    },

    async exchangeRefreshToken(client, refreshToken, scopes, requested) {
      const found = await store.token(hashToken(refreshToken));
      if (found?.kind !== "refresh" || found.clientId !== client.client_id) {
        throw new InvalidGrantError("the refresh token is unknown, expired, revoked or not this client's");
      }
      const reused = async () => {
        await store.revokeGrant(found.grantId);
        return new InvalidGrantError("the refresh token was already used: its grant is revoked");
      };
      if (found.used) throw await reused();
      const grant = await store.grant(found.grantId);
      if (!grant) throw new InvalidGrantError("the grant was revoked");
      const extra = (scopes ?? []).filter((scope) => !grant.scopes.includes(scope));
      if (extra.length > 0) throw new InvalidScopeError(`scope ${extra.join(" ")} was not granted`);
      checkResource(requested);
      if (!(await store.takeToken(found.hash))) throw await reused();
      return issueTokens(grant);
    },

    async verifyAccessToken(token): Promise<AuthInfo> {
      const found = await store.token(hashToken(token));
      if (found?.kind !== "access")
        throw new InvalidTokenError("the access token is unknown, expired or revoked");
      const grant = await store.grant(found.grantId);
      if (!grant) throw new InvalidTokenError("the access token's grant was revoked");
      if (grant.resource && comparable(grant.resource) !== resource) {
        throw new InvalidTokenError("the access token was not issued for this server");
      }
      return {
        token,
        clientId: found.clientId,
        scopes: grant.scopes,
        expiresAt: Math.floor(found.expiresAt / 1000),
        resource: settings.resource,
        extra: { grantId: grant.id, account: grant.account, credentialSealed: grant.credentialSealed },
      };
    },

    async revokeToken(client, request: OAuthTokenRevocationRequest) {
      const found = await store.token(hashToken(request.token));
      if (!found || found.clientId !== client.client_id) return;
      await store.revokeToken(found.hash);
      // Revoking a refresh token ends the grant: its access tokens stop working too (RFC 7009 2.1).
      if (found.kind === "refresh") await store.revokeGrant(found.grantId);
    },
  };
}
