import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { AuthError, type Principal, principalOf } from "./auth.js";

/** Request bodies above this size are refused (413). */
const MAX_BODY_BYTES = 1_000_000;

/**
 * What the HTTP layer needs from the server: the request guards and how to open a session.
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 *
 * const routes: McpRoutes = {
 *   allowHost: (host) => host === "127.0.0.1:8080",
 *   allowOrigin: () => false,
 *   openSession: async () => new McpServer({ name: "perpx-mcp", version: "0.0.0" }),
 *   health: () => ({ status: "ok" }),
 *   log: () => {},
 *   sessionIdleMs: 60_000,
 * };
 * routes.allowHost("evil.example:8080"); // false
 * ```
 */
export interface McpRoutes {
  /** Whether a `Host` header is acceptable (DNS-rebinding protection). */
  allowHost(host: string | undefined): boolean;
  /** Whether an `Origin` header is acceptable. */
  allowOrigin(origin: string): boolean;
  /** Builds the MCP server of a new session for a principal. */
  openSession(principal: Principal): Promise<McpServer>;
  /** The `/health` body. */
  health(): Record<string, unknown>;
  /** A log line (never a header, a body or a credential). */
  log(line: string): void;
  /** Sessions idle this long (ms) are closed. */
  sessionIdleMs: number;
  /**
   * Resolves the `Authorization` header to a principal (OAuth mode's access tokens).
   * @default principalOf (static base64 credentials)
   */
  authenticate?(header: string | undefined): Promise<Principal>;
  /** The `WWW-Authenticate` value of a refusal (OAuth mode names its resource metadata). */
  challenge?(error: AuthError, header: string | undefined): string;
  /** Answers a path other than `/mcp` and `/health` (OAuth mode's endpoints); false when not its. */
  otherRoute?(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  fingerprint: string;
  lastSeen: number;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

const rpcError = (message: string) => ({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });

/** Whether a body is a JSON-RPC `initialize` request (the transport validates the rest). */
function isInitializeRequest(body: unknown): boolean {
  if (typeof body !== "object" || body === null) return false;
  const message = body as { jsonrpc?: unknown; method?: unknown; id?: unknown };
  return message.jsonrpc === "2.0" && message.method === "initialize" && message.id !== undefined;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RangeError("body too large");
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/**
 * The `/mcp` and `/health` request handler with its sessions: Streamable HTTP (POST, GET streams,
 * DELETE), `Mcp-Session-Id` sessions bound to the credential that opened them, Host and Origin
 * checks, and bearer authentication on every request.
 *
 * @param routes - the request guards, how to open a session, and OAuth mode's hooks.
 * @returns `handle` (one request), `sessionCount` and `closeAll`.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 *
 * const routes: McpRoutes = {
 *   allowHost: () => true,
 *   allowOrigin: () => false,
 *   openSession: async () => new McpServer({ name: "perpx-mcp", version: "0.0.0" }),
 *   health: () => ({ status: "ok" }),
 *   log: () => {},
 *   sessionIdleMs: 60_000,
 * };
 * const { handle, closeAll } = mcpHttpHandler(routes);
 * const http = createServer((req, res) => void handle(req, res));
 * await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
 * const { port } = http.address() as { port: number };
 * await (await fetch(`http://127.0.0.1:${port}/health`)).json(); // { status: "ok" }
 * (await fetch(`http://127.0.0.1:${port}/mcp`, { method: "POST", body: "{}" })).status; // 401: no credential
 * await closeAll();
 * http.close();
 * ```
 */
export function mcpHttpHandler(routes: McpRoutes) {
  const sessions = new Map<string, Session>();

  async function open(principal: Principal, req: IncomingMessage, res: ServerResponse, body: unknown) {
    const server = await routes.openSession(principal);
    // Loaded on first use: the SDK's HTTP module sets a global fetch dispatcher when it loads.
    const { StreamableHTTPServerTransport } = await import(
      "@modelcontextprotocol/sdk/server/streamableHttp.js"
    );
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, fingerprint: principal.fingerprint, lastSeen: Date.now() });
        routes.log(
          `session ${id} opened for ${principal.account}${principal.readOnly ? " (read-only)" : ""}`,
        );
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        routes.log(`session ${id} closed`);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      server.close().catch(() => {});
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (!routes.allowHost(req.headers.host)) return sendJson(res, 403, rpcError("Host not allowed"));
    if (path === "/health") {
      if (req.method !== "GET") return sendJson(res, 405, rpcError("Method not allowed"), { allow: "GET" });
      return sendJson(res, 200, routes.health());
    }
    if (path !== "/mcp" && routes.otherRoute && (await routes.otherRoute(req, res))) return;
    if (path !== "/mcp") return sendJson(res, 404, rpcError("Not found: the MCP endpoint is /mcp"));
    const origin = req.headers.origin;
    if (origin !== undefined && !routes.allowOrigin(origin))
      return sendJson(res, 403, rpcError("Origin not allowed"));
    if (!["POST", "GET", "DELETE"].includes(req.method ?? "")) {
      return sendJson(res, 405, rpcError("Method not allowed"), { allow: "GET, POST, DELETE" });
    }
    let principal: Principal;
    try {
      principal = routes.authenticate
        ? await routes.authenticate(req.headers.authorization)
        : principalOf(req.headers.authorization);
    } catch (error) {
      if (error instanceof AuthError) {
        const challenge =
          routes.challenge?.(error, req.headers.authorization) ??
          `Bearer realm="perpx-mcp", error="${error.error}", error_description="${error.shortMessage.replace(/"/g, "'")}"`;
        return sendJson(
          res,
          error.status,
          { error: error.error, error_description: error.shortMessage },
          { "www-authenticate": challenge },
        );
      }
      throw error;
    }
    const sessionId = req.headers["mcp-session-id"];
    const session = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (typeof sessionId === "string" && !session) return sendJson(res, 404, rpcError("Session not found"));
    if (session && session.fingerprint !== principal.fingerprint) {
      return sendJson(res, 403, rpcError("This session belongs to another credential"));
    }
    if (session) session.lastSeen = Date.now();
    if (req.method !== "POST") {
      if (!session) return sendJson(res, 400, rpcError("Bad Request: Mcp-Session-Id header is required"));
      return session.transport.handleRequest(req, res);
    }
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (error) {
      const tooLarge = error instanceof RangeError;
      return sendJson(res, tooLarge ? 413 : 400, {
        jsonrpc: "2.0",
        error: { code: -32700, message: tooLarge ? "Body too large" : "Parse error" },
        id: null,
      });
    }
    if (session) return session.transport.handleRequest(req, res, body);
    if (!isInitializeRequest(body)) {
      return sendJson(res, 400, rpcError("Bad Request: Mcp-Session-Id header is required"));
    }
    try {
      await open(principal, req, res, body);
    } catch (error) {
      if (error instanceof AuthError) {
        return sendJson(
          res,
          error.status,
          { error: error.error, error_description: error.shortMessage },
          {
            "www-authenticate": `Bearer realm="perpx-mcp", error="${error.error}"`,
          },
        );
      }
      throw error;
    }
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    try {
      await route(req, res);
    } catch (error) {
      if (!res.headersSent) sendJson(res, 500, rpcError("Internal server error"));
      else res.end();
      routes.log(`error ${req.method} ${req.url}: ${error instanceof Error ? error.name : "unknown"}`);
    }
    routes.log(
      `${req.method} ${new URL(req.url ?? "/", "http://localhost").pathname} ${res.statusCode} ${Date.now() - started}ms`,
    );
  }

  const reaper = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (now - session.lastSeen < routes.sessionIdleMs) continue;
        sessions.delete(id);
        // A timer callback: neither a log that throws nor a close that fails may escape it.
        session.transport.close().catch(() => {});
        try {
          routes.log(`session ${id} closed after ${routes.sessionIdleMs} ms idle`);
        } catch {
          // The log's own failure: the session is closed all the same.
        }
      }
    },
    Math.max(10, Math.min(60_000, Math.floor(routes.sessionIdleMs / 2))),
  );
  reaper.unref();

  return {
    /**
     * Handles one request; failures become a 500 without details. Never rejects: when even that
     * fails (a `log` that throws, a response torn down), the request's socket is cut.
     */
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      try {
        await serve(req, res);
      } catch {
        res.destroy();
      }
    },
    /** The open sessions' count. */
    sessionCount: () => sessions.size,
    /** Closes every session. */
    async closeAll(): Promise<void> {
      clearInterval(reaper);
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(
        all.map(async (s) => {
          await s.transport.close();
          await s.server.close();
        }),
      );
    },
  };
}
