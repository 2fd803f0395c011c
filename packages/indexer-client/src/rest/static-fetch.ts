import { untilAborted } from "./until-aborted.js";

/**
 * A `fetch` that answers from a table instead of the network: for examples, tests and offline
 * development (as connect-es's router transport does for RPC).
 */

/**
 * What a route of {@link createStaticFetch} answers: a JSON body (status 200), or a function of the
 * request URL returning a `Response`.
 *
 * @example
 * ```ts
 * const height: StaticRoute = { height: "42", time: "2026-01-01T00:00:00.000Z" };
 * const down: StaticRoute = () => Response.json({ errors: [{ msg: "Internal Server Error" }] }, { status: 500 });
 * ```
 */
export type StaticRoute = ((url: URL) => Response | Promise<Response>) | object;

/**
 * A `fetch` that answers each request from `routes`, keyed by path (`/v4/height`), ignoring the
 * host and the query. An unknown path gets the indexer's 404 `{"error":"Not Found","errorCode":404}`.
 * The request's `AbortSignal` is honoured.
 *
 * @param routes - the answers by path.
 * @returns a `fetch` to pass as `createIndexerClient({ fetch })`.
 * @example
 * ```ts
 * const client = createIndexerClient({
 *   baseUrl: "http://indexer.test",
 *   fetch: createStaticFetch({ "/v4/height": { height: "42", time: "2026-01-01T00:00:00.000Z" } }),
 * });
 * (await client.getHeight()).height; // "42"
 * ```
 */
export function createStaticFetch(routes: Readonly<Record<string, StaticRoute>>): typeof fetch {
  return async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    const route = routes[url.pathname];
    if (route === undefined) return Response.json({ error: "Not Found", errorCode: 404 }, { status: 404 });
    if (typeof route !== "function") return Response.json(route);
    const answer = Promise.resolve((route as (url: URL) => Response | Promise<Response>)(url));
    if (!signal) return answer;
    // A route that takes its time is abandoned when the request is aborted, as a network fetch is.
    return untilAborted(answer, signal, () => signal.reason);
  };
}
