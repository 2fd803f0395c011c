/**
 * Requests of the route table's rows on the wire: the path a row's values give, and the reading
 * of a request back into its values, refusing each parameter the indexer refuses.
 */
import { isValidRouteText } from "./route-params.js";
import type { IndexerRoute } from "./routes.js";

/**
 * The names of a row's path parameters (the `:name` segments of its template), in order.
 *
 * @param route - the row.
 * @returns the names.
 * @example
 * ```ts
 * routePathParams(INDEXER_ROUTES.getSubaccount); // ["address", "subaccountNumber"]
 * ```
 */
export function routePathParams(route: IndexerRoute): string[] {
  return route.path
    .split("/")
    .filter((segment) => segment.startsWith(":"))
    .map((segment) => segment.slice(1));
}

/**
 * A row's path with its `:name` segments filled in (each percent-encoded).
 *
 * @param route - the row.
 * @param values - the path parameters' wire texts.
 * @returns the path.
 * @example
 * ```ts
 * routePath(INDEXER_ROUTES.getOrderbook, { ticker: "BTC-USD" }); // "/v4/orderbooks/perpetualMarket/BTC-USD"
 * ```
 */
export function routePath(route: IndexerRoute, values: Readonly<Record<string, string>>): string {
  return route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(values[name] ?? ""));
}

/**
 * A request read back by a row: the wire text of every parameter it carried, and the parameters
 * the indexer refuses (missing when required, text off their kind's rule, or set without the
 * parameter they need), in the row's order.
 *
 * @example
 * ```ts
 * const read: RouteRequest = { values: { ticker: "BTC-USD" }, refused: [] };
 * ```
 */
export interface RouteRequest {
  readonly values: Readonly<Record<string, string>>;
  readonly refused: readonly string[];
}

/**
 * Reads a request by a row: path parameters from the decoded path segments, the others from the
 * query (an empty value counts as absent).
 *
 * @param route - the row.
 * @param pathValues - the decoded `:name` segments.
 * @param query - the query string's parameters.
 * @returns the values and the refused parameters.
 * @example
 * ```ts
 * const query = new URLSearchParams("address=perpx1abc&subaccountNumber=128001");
 * readRouteRequest(INDEXER_ROUTES.getAssetPositions, {}, query).refused; // ["subaccountNumber"]
 * ```
 */
export function readRouteRequest(
  route: IndexerRoute,
  pathValues: Readonly<Record<string, string>>,
  query: URLSearchParams,
): RouteRequest {
  const inPath = new Set(routePathParams(route));
  const values: Record<string, string> = {};
  const refused: string[] = [];
  for (const [name, param] of Object.entries(route.params)) {
    const text = inPath.has(name) ? pathValues[name] : (query.get(name) ?? undefined);
    if (text === undefined || text === "") {
      if (param.required === true) refused.push(name);
      continue;
    }
    values[name] = text;
    if (!isValidRouteText(param, text)) refused.push(name);
  }
  for (const [name, param] of Object.entries(route.params)) {
    if (param.needs !== undefined && values[name] !== undefined && values[param.needs] === undefined) {
      if (!refused.includes(name)) refused.push(name);
    }
  }
  return { values, refused };
}
