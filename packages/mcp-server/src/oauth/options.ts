import { getEndpoint, type NetworkConfig } from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";

/**
 * OAuth mode's settings (`auth: "oauth"` of `startMcpServer`).
 *
 * @example
 * ```ts
 * const oauth: OAuthOptions = { secret: process.env.PERPX_MCP_OAUTH_SECRET!, publicUrl: "https://mcp.example.com" };
 * ```
 */
export interface OAuthOptions {
  /**
   * The server secret (at least 32 characters) under which trading credentials and client secrets
   * are encrypted in the store (AES-256-GCM). Keep it stable: a new secret makes every issued token
   * useless.
   */
  secret: string;
  /**
   * The public origin clients reach the server at (the issuer; the resource is `<publicUrl>/mcp`);
   * https unless it is a loopback address.
   * @default `http://<host>:<port>` of the listener
   */
  publicUrl?: string;
  /**
   * The approve-agent service the consent's signed approval goes to.
   * @default `<devnetControl endpoint>/devnet/approve-agent`
   */
  approveAgentUrl?: string;
  /**
   * Access-token lifetime, s.
   * @default 3600
   */
  accessTokenTtlSeconds?: number;
  /**
   * Refresh-token lifetime, s (each refresh rotates it).
   * @default 2592000 (30 days)
   */
  refreshTokenTtlSeconds?: number;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

function seconds(value: number | undefined, fallback: number, name: string): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen <= 0)
    throw new InvalidArgumentError(name, "must be a positive integer");
  return chosen * 1000;
}

/**
 * Checks OAuth mode's options before anything starts and resolves what does not depend on the
 * listening port.
 *
 * @throws {InvalidArgumentError} for a missing or short secret, a bad URL or lifetime.
 * @throws {MissingEndpointError} when there is no approve-agent service.
 *
 * @example
 * ```ts
 * import { resolveNetwork } from "@perpx/core";
 *
 * const config = resolveNetwork({ network: "local", env: {} });
 * const secret = "a server secret of at least 32 characters";
 * resolveOAuthOptions({ secret }, config, "127.0.0.1").approveAgentUrl; // "http://127.0.0.1:26659/devnet/approve-agent"
 * resolveOAuthOptions({ secret: "short" }, config, "127.0.0.1"); // throws InvalidArgumentError
 * resolveOAuthOptions({ secret }, config, "0.0.0.0"); // throws InvalidArgumentError: no publicUrl
 * ```
 */
export function resolveOAuthOptions(
  options: OAuthOptions | undefined,
  config: NetworkConfig,
  listenHost: string,
) {
  if (!options || typeof options.secret !== "string" || options.secret.length < 32) {
    throw new InvalidArgumentError(
      "oauth.secret",
      "OAuth mode needs a server secret of at least 32 characters (e.g. `openssl rand -base64 48`)",
    );
  }
  let publicUrl: URL | undefined;
  if (options.publicUrl !== undefined) {
    try {
      publicUrl = new URL(options.publicUrl);
    } catch {
      throw new InvalidArgumentError(
        "oauth.publicUrl",
        "must be an absolute URL such as https://mcp.example.com",
      );
    }
    if (
      publicUrl.protocol !== "https:" &&
      !(publicUrl.protocol === "http:" && LOOPBACK.has(publicUrl.hostname))
    ) {
      throw new InvalidArgumentError("oauth.publicUrl", "must be https (http only on a loopback address)");
    }
  }
  if (publicUrl === undefined && !LOOPBACK.has(listenHost)) {
    throw new InvalidArgumentError(
      "oauth.publicUrl",
      "is required (an https URL) when the server listens on a non-loopback interface",
    );
  }
  return {
    secret: options.secret,
    publicUrl,
    approveAgentUrl:
      options.approveAgentUrl ?? `${getEndpoint(config, "devnetControl")}/devnet/approve-agent`,
    lifetimes: {
      accessTokenMs: seconds(options.accessTokenTtlSeconds, 3600, "oauth.accessTokenTtlSeconds"),
      refreshTokenMs: seconds(options.refreshTokenTtlSeconds, 30 * 24 * 3600, "oauth.refreshTokenTtlSeconds"),
      codeMs: 120_000,
      consentMs: 600_000,
    },
  };
}
