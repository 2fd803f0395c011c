/**
 * `GET /v4/fundingPayments` and `/v4/fundingPayments/parentSubaccount` (`spec/indexer-api.md`
 * 1.10): each position's payment per funding tick, newest first, with the reference's validation
 * and its quirks: the bounds `createdBeforeOrAt*` and `createdOnOrAfterHeight` are validated but
 * only `createdOnOrAfter` filters; the parent route validates `ticker` but does not filter by it;
 * zero payments are left out unless `showZeroPayments` is given (any valid boolean: the reference
 * tests the raw text, so `false` shows them too); `subaccountNumber` is a string; an unknown
 * subaccount has no payments (no 404).
 */
import { INDEXER_ROUTES } from "@perpx/core/indexer";
import { iso, scaled } from "../format.js";
import type { Indexer } from "../indexer.js";
import type { FundingPaymentRecord } from "../models/funding-payments.js";
import { priceOf, sizeOf } from "../models/markets.js";
import { childrenOf, createdOnOrAfter, parentParams, subaccountParams } from "./account-params.js";
import { ok, paginate, type Route, type RouteAnswer } from "./routes.js";
import { isBooleanText, type RequestChecks } from "./validation.js";

const TICKER_MESSAGE = "ticker must be a valid ticker (BTC-USD, etc)";

/** A funding payment's REST body, in the reference's key order. */
function fundingPaymentBody(indexer: Indexer, p: FundingPaymentRecord) {
  const market = indexer.markets.marketOfPerpetual(p.perpetualId);
  if (market === undefined) return undefined;
  return {
    subaccountNumber: p.subaccountNumber.toString(),
    createdAt: iso(p.createdAt),
    createdAtHeight: p.createdAtHeight.toString(),
    perpetualId: p.perpetualId.toString(),
    ticker: market.ticker,
    oraclePrice: priceOf(market, p.oracleSubticks),
    size: sizeOf(market, p.quantums),
    side: p.quantums > 0n ? "LONG" : "SHORT",
    rate: scaled(p.ratePpm * 125n, -9),
    payment: scaled(p.paymentPpm, -12),
    fundingIndex: scaled(p.fundingIndex, -12 - market.atomicResolution),
  };
}

function paymentsOf(
  indexer: Indexer,
  checks: RequestChecks,
  address: string,
  numbers: readonly number[],
  filterTicker: boolean,
): RouteAnswer {
  const limit = checks.limit();
  checks.createdBeforeOrAt();
  const after = createdOnOrAfter(checks);
  const page = checks.page();
  const ticker = checks.oneOf(
    "ticker",
    (t) => indexer.markets.market(t) !== undefined,
    TICKER_MESSAGE,
    "query",
    true,
  );
  const showZero = checks.oneOf("showZeroPayments", isBooleanText, "Invalid value", "query", true);
  if (checks.errors.length > 0) return ok({});
  const perpetualId =
    filterTicker && ticker !== undefined ? indexer.markets.market(ticker)?.perpetualId : undefined;
  const rows = numbers
    .flatMap((n) => indexer.fundingPayments.paymentsOf(address, n))
    .filter(
      (p) =>
        (perpetualId === undefined || p.perpetualId === perpetualId) &&
        (showZero !== undefined || p.paymentPpm !== 0n) &&
        (after.time === undefined || p.createdAt.getTime() >= after.time.getTime()),
    )
    .sort(
      (a, b) =>
        Number(b.createdAtHeight - a.createdAtHeight) ||
        a.subaccountNumber - b.subaccountNumber ||
        a.perpetualId - b.perpetualId,
    )
    .flatMap((p) => {
      const body = fundingPaymentBody(indexer, p);
      return body === undefined ? [] : [body];
    });
  const { items, paging } = paginate(rows, limit, page, false);
  return ok({ fundingPayments: items, ...paging });
}

/** The funding payment routes. */
export const fundingRoutes: readonly Route[] = [
  {
    path: INDEXER_ROUTES.getFundingPayments.path,
    cache: 10,
    handler: (checks, indexer) => {
      const { address, n } = subaccountParams(checks);
      return paymentsOf(indexer, checks, address, [n], true);
    },
  },
  {
    path: INDEXER_ROUTES.getParentFundingPayments.path,
    cache: 10,
    handler: (checks, indexer) => {
      const { address, n } = parentParams(checks);
      return paymentsOf(indexer, checks, address, childrenOf(indexer, address, n), false);
    },
  },
];
