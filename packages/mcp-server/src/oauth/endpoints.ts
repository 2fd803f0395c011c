import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { OAuthError } from "./errors.js";
import {
  allowMethods,
  clientCredentials,
  limitPerAddress,
  openCors,
  sendOAuthError,
} from "./http-support.js";
import { parseClientMetadata } from "./registration.js";
import type {
  AuthorizationRequest,
  AuthorizationServer,
  AuthorizationServerMetadata,
  ConsentPrompt,
  ProtectedResourceMetadata,
  RegisteredClient,
  TokenRequest,
} from "./types.js";

/**
 * Requests per client address and window at each endpoint (the MCP SDK 1.x router's defaults).
 *
 * @example
 * ```ts
 * const limits: EndpointLimits = { authorize: 100, token: 50, revoke: 50, register: 20 };
 * ```
 */
export interface EndpointLimits {
  /** `/authorize`, per 15 minutes. */
  authorize: number;
  /** `/token`, per 15 minutes. */
  token: number;
  /** `/revoke`, per 15 minutes. */
  revoke: number;
  /** `/register`, per hour. */
  register: number;
}

const DEFAULT_LIMITS: EndpointLimits = { authorize: 100, token: 50, revoke: 50, register: 20 };
const QUARTER_HOUR = 15 * 60_000;
/** An S256 challenge: 32 bytes of SHA-256, base64url without padding (RFC 7636 4.2). */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** A string parameter, or undefined when it is absent or repeated. */
function field(source: unknown, name: string): string | undefined {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

/** A required string parameter. */
function required(source: unknown, name: string): string {
  const value = field(source, name);
  if (value === undefined || value === "") throw new OAuthError("invalid_request", `${name} is required`);
  return value;
}

/** The RFC 8707 `resource` parameter, a URL when present. */
function resourceOf(source: unknown): URL | undefined {
  const value = field(source, "resource");
  if (value === undefined) return undefined;
  if (!URL.canParse(value)) throw new OAuthError("invalid_target", "resource must be an absolute URL");
  return new URL(value);
}

/** The form body of a request (`{}` when it had none). */
const formOf = (req: Request): Record<string, unknown> =>
  typeof req.body === "object" && req.body !== null ? (req.body as Record<string, unknown>) : {};

/** The client a token or revocation request authenticates as. */
function authenticated(server: AuthorizationServer, req: Request): Promise<RegisteredClient> {
  const { clientId, secret } = clientCredentials(req.headers.authorization, formOf(req));
  return server.authenticateClient(clientId, secret);
}

/** The token request a form carries. */
function tokenRequestOf(form: Record<string, unknown>): TokenRequest {
  const grantType = required(form, "grant_type");
  const resource = resourceOf(form);
  const withResource = resource ? { resource } : {};
  if (grantType === "authorization_code") {
    const redirectUri = field(form, "redirect_uri");
    return {
      grantType,
      code: required(form, "code"),
      codeVerifier: required(form, "code_verifier"),
      ...(redirectUri === undefined ? {} : { redirectUri }),
      ...withResource,
    };
  }
  if (grantType === "refresh_token") {
    const scope = field(form, "scope");
    return {
      grantType,
      refreshToken: required(form, "refresh_token"),
      ...(scope === undefined ? {} : { scopes: scope.split(" ").filter(Boolean) }),
      ...withResource,
    };
  }
  throw new OAuthError("unsupported_grant_type", `grant_type ${grantType} is not supported`);
}

/**
 * The authorize endpoint's first phase (RFC 6749 4.1.2.1): the client and the redirect URI, which
 * must be exactly one the client registered. Its refusals are answered directly, never redirected.
 */
async function redirectTarget(server: AuthorizationServer, source: unknown) {
  const client = await server.client(required(source, "client_id"));
  if (!client) throw new OAuthError("invalid_request", "unknown client_id");
  const asked = field(source, "redirect_uri");
  const redirectUri = asked ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
  if (redirectUri === undefined || !client.redirect_uris.includes(redirectUri)) {
    throw new OAuthError(
      "invalid_request",
      "redirect_uri must be exactly one of the client's registered redirect URIs",
    );
  }
  return { client, redirectUri };
}

/** Sends the user back to the client with an error (and its `state`). */
function redirectError(res: Response, redirectUri: string, error: unknown, state: string | undefined): void {
  const refusal =
    error instanceof OAuthError ? error : new OAuthError("server_error", "the authorization server failed");
  const back = new URL(redirectUri);
  back.searchParams.set("error", refusal.error);
  back.searchParams.set("error_description", refusal.shortMessage);
  if (state !== undefined) back.searchParams.set("state", state);
  res.redirect(302, back.href);
}

/**
 * The authorization server's HTTP side over an {@link AuthorizationServer}: RFC 8414 and RFC 9728
 * metadata (the latter at the root and path-suffixed well-known URLs), `/register` (RFC 7591),
 * `/authorize` (PKCE S256 only, exact redirect URIs, the consent page), `/token`
 * (`authorization_code`, `refresh_token`; `client_secret_basic`, `client_secret_post` or `none`) and
 * `/revoke` (RFC 7009). Errors are the RFCs' responses; each endpoint is rate-limited per address.
 *
 * @param server - the authorization server.
 * @param renderConsent - answers `/authorize` with the consent page of a new request.
 * @param limits - requests per address and window.
 * @returns an express router to mount at the server's root.
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
 * const router = authorizationEndpoints(server, (res, view) => void res.send(view.requestId));
 * typeof router; // "function"
 * await store.close();
 * ```
 */
export function authorizationEndpoints(
  server: AuthorizationServer,
  renderConsent: (res: Response, view: ConsentPrompt) => void,
  limits: EndpointLimits = DEFAULT_LIMITS,
): Router {
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: "16kb" });
  const metadata = (document: AuthorizationServerMetadata | ProtectedResourceMetadata) => [
    openCors(["GET", "OPTIONS"]),
    allowMethods(["GET", "OPTIONS"]),
    (_req: Request, res: Response) => void res.status(200).json(document),
  ];
  router.all("/.well-known/oauth-authorization-server", ...metadata(server.metadata));
  const resourcePath = new URL(server.resourceMetadata.resource).pathname.replace(/\/$/, "");
  router.all("/.well-known/oauth-protected-resource", ...metadata(server.resourceMetadata));
  router.all(`/.well-known/oauth-protected-resource${resourcePath}`, ...metadata(server.resourceMetadata));

  router.all(
    "/register",
    openCors(["POST"]),
    allowMethods(["POST"]),
    limitPerAddress(limits.register, 4 * QUARTER_HOUR),
    express.json({ limit: "64kb" }),
    async (req: Request, res: Response) => {
      res.set("cache-control", "no-store");
      try {
        res.status(201).json(await server.register(parseClientMetadata(req.body)));
      } catch (error) {
        sendOAuthError(res, error);
      }
    },
  );

  router.all(
    "/authorize",
    allowMethods(["GET", "POST"]),
    limitPerAddress(limits.authorize, QUARTER_HOUR),
    form,
    async (req: Request, res: Response) => {
      res.set("cache-control", "no-store");
      const source = req.method === "POST" ? formOf(req) : req.query;
      let target: Awaited<ReturnType<typeof redirectTarget>>;
      try {
        target = await redirectTarget(server, source);
      } catch (error) {
        return sendOAuthError(res, error);
      }
      const state = field(source, "state");
      try {
        const responseType = required(source, "response_type");
        if (responseType !== "code") {
          throw new OAuthError(
            "unsupported_response_type",
            `response_type ${responseType} is not supported: use code`,
          );
        }
        const challenge = required(source, "code_challenge");
        if (field(source, "code_challenge_method") !== "S256") {
          throw new OAuthError(
            "invalid_request",
            "PKCE with code_challenge_method=S256 is required (plain is refused)",
          );
        }
        if (!S256_CHALLENGE.test(challenge)) {
          throw new OAuthError("invalid_request", "code_challenge must be 43 characters of base64url (S256)");
        }
        const resource = resourceOf(source);
        const request: AuthorizationRequest = {
          client: target.client,
          redirectUri: target.redirectUri,
          codeChallenge: challenge,
          scopes: (field(source, "scope") ?? "").split(" ").filter(Boolean),
          ...(state === undefined ? {} : { state }),
          ...(resource ? { resource } : {}),
        };
        renderConsent(res, await server.authorize(request));
      } catch (error) {
        redirectError(res, target.redirectUri, error, state);
      }
    },
  );

  router.all(
    "/token",
    openCors(["POST"]),
    allowMethods(["POST"]),
    limitPerAddress(limits.token, QUARTER_HOUR),
    form,
    async (req: Request, res: Response) => {
      res.set({ "cache-control": "no-store", pragma: "no-cache" });
      try {
        const client = await authenticated(server, req);
        res.status(200).json(await server.token(client, tokenRequestOf(formOf(req))));
      } catch (error) {
        sendOAuthError(res, error);
      }
    },
  );

  router.all(
    "/revoke",
    openCors(["POST"]),
    allowMethods(["POST"]),
    limitPerAddress(limits.revoke, QUARTER_HOUR),
    form,
    async (req: Request, res: Response) => {
      res.set("cache-control", "no-store");
      try {
        const client = await authenticated(server, req);
        await server.revoke(client, required(formOf(req), "token"));
        res.status(200).json({});
      } catch (error) {
        sendOAuthError(res, error);
      }
    },
  );

  // A body that does not parse (or is too large) is the client's error, not the server's.
  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      return sendOAuthError(res, new OAuthError("invalid_request", "the request body could not be read"));
    }
    sendOAuthError(res, error);
  });
  return router;
}
