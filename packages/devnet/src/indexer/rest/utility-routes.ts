/**
 * The utility routes (`spec/indexer-api.md` 0 and 1.9): `/health`, time, height, and the
 * compliance screens (a local network blocks nobody).
 */
import { INDEXER_ROUTES, isValidRouteText } from "@perpx/core/indexer";
import { notFound, ok, type Route } from "./routes.js";

const ADDRESS_MESSAGE = "address must be a valid dydx address";

/**
 * An address as the reference accepts it: alphanumeric, at most 90 characters (the route table's
 * `address` rule; an empty text passes here, as the reference's pattern lets it).
 */
export function isValidAddress(address: string): boolean {
  return address === "" || isValidRouteText({ kind: "address" }, address);
}

/** The utility routes. */
export const utilityRoutes: readonly Route[] = [
  { path: INDEXER_ROUTES.getHealth.path, cache: "no-cache", handler: () => ok({ ok: true }) },
  {
    path: INDEXER_ROUTES.getTime.path,
    cache: "no-cache",
    handler: () => {
      const now = Date.now();
      return ok({ iso: new Date(now).toISOString(), epoch: now / 1000 });
    },
  },
  {
    path: INDEXER_ROUTES.getHeight.path,
    cache: 1,
    handler: (_checks, indexer) => {
      const body = indexer.heightBody();
      return body === undefined ? notFound("No blocks found") : ok(body);
    },
  },
  {
    path: INDEXER_ROUTES.getScreen.path,
    cache: 1,
    handler: (checks) => {
      checks.oneOf("address", isValidAddress, ADDRESS_MESSAGE, "query");
      return ok({ restricted: false });
    },
  },
  {
    path: INDEXER_ROUTES.getComplianceScreen.path,
    cache: 1,
    handler: (checks) => {
      checks.oneOf("address", isValidAddress, "address must be a valid address", "params");
      return ok({ status: "COMPLIANT" });
    },
  },
];
