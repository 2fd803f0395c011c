/**
 * Calls as values: an action of the route table's row `name` is `call(name)`, typed by its params
 * and answer.
 */
import type { IndexerRouteName } from "@perpx/core/indexer";
import type { IndexerConnection } from "./connection.js";
import { requestRoute } from "./request.js";
import type { RouteCallParams } from "./route-types.js";

/**
 * An indexer call: `(client, params)` to the typed answer.
 *
 * @example
 * ```ts
 * const fills: RouteAction<GetFillsParams, Awaited<ReturnType<typeof getFills>>> = getFills;
 * ```
 */
export type RouteAction<P, R> = (client: IndexerConnection, params: P) => Promise<R>;

/**
 * An indexer call whose params may be left out.
 *
 * @example
 * ```ts
 * const markets: OptionalRouteAction<GetPerpetualMarketsParams, Awaited<ReturnType<typeof getPerpetualMarkets>>> = getPerpetualMarkets;
 * ```
 */
export type OptionalRouteAction<P, R> = (client: IndexerConnection, params?: P) => Promise<R>;

/**
 * The call of the row `name`.
 *
 * @param name - the row's name in `INDEXER_ROUTES`.
 * @returns `(client, params)` sending the checked request and resolving with the answer.
 * @example
 * ```ts
 * const height = call<"getHeight", { height: string; time: string }>("getHeight");
 * ```
 */
export function call<N extends IndexerRouteName, R>(
  name: N,
): (client: IndexerConnection, params?: RouteCallParams<N>) => Promise<R> {
  return (client, params) => requestRoute(client, name, params ?? ({} as RouteCallParams<N>)) as Promise<R>;
}
