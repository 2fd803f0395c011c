/**
 * The utility routes (`spec/indexer-api.md` 0 and 1.9): `/health`, time, height, and the
 * compliance screens (a local network blocks nobody).
 */
import { notFound, ok, type Route } from "./routes.js";

const ADDRESS_MESSAGE = "address must be a valid dydx address";

/** An address as the reference accepts it: alphanumeric, at most 90 characters. */
export function isValidAddress(address: string): boolean {
  return address.length <= 90 && /^[a-zA-Z0-9]*$/.test(address);
}

/** The utility routes. */
export const utilityRoutes: readonly Route[] = [
  { path: "/health", cache: "no-cache", handler: () => ok({ ok: true }) },
  {
    path: "/v4/time",
    cache: "no-cache",
    handler: () => {
      const now = Date.now();
      return ok({ iso: new Date(now).toISOString(), epoch: now / 1000 });
    },
  },
  {
    path: "/v4/height",
    cache: 1,
    handler: (_checks, indexer) => {
      const body = indexer.heightBody();
      return body === undefined ? notFound("No blocks found") : ok(body);
    },
  },
  {
    path: "/v4/screen",
    cache: 1,
    handler: (checks) => {
      checks.oneOf("address", isValidAddress, ADDRESS_MESSAGE, "query");
      return ok({ restricted: false });
    },
  },
  {
    path: "/v4/compliance/screen/:address",
    cache: 1,
    handler: (checks) => {
      checks.oneOf("address", isValidAddress, "address must be a valid address", "params");
      return ok({ status: "COMPLIANT" });
    },
  },
];
