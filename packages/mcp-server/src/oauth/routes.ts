import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isInvalidArgumentError } from "@perpx/errors";
import type { NodeClient } from "@perpx/node-client";
import { tradingKeyFromCredential } from "@perpx/node-client/wallets";
import express, { type NextFunction, type Request, type Response } from "express";
import { AuthError, fingerprintOf, type Principal } from "../auth.js";
import { ConsentError, consentSteps } from "./approval.js";
import { createAuthorizationServer, type OAuthLifetimes, TRADE_SCOPE } from "./authorization-server.js";
import { consentPage } from "./consent.js";
import { cosmosConsentSteps } from "./cosmos.js";
import { authorizationEndpoints } from "./endpoints.js";
import { isOAuthError } from "./errors.js";
import { createSealer } from "./secrets.js";
import type { OAuthStore } from "./store.js";
import type { ConsentPrompt } from "./types.js";

/**
 * What OAuth mode needs from the server.
 */
export interface OAuthRouteSettings {
  /** The OAuth store. */
  store: OAuthStore;
  /** The server secret the store's secrets are sealed under (at least 32 characters). */
  secret: string;
  /** The server's public origin: the issuer; the resource is `<publicUrl>/mcp`. */
  publicUrl: URL;
  /** The network, as the consent page shows it and the approval's EIP-712 domain uses it. */
  network: { name: string; chainId: string; evmChainId: number };
  /** `POST` endpoint of the network's approve-agent service. */
  approveAgentUrl: string;
  /** The node. */
  node: NodeClient;
  /** Lifetimes. */
  lifetimes: OAuthLifetimes;
}

/** The paths OAuth mode answers besides `/mcp` and `/health`. */
const OAUTH_PATHS = new Set([
  "/.well-known/oauth-protected-resource",
  "/.well-known/oauth-protected-resource/mcp",
  "/.well-known/oauth-authorization-server",
  "/authorize",
  "/token",
  "/register",
  "/revoke",
  "/consent/prepare",
  "/consent/approve",
  "/consent/deny",
  "/consent/cosmos/prepare",
  "/consent/cosmos/approve",
]);

/** The Protected Resource Metadata URL of a resource (RFC 9728 3.1): the well-known path, then the resource's. */
function resourceMetadataUrlOf(resource: URL): string {
  const path = resource.pathname === "/" ? "" : resource.pathname.replace(/\/$/, "");
  return new URL(`/.well-known/oauth-protected-resource${path}`, resource).href;
}

/**
 * OAuth mode: the server as its own authorization server (our {@link AuthorizationServer} behind
 * our endpoints), Protected Resource Metadata at both well-known paths, the consent page and its
 * steps, and bearer-token authentication for `/mcp`.
 *
 * @param settings - the store, secret, public URL, network, node and lifetimes.
 * @returns the request handler of the OAuth paths, the bearer check of `/mcp` and its challenge.
 * @throws {InvalidArgumentError} for a short secret.
 */
export function oauthRoutes(settings: OAuthRouteSettings) {
  const sealer = createSealer(settings.secret);
  const issuerUrl = new URL("/", settings.publicUrl);
  const resourceUrl = new URL("/mcp", settings.publicUrl);
  const resourceMetadataUrl = resourceMetadataUrlOf(resourceUrl);
  const server = createAuthorizationServer({
    store: settings.store,
    sealer,
    issuer: issuerUrl,
    resource: resourceUrl,
    resourceName: `perpx agent server (${settings.network.name})`,
    lifetimes: settings.lifetimes,
  });
  const renderConsent = (res: Response, { requestId, client, redirectUri }: ConsentPrompt) => {
    const nonce = randomBytes(16).toString("base64");
    res
      .status(200)
      .set({
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
        "x-frame-options": "DENY",
        "referrer-policy": "no-referrer",
      })
      .send(
        consentPage({
          requestId,
          clientName: client.client_name ?? client.client_id,
          redirectOrigin: new URL(redirectUri).origin,
          network: settings.network.name,
          chainId: settings.network.chainId,
          nonce,
        }),
      );
  };
  const steps = consentSteps({
    store: settings.store,
    sealer,
    evmChainId: settings.network.evmChainId,
    approveAgentUrl: settings.approveAgentUrl,
    node: settings.node,
    approvalSeconds: Math.floor(settings.lifetimes.consentMs / 1000),
    issueCode: (request, grant) => server.issueCode(request, grant),
  });

  const cosmos = cosmosConsentSteps({
    store: settings.store,
    sealer,
    node: settings.node,
    signTimeoutMs: settings.lifetimes.consentMs,
    issueCode: (request, grant) => server.issueCode(request, grant),
  });

  const app = express();
  app.disable("x-powered-by");
  const step =
    (run: (body: Record<string, unknown>) => Promise<unknown>) => async (req: Request, res: Response) => {
      res.set("cache-control", "no-store");
      const origin = req.headers.origin;
      if (origin !== undefined && origin !== issuerUrl.origin) {
        res.status(403).json({ error: "invalid_request", error_description: "cross-origin consent refused" });
        return;
      }
      try {
        const body =
          typeof req.body === "object" && req.body !== null ? (req.body as Record<string, unknown>) : {};
        res.status(200).json(await run(body));
      } catch (error) {
        if (error instanceof ConsentError || error instanceof AuthError) {
          res.status(error.status).json({ error: error.error, error_description: error.shortMessage });
        } else {
          res.status(500).json({ error: "server_error", error_description: "the approval failed" });
        }
      }
    };
  const json = express.json({ limit: "16kb" });
  app.post("/consent/prepare", json, step(steps.prepare));
  app.post("/consent/approve", json, step(steps.approve));
  app.post("/consent/deny", json, step(steps.deny));
  app.post("/consent/cosmos/prepare", json, step(cosmos.prepare));
  app.post("/consent/cosmos/approve", json, step(cosmos.approve));
  app.use(authorizationEndpoints(server, renderConsent));

  return {
    /** The Protected Resource Metadata URL the `WWW-Authenticate` challenge names. */
    resourceMetadataUrl,
    /** Answers an OAuth path; false for any other path. */
    async handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
      const path = new URL(req.url ?? "/", "http://localhost").pathname;
      if (!OAUTH_PATHS.has(path)) return false;
      await new Promise<void>((resolve, reject) => {
        res.once("finish", () => resolve());
        res.once("close", () => resolve());
        app(
          req as Request,
          res as Response,
          ((error?: unknown) => {
            if (error) return reject(error);
            if (!res.headersSent) {
              res
                .writeHead(404, { "content-type": "application/json" })
                .end(JSON.stringify({ error: "not_found" }));
            }
          }) as NextFunction,
        );
      });
      return true;
    },
    /**
     * The principal of an `Authorization: Bearer <access token>` header: the grant's account and
     * trading key. Sessions are bound to the grant, so a refreshed token keeps its session.
     * @throws {AuthError} 401 for a missing, unknown, expired or revoked token.
     */
    async authenticate(header: string | undefined): Promise<Principal> {
      const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match?.[1]) {
        throw new AuthError(401, "invalid_request", "missing bearer token: authorize through OAuth first");
      }
      try {
        const { grant } = await server.verifyAccessToken(match[1]);
        return {
          account: grant.account,
          tradingKey: tradingKeyFromCredential(sealer.open(grant.credentialSealed)),
          readOnly: false,
          fingerprint: fingerprintOf(`oauth-grant:${grant.id}`),
        };
      } catch (error) {
        if (isOAuthError(error)) throw new AuthError(error.status, error.error, error.shortMessage);
        if (isInvalidArgumentError(error)) {
          throw new AuthError(
            401,
            "invalid_token",
            "this token's grant was sealed under another server secret: authorize again",
          );
        }
        throw error;
      }
    },
    /** The `WWW-Authenticate` value of a 401 (RFC 6750 and RFC 9728). */
    challenge(error: AuthError, header: string | undefined): string {
      const base = `Bearer resource_metadata="${resourceMetadataUrl}", scope="${TRADE_SCOPE}"`;
      if (header === undefined || header.trim() === "") return base;
      return `${base}, error="${error.error}", error_description="${error.shortMessage.replace(/["\\]/g, "'")}"`;
    },
  };
}

/**
 * The OAuth mode's routes and authentication, as {@link oauthRoutes} builds them.
 */
export type OAuthRoutes = ReturnType<typeof oauthRoutes>;
