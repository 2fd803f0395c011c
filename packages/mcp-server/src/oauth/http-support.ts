import type { NextFunction, Request, RequestHandler, Response } from "express";
import { createRateLimiter } from "../rate-limit.js";
import { OAuthError } from "./errors.js";

/**
 * Answers an OAuth error: its JSON body and status, `Cache-Control: no-store`, and for a failed
 * client authentication the `WWW-Authenticate: Basic` challenge (RFC 6749 5.2). Any other failure
 * is a 500 `server_error` without details.
 *
 * @param res - the response.
 * @param error - what was thrown.
 *
 * @example
 * ```ts
 * import express from "express";
 *
 * const app = express();
 * app.get("/", (_req, res) => sendOAuthError(res, new OAuthError("invalid_client", "unknown client_id")));
 * const http = app.listen(0, "127.0.0.1");
 * await new Promise((resolve) => http.once("listening", resolve));
 * const { port } = http.address() as { port: number };
 * const response = await fetch(`http://127.0.0.1:${port}/`);
 * response.status; // 401
 * response.headers.get("www-authenticate"); // 'Basic realm="perpx-mcp"'
 * http.close();
 * ```
 */
export function sendOAuthError(res: Response, error: unknown): void {
  const refusal =
    error instanceof OAuthError ? error : new OAuthError("server_error", "the authorization server failed");
  res.set("cache-control", "no-store");
  if (refusal.error === "invalid_client") res.set("www-authenticate", 'Basic realm="perpx-mcp"');
  res.status(refusal.status).json(refusal.body());
}

/**
 * Refuses other methods with 405 and an `Allow` header.
 *
 * @param methods - the allowed methods.
 * @returns the middleware.
 *
 * @example
 * ```ts
 * const onlyPost = allowMethods(["POST"]);
 * typeof onlyPost; // "function"
 * ```
 */
export function allowMethods(methods: readonly string[]): RequestHandler {
  return (req, res, next) => {
    if (methods.includes(req.method)) return next();
    res.set("allow", methods.join(", "));
    sendOAuthError(res, new OAuthError("method_not_allowed", `${req.method} is not allowed here`));
  };
}

/**
 * CORS for the endpoints browser-based clients call (metadata, registration, token, revocation):
 * any origin may read the answer (they carry no cookie), and a preflight is answered 204.
 *
 * @param methods - the methods a preflight may ask for.
 * @returns the middleware.
 *
 * @example
 * ```ts
 * const middleware = openCors(["POST"]);
 * typeof middleware; // "function"
 * ```
 */
export function openCors(methods: readonly string[]): RequestHandler {
  return (req, res, next) => {
    res.set("access-control-allow-origin", "*");
    if (req.method !== "OPTIONS") return next();
    const asked = req.headers["access-control-request-headers"];
    res.set({
      "access-control-allow-methods": methods.join(", "),
      ...(asked ? { "access-control-allow-headers": asked, vary: "Access-Control-Request-Headers" } : {}),
      "access-control-max-age": "600",
    });
    res.status(204).end();
  };
}

/**
 * At most `limit` requests per client address in any `windowMs` (the endpoints that create state or
 * check secrets); over it, 429 `too_many_requests` with `Retry-After`.
 *
 * @param limit - requests allowed per window.
 * @param windowMs - the window, ms.
 * @returns the middleware.
 *
 * @example
 * ```ts
 * const middleware = limitPerAddress(20, 60 * 60_000);
 * typeof middleware; // "function"
 * ```
 */
export function limitPerAddress(limit: number, windowMs: number): RequestHandler {
  const limiter = createRateLimiter(windowMs);
  return (req: Request, res: Response, next: NextFunction) => {
    limiter
      .take(req.socket.remoteAddress ?? "unknown", limit)
      .then((taken) => {
        if (taken.allowed) return next();
        res.set("retry-after", String(Math.ceil(taken.retryAfterMs / 1000)));
        sendOAuthError(res, new OAuthError("too_many_requests", "too many requests: retry later"));
      })
      .catch(next);
  };
}

/**
 * The client credentials of a token or revocation request (RFC 6749 2.3.1): HTTP Basic (both parts
 * form-urlencoded) or `client_id` and `client_secret` in the body, never both.
 *
 * @param header - the `Authorization` header.
 * @param body - the form body.
 * @returns the client id and, when sent, its secret.
 * @throws {OAuthError} `invalid_client` without a client id or with a malformed Basic header;
 *   `invalid_request` for two ways of authenticating.
 *
 * @example
 * ```ts
 * const basic = `Basic ${Buffer.from("c-1:s3cret").toString("base64")}`;
 * clientCredentials(basic, {}); // { clientId: "c-1", secret: "s3cret" }
 * clientCredentials(undefined, { client_id: "c-1" }); // { clientId: "c-1", secret: undefined }
 * clientCredentials(undefined, {}); // throws OAuthError
 * ```
 */
export function clientCredentials(
  header: string | undefined,
  body: Record<string, unknown>,
): { clientId: string; secret: string | undefined } {
  const posted = {
    clientId: typeof body.client_id === "string" ? body.client_id : undefined,
    secret: typeof body.client_secret === "string" ? body.client_secret : undefined,
  };
  if (header !== undefined && /^Basic\s/i.test(header)) {
    if (posted.secret !== undefined) {
      throw new OAuthError(
        "invalid_request",
        "authenticate with one method: Basic or client_secret, not both",
      );
    }
    const decoded = Buffer.from(header.replace(/^Basic\s+/i, "").trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const formDecode = (part: string) => {
      try {
        return decodeURIComponent(part.replace(/\+/g, " "));
      } catch {
        throw new OAuthError("invalid_client", "the Basic credentials are not form-encoded");
      }
    };
    if (colon <= 0)
      throw new OAuthError("invalid_client", "the Basic credentials must be client_id:client_secret");
    const clientId = formDecode(decoded.slice(0, colon));
    if (posted.clientId !== undefined && posted.clientId !== clientId) {
      throw new OAuthError("invalid_request", "client_id differs from the Basic credentials'");
    }
    return { clientId, secret: formDecode(decoded.slice(colon + 1)) };
  }
  if (posted.clientId === undefined || posted.clientId === "") {
    throw new OAuthError("invalid_client", "no client authentication: send client_id");
  }
  return { clientId: posted.clientId, secret: posted.secret };
}
