/**
 * The indexer's REST routes as data: a path pattern (`:name` segments are parameters), the
 * handler that answers it from the indexer, and its caching; plus the answers handlers give.
 */
import type { Indexer } from "../indexer.js";
import type { RequestChecks } from "./validation.js";

/**
 * What a handler answers: a status and a JSON body, or (`json`) a body already serialized, which
 * the server sends as it is (market-wide bodies are serialized once per block).
 */
export type RouteAnswer =
  | { readonly status: number; readonly body: unknown }
  | { readonly status: number; readonly json: Buffer };

/** A handler: reads its parameters through `checks` (which collect validation failures). */
export type RouteHandler = (checks: RequestChecks, indexer: Indexer) => RouteAnswer;

/** One route. `cache` is the `max-age` in seconds, or `"no-cache"`; `method` defaults to GET. */
export interface Route {
  readonly path: string;
  readonly cache: number | "no-cache";
  readonly handler: RouteHandler;
  readonly method?: "GET" | "POST";
}

/** A 200 answer. */
export function ok(body: unknown): RouteAnswer {
  return { status: 200, body };
}

/** A 200 answer whose body is already serialized JSON. */
export function okJson(json: Buffer): RouteAnswer {
  return { status: 200, json };
}

/** The reference's 404 for a missing entity. */
export function notFound(msg: string): RouteAnswer {
  return { status: 404, body: { errors: [{ msg }] } };
}

/** The reference's 400 for a parameter the controller refuses. */
export function invalidParam(msg: string): RouteAnswer {
  return { status: 400, body: { errors: [{ msg }] } };
}

/** The reference's 500, as Express answers an error a controller throws. */
export const internalError: RouteAnswer = {
  status: 500,
  body: { errors: [{ msg: "Internal Server Error" }] },
};

/**
 * Page-based or plain slicing of a newest-first list, as the reference pages: with `page`, the
 * answer carries `pageSize`, `offset` and `totalResults`, and (fills, trades, transfers) the list
 * is taken oldest first.
 */
export function paginate<T>(
  newestFirst: readonly T[],
  limit: number,
  page: number | undefined,
  oldestFirstWhenPaged = true,
): { items: T[]; paging: { pageSize?: number; totalResults?: number; offset?: number } } {
  if (page === undefined) return { items: newestFirst.slice(0, limit), paging: {} };
  const offset = (page - 1) * limit;
  const ordered = oldestFirstWhenPaged ? [...newestFirst].reverse() : newestFirst;
  return {
    items: ordered.slice(offset, offset + limit),
    paging: { pageSize: limit, totalResults: newestFirst.length, offset },
  };
}
