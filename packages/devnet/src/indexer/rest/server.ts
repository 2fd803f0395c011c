/**
 * The indexer's REST server (`/v4/...` and `/health` on its own port): route matching, the rate
 * limits (`RateLimit-*` headers, 429), the validation answer (400 `{errors}`), the unknown-route
 * answer (404 `{error, errorCode}`), caching headers and CORS, as the reference's comlink service
 * answers.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  closeServer,
  createHttpServer,
  listen,
  readBody,
  type ServerTimeouts,
  sendCorsPreflight,
  sendJson,
  sendJsonText,
  urlOf,
} from "../../servers/http.js";
import type { Indexer } from "../indexer.js";
import { accountRoutes } from "./account-routes.js";
import { affiliateRoutes } from "./affiliate-routes.js";
import { fundingRoutes } from "./funding-routes.js";
import { marketRoutes } from "./market-routes.js";
import { pnlRoutes } from "./pnl-routes.js";
import { programRoutes } from "./program-routes.js";
import { RestRateLimiter } from "./rate-limit.js";
import { internalError, type Route, type RouteAnswer } from "./routes.js";
import { tradeHistoryRoutes } from "./trade-history-routes.js";
import { traderRoutes } from "./trader-routes.js";
import { transferRoutes } from "./transfer-routes.js";
import { utilityRoutes } from "./utility-routes.js";
import { RequestChecks } from "./validation.js";

/** Options of {@link startIndexerRestServer}. */
export interface IndexerRestServerOptions {
  readonly indexer: Indexer;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly timeouts?: Partial<ServerTimeouts>;
  /** Extra routes (account routes are added beside the market ones). */
  readonly routes?: readonly Route[];
}

/** A running indexer REST server. */
export interface IndexerRestServer {
  /** The base URL, e.g. `http://127.0.0.1:3002`. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

interface Compiled {
  readonly segments: readonly string[];
  readonly route: Route;
}

function match(routes: readonly Compiled[], path: readonly string[]) {
  for (const { segments, route } of routes) {
    if (segments.length !== path.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let i = 0; i < segments.length; i++) {
      const want = segments[i] as string;
      const got = path[i] as string;
      if (want.startsWith(":")) params[want.slice(1)] = got;
      else if (want !== got) {
        matched = false;
        break;
      }
    }
    if (matched) return { route, params };
  }
  return undefined;
}

const NOT_FOUND = { error: "Not Found", errorCode: 404 };

/**
 * Answers one request from `routes`, counting it against `limiter` (exported for tests of the
 * routing itself).
 */
export function handleIndexerRequest(
  indexer: Indexer,
  routes: readonly Compiled[],
  limiter: RestRateLimiter,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  if (req.method === "OPTIONS") {
    sendCorsPreflight(res);
    return;
  }
  const url = new URL(req.url ?? "/", "http://localhost");
  let path: string[];
  try {
    path = url.pathname
      .split("/")
      .filter((s) => s !== "")
      .map((s) => decodeURIComponent(s));
  } catch {
    sendJson(res, 404, NOT_FOUND);
    return;
  }
  const method = req.method;
  const found =
    method === "GET" || method === "POST"
      ? match(
          routes.filter((r) => (r.route.method ?? "GET") === method),
          path,
        )
      : undefined;
  if (found === undefined) {
    sendJson(res, 404, NOT_FOUND);
    return;
  }
  // comlink's rate limiter runs first: before the cache headers and the validation.
  const limit = limiter.consume(found.route.path, req.headers, req.socket.remoteAddress, Date.now());
  if (limit?.limited === true) {
    sendJson(res, 429, { errors: [{ msg: "Too many requests" }] }, { ...limit.headers });
    return;
  }
  const limitHeaders = limit?.headers ?? {};
  if (method === "POST") {
    readBody(req).then(
      (bytes) =>
        respond(
          indexer,
          found,
          new RequestChecks(found.params, url.searchParams, jsonBody(bytes)),
          res,
          limitHeaders,
        ),
      () => sendJson(res, 413, { errors: [{ msg: "request entity too large" }] }),
    );
    return;
  }
  respond(indexer, found, new RequestChecks(found.params, url.searchParams), res, limitHeaders);
}

/** A POST body as body-parser's `json()` leaves it: the parsed object, else an empty one. */
function jsonBody(bytes: Buffer): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(bytes.toString("utf8"));
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Runs a matched route and sends its answer (400 when a check failed, 500 when it threw), with the
 * cache header and the rate limiter's headers.
 */
function respond(
  indexer: Indexer,
  found: { route: Route; params: Record<string, string> },
  checks: RequestChecks,
  res: ServerResponse,
  limitHeaders: Record<string, string>,
): void {
  const cache = found.route.cache === "no-cache" ? "no-cache" : `public, max-age=${found.route.cache}`;
  const headers = { "cache-control": cache, ...limitHeaders };
  let answer: RouteAnswer;
  try {
    answer = found.route.handler(checks, indexer);
    if (checks.errors.length > 0) answer = { status: 400, body: { errors: checks.errors } };
  } catch {
    answer = internalError;
  }
  if ("json" in answer) sendJsonText(res, answer.status, answer.json, headers);
  else sendJson(res, answer.status, answer.body, headers);
}

/** Compiles route paths into segments. */
export function compileRoutes(routes: readonly Route[]): Compiled[] {
  return routes.map((route) => ({ route, segments: route.path.split("/").filter((s) => s !== "") }));
}

/**
 * Starts the indexer's REST server.
 *
 * @example
 * ```ts
 * const rest = await startIndexerRestServer({ indexer: new Indexer(), host: "127.0.0.1", port: 0 });
 * const answer = await fetch(`${rest.url}/v4/height`);
 * answer.status; // 404: no block indexed yet
 * await rest.close();
 * ```
 */
export async function startIndexerRestServer(options: IndexerRestServerOptions): Promise<IndexerRestServer> {
  const routes = compileRoutes([
    ...marketRoutes,
    ...accountRoutes,
    ...transferRoutes,
    ...fundingRoutes,
    ...pnlRoutes,
    ...programRoutes,
    ...tradeHistoryRoutes,
    ...affiliateRoutes,
    ...traderRoutes,
    ...utilityRoutes,
    ...(options.routes ?? []),
  ]);
  const limiter = new RestRateLimiter();
  const server = createHttpServer(options.timeouts, (req, res) =>
    handleIndexerRequest(options.indexer, routes, limiter, req, res),
  );
  const port = await listen(server, options.port, options.host);
  return {
    url: urlOf("http", options.host, port),
    port,
    close: () => closeServer(server),
  };
}
