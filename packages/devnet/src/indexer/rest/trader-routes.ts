/**
 * `GET /v4/trader/search` (`spec/indexer-api.md` 1.10), as the reference's social trading
 * controller answers it: `searchParam` is an address when it has the chain's address shape
 * (`perpx` and 39 lowercase letters or digits, the reference's `^dydx[0-9a-z]{39}$` with our
 * prefix), found through its subaccount 0; otherwise a username, matched exactly. The answer is
 * `{ result: { address, subaccountNumber, subaccountId, username } }`; a trader not found answers
 * 404 `Subaccount not found:<searchParam>`, a missing `searchParam` 400 `searchParam is required`.
 * The username is the address's generated one, which is also its referral code.
 */
import { INDEXER_ROUTES } from "@perpx/core/indexer";
import { subaccountUuid } from "../ids.js";
import type { Indexer } from "../indexer.js";
import { internalError, notFound, ok, type Route, type RouteAnswer } from "./routes.js";
import type { RequestChecks } from "./validation.js";

const ADDRESS = /^perpx[0-9a-z]{39}$/;

function search(checks: RequestChecks, indexer: Indexer): RouteAnswer {
  const values = checks.rawAllPresent("searchParam");
  const searchParam = values.length === 1 ? values[0] : undefined;
  if (searchParam === undefined) {
    // express-validator's `isString`: a missing key (no value in the entry) or a repeated one.
    checks.fail("searchParam", "searchParam is required", values.length > 1 ? values : undefined, "query");
    return ok({});
  }
  const missing = notFound(`Subaccount not found:${searchParam}`);
  let address: string | undefined;
  if (ADDRESS.test(searchParam)) {
    if (!indexer.accounts.numbersOf(searchParam).includes(0)) return missing;
    address = searchParam;
  } else {
    address = indexer.affiliates.ownerOf(searchParam);
    if (address === undefined) return missing;
  }
  const username = indexer.affiliates.referralCode(address);
  // The reference reads the username of a subaccount 0 that has none and fails.
  if (username === undefined) return internalError;
  return ok({ result: { address, subaccountNumber: 0, subaccountId: subaccountUuid(address, 0), username } });
}

/** The trader routes. */
export const traderRoutes: readonly Route[] = [
  { path: INDEXER_ROUTES.searchTrader.path, cache: 10, handler: search },
];
