import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connectContext } from "@perpx/composite-client";
import type { EndpointName, Env, Network, NetworkConfig, NetworkName } from "@perpx/core";
import { checkDelayMs } from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";
import { createAccounts } from "./accounts.js";
import { AuthError } from "./auth.js";
import { mcpHttpHandler } from "./http.js";
import { effectiveLimits, resolveLimits, type TradingLimits } from "./limits.js";
import { type OAuthOptions, resolveOAuthOptions } from "./oauth/options.js";
import type { OAuthRoutes } from "./oauth/routes.js";
import { type McpStore, openSqliteStore } from "./store.js";

/**
 * Options of {@link startMcpServer}. The network is fixed for the server's life; credentials never
 * choose it.
 *
 * @example
 * ```ts
 * const options: McpServerOptions = { network: "testnet", env: process.env, database: "./perpx-mcp.db" };
 * ```
 */
export interface McpServerOptions {
  /** A preset name, a network, or a resolved network config. */
  network: NetworkName | Network | NetworkConfig;
  /**
   * Endpoint URLs (node RPC, REST, gRPC, indexer); each wins over `env` and the preset.
   * @default {}
   */
  endpoints?: Partial<Record<EndpointName, string>>;
  /**
   * Where the `PERPX_*_URL` variables are read from.
   * @default {}
   */
  env?: Env;
  /**
   * PEM of the CA of the gRPC endpoint's certificate.
   * @default undefined (the system's CAs)
   */
  grpcCaCert?: string;
  /**
   * The interface to listen on.
   * @default "127.0.0.1"
   */
  host?: string;
  /**
   * The port; 0 picks a free one.
   * @default 8080
   */
  port?: number;
  /**
   * Origins (`scheme://host:port`) whose browser requests are accepted; loopback origins are
   * accepted while the server listens on a loopback interface.
   * @default []
   */
  allowedOrigins?: readonly string[];
  /**
   * `Host` header values accepted besides the listening address (behind a proxy).
   * @default []
   */
  allowedHosts?: readonly string[];
  /**
   * The server's safety limits (over the defaults).
   * @default {}
   */
  limits?: Partial<TradingLimits>;
  /**
   * Tighter limits per master account (`perpx1...`); they never loosen the server's.
   * @default {}
   */
  accountLimits?: Readonly<Record<string, Partial<TradingLimits>>>;
  /**
   * The SQLite file that keeps the breaker, idempotency and the audit log (`":memory:"` keeps them
   * for the process only).
   * @default ":memory:"
   */
  database?: string;
  /**
   * A store to use instead of the SQLite file (closed with the server).
   * @default undefined
   */
  store?: McpStore;
  /**
   * How long a write tool waits for a verified state before answering UNKNOWN, ms.
   * @default 15000
   */
  verifyTimeoutMs?: number;
  /**
   * How long a stateful order is watched after inclusion before its state is answered, ms.
   * @default 3000
   */
  statefulSettleMs?: number;
  /**
   * Sessions without a request for this long are closed (their client re-initializes), ms.
   * @default 1800000 (30 minutes)
   */
  sessionIdleMs?: number;
  /**
   * How often the chain height is polled, ms.
   * @default 500
   */
  pollIntervalMs?: number;
  /**
   * How `/mcp` authenticates: `static` bearer credentials (base64 `{ tradingPrivateKey?,
   * masterAddress }`, no OAuth metadata advertised), or `oauth`, where the server is its own
   * authorization server and a wallet approves a fresh scoped trading key on a consent page.
   * @default "static"
   */
  auth?: "static" | "oauth";
  /**
   * OAuth mode's settings (required with `auth: "oauth"`).
   * @default undefined
   */
  oauth?: OAuthOptions;
  /**
   * A connection that has not sent a request's complete headers this long after it began is
   * answered 408 and closed (slowloris clients included: trickling bytes does not extend it), ms.
   * @default 10000
   */
  headersTimeoutMs?: number;
  /**
   * A request not fully received (headers and body) this long after it began is answered 408 and
   * closed, ms; at least `headersTimeoutMs`. Answers (SSE streams) are not limited by it.
   * @default 30000
   */
  requestTimeoutMs?: number;
  /**
   * Receives one line per request and session event (no credential, key or body ever).
   * @default nothing is logged
   */
  log?: (line: string) => void;
}

/**
 * A running agent server.
 *
 * @example
 * ```ts
 * const server = await startMcpServer({ ...serverOptions, port: 0 });
 * new URL(server.url).pathname; // "/mcp"
 * server.sessionCount(); // 0
 * await server.close();
 * ```
 */
export interface RunningMcpServer {
  /** The MCP endpoint. */
  url: string;
  /** The port listened on. */
  port: number;
  /** The store. */
  store: McpStore;
  /** Open sessions now. */
  sessionCount(): number;
  /** Closes the sessions, the listener, the chain connections and the store. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
const hostnameOf = (value: string) => {
  try {
    return new URL(value.includes("://") ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
};

/**
 * How long an idle keep-alive socket stays open after an answer. Node's 5 s default races the
 * clients: fetch (undici) reuses a socket until a second or two before the server's hint, and a
 * starved server (a loaded machine) can close it with the client's next request unread, which the
 * client sees as ECONNRESET on a request that never ran. A long idle window puts that race where
 * a client rarely is (an agent calls every few seconds, not after a minute of silence); the
 * client's own idle timer closes most sockets first.
 */
const IDLE_KEEP_ALIVE_MS = 65_000;

/** Node's options that cut slow clients, from the server's timeouts (checked before anything starts). */
function slowClientTimeouts(options: McpServerOptions) {
  const ms = (name: "headersTimeoutMs" | "requestTimeoutMs", fallback: number) => {
    const value = options[name] ?? fallback;
    if (!Number.isInteger(value) || value < 1)
      throw new InvalidArgumentError(name, `must be a positive integer of ms, got ${String(options[name])}`);
    return value;
  };
  const headersTimeout = ms("headersTimeoutMs", 10_000);
  const requestTimeout = ms("requestTimeoutMs", 30_000);
  if (requestTimeout < headersTimeout)
    throw new InvalidArgumentError("requestTimeoutMs", "must be at least headersTimeoutMs");
  // How often Node enforces them (its default, 30 s, would let a slow client run well over).
  return {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    keepAliveTimeout: IDLE_KEEP_ALIVE_MS,
  };
}

/**
 * Checks the server's waits before anything starts: each is a finite number of ms (any size: the
 * timers behind them wait past 2^31 ms as asked), positive except `statefulSettleMs` (0: the state
 * is answered at inclusion). `NaN` or a negative value would answer every write UNKNOWN at once or
 * close every session on the reaper's next tick.
 */
function checkWaits(options: McpServerOptions): void {
  const waits = [
    ["verifyTimeoutMs", false],
    ["statefulSettleMs", true],
    ["sessionIdleMs", false],
  ] as const;
  for (const [name, allowZero] of waits) {
    const value = options[name];
    if (value !== undefined) checkDelayMs(value, name, allowZero);
  }
}

/**
 * Starts the agent server: MCP over Streamable HTTP at `/mcp`, `/health`, static bearer
 * credentials, safety limits, verified fills and a persistent store. Resolves once it listens. A
 * client that has not sent its headers within `headersTimeoutMs` (or its request within
 * `requestTimeoutMs`) is answered 408 and closed.
 *
 * @param options - the network, listener, limits, store, timeouts and authentication.
 * @returns the running server (its URL, store and `close()`).
 * @throws {InvalidArgumentError | UnknownNetworkError | MissingEndpointError} for bad options.
 *
 * @example
 * ```ts
 * import { mkdtempSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const database = join(mkdtempSync(join(tmpdir(), "perpx-mcp-")), "state.db");
 * const server = await startMcpServer({ ...serverOptions, port: 0, database, limits: { maxOrderNotional: "500" } });
 * (await (await fetch(new URL("/health", server.url))).json()).status; // "ok"
 * await server.close();
 * rmSync(database, { force: true });
 * ```
 */
export async function startMcpServer(options: McpServerOptions): Promise<RunningMcpServer> {
  const limits = resolveLimits(options.limits);
  const accountLimits = options.accountLimits ?? {};
  const log = options.log ?? (() => {});
  const host = options.host ?? "127.0.0.1";
  const auth = options.auth ?? "static";
  if (auth !== "static" && auth !== "oauth") {
    throw new InvalidArgumentError("auth", 'must be "static" or "oauth"');
  }
  const timeouts = slowClientTimeouts(options);
  checkWaits(options);
  const base = await connectContext({
    network: options.network,
    ...(options.endpoints ? { endpoints: options.endpoints } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.grpcCaCert ? { grpcCaCert: options.grpcCaCert } : {}),
    pollIntervalMs: options.pollIntervalMs ?? 500,
  });
  let oauthSettings: ReturnType<typeof resolveOAuthOptions> | undefined;
  let oauthModule: typeof import("./oauth/routes.js") | undefined;
  try {
    if (auth === "oauth") {
      oauthSettings = resolveOAuthOptions(options.oauth, base.config, host);
      // Loaded in OAuth mode only: express and our authorization server.
      oauthModule = await import("./oauth/routes.js");
    }
  } catch (error) {
    base.height.stop();
    base.markets.stop();
    base.node.close();
    throw error;
  }
  let oauth: OAuthRoutes | undefined;
  const store = options.store ?? openSqliteStore({ path: options.database ?? ":memory:" });
  const accounts = createAccounts(base);
  const rateLimiter = store.writes;
  const loopback = LOOPBACK.has(host);
  let port = options.port ?? 8080;
  const allowedHosts = new Set(options.allowedHosts ?? []);
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const http = mcpHttpHandler({
    allowHost: (value) => {
      if (!loopback) return true;
      if (value === undefined) return false;
      const name = hostnameOf(value);
      return allowedHosts.has(value) || (name !== undefined && LOOPBACK.has(name));
    },
    allowOrigin: (origin) => {
      if (allowedOrigins.has(origin)) return true;
      const name = hostnameOf(origin);
      return loopback && name !== undefined && LOOPBACK.has(name);
    },
    openSession: async (principal) => {
      // Loaded on first use: zod (the tools' schemas) registers its globals when it loads.
      const { sessionServer } = await import("./session.js");
      return sessionServer({
        account: await accounts.of(principal),
        limits: effectiveLimits(limits, accountLimits[principal.account]),
        store,
        rateLimiter,
        verifyTimeoutMs: options.verifyTimeoutMs ?? 15_000,
        statefulSettleMs: options.statefulSettleMs ?? 3_000,
      });
    },
    health: () => ({
      status: "ok",
      network: base.config.network.name,
      chainId: base.config.network.chainId,
      height: base.height.current().toString(),
    }),
    log,
    sessionIdleMs: options.sessionIdleMs ?? 30 * 60_000,
    ...(auth === "oauth"
      ? {
          authenticate: (header: string | undefined) => {
            if (!oauth) throw new AuthError(503, "temporarily_unavailable", "the server is starting");
            return oauth.authenticate(header);
          },
          challenge: (error: AuthError, header: string | undefined) =>
            oauth?.challenge(error, header) ?? `Bearer error="${error.error}"`,
          otherRoute: async (req: IncomingMessage, res: ServerResponse) =>
            oauth ? oauth.handle(req, res) : false,
        }
      : {}),
  });
  const server = createServer(timeouts, (req, res) => void http.handle(req, res));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve());
    });
  } catch (error) {
    base.height.stop();
    base.markets.stop();
    base.node.close();
    await store.close();
    throw error;
  }
  port = (server.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host;
  if (oauthSettings && oauthModule) {
    oauth = oauthModule.oauthRoutes({
      ...oauthSettings,
      publicUrl: oauthSettings.publicUrl ?? new URL(`http://${shown}:${port}`),
      store: store.oauth,
      network: {
        name: base.config.network.name,
        chainId: base.config.network.chainId,
        evmChainId: base.config.network.evmChainId,
      },
      node: base.node,
    });
  }
  log(`perpx-mcp listening on http://${shown}:${port}/mcp (${base.config.network.name})`);
  return {
    url: `http://${shown}:${port}/mcp`,
    port,
    store,
    sessionCount: http.sessionCount,
    async close() {
      await http.closeAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      base.height.stop();
      base.markets.stop();
      base.node.close();
      await store.close();
    },
  };
}
