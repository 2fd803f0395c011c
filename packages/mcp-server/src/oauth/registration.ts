import { OAuthError } from "./errors.js";
import type { ClientMetadata } from "./types.js";

/** The metadata fields this server keeps, by kind; any other field is dropped (RFC 7591 2). */
const STRINGS = [
  "token_endpoint_auth_method",
  "client_name",
  "scope",
  "policy_uri",
  "software_id",
  "software_version",
  "software_statement",
] as const;
const URLS = ["client_uri", "logo_uri", "tos_uri", "jwks_uri"] as const;
const LISTS = ["redirect_uris", "grant_types", "response_types", "contacts"] as const;
const WEB = new Set(["https:", "http:"]);

/**
 * Reads a registration request's JSON body (RFC 7591 2) into client metadata: `redirect_uris` is
 * required, known fields must have their type, the URLs among them must be http(s), and unknown
 * fields are dropped. The redirect URIs' policy is the authorization server's
 * ({@link AuthorizationServer.register}).
 *
 * @param body - the parsed JSON body.
 * @returns the client metadata.
 * @throws {OAuthError} `invalid_client_metadata` naming the field.
 *
 * @example
 * ```ts
 * const metadata = parseClientMetadata({ redirect_uris: ["http://127.0.0.1:7/cb"], client_name: "agent", extra: 1 });
 * metadata; // { redirect_uris: ["http://127.0.0.1:7/cb"], client_name: "agent" }
 * parseClientMetadata({ client_name: "agent" }); // throws OAuthError
 * parseClientMetadata({ redirect_uris: ["http://127.0.0.1:7/cb"], logo_uri: "javascript:alert(1)" }); // throws OAuthError
 * ```
 */
export function parseClientMetadata(body: unknown): ClientMetadata {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new OAuthError("invalid_client_metadata", "the registration request must be a JSON object");
  }
  const input = body as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const wrong = (name: string, form: string) =>
    new OAuthError("invalid_client_metadata", `${name} must be ${form}`);
  for (const name of LISTS) {
    const value = input[name];
    if (value === undefined) continue;
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
      throw wrong(name, "an array of strings");
    }
    out[name] = value;
  }
  if (out.redirect_uris === undefined) throw wrong("redirect_uris", "an array of redirect URIs");
  for (const name of STRINGS) {
    const value = input[name];
    if (value === undefined) continue;
    if (typeof value !== "string") throw wrong(name, "a string");
    out[name] = value;
  }
  for (const name of URLS) {
    const value = input[name];
    // Some clients send "" for an absent URL: treated as absent.
    if (value === undefined || value === "") continue;
    if (typeof value !== "string" || !URL.canParse(value) || !WEB.has(new URL(value).protocol)) {
      throw wrong(name, "an http(s) URL");
    }
    out[name] = value;
  }
  if (input.jwks !== undefined) out.jwks = input.jwks;
  return out as unknown as ClientMetadata;
}
