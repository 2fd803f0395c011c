/**
 * `GET /v4/tradeHistory` and `/v4/tradeHistory/parentSubaccountNumber` (`spec/indexer-api.md`
 * 1.10): trade history rows computed from the subaccount's (or the parent's children's) fills, with
 * the reference's validation (the fills routes' `market`/`marketType` pair), its 404 for an unknown
 * market, and its paging, which always carries `pageSize`, `offset` and `totalResults`.
 */
import { INDEXER_ROUTES } from "@perpx/core/indexer";
import { fillBody, orderBody, orderUuid } from "../account-views.js";
import type { Indexer } from "../indexer.js";
import { type TradeFill, tradeHistoryRows } from "../models/trade-history.js";
import { childrenOf, parentParams, subaccountParams } from "./account-params.js";
import { notFound, ok, type Route, type RouteAnswer } from "./routes.js";
import type { RequestChecks } from "./validation.js";

/** The fills routes' market pair, as the trade history routes check it. */
function marketPair(checks: RequestChecks): { market?: string; marketType?: string } {
  const market = checks.raw("market");
  const marketType = checks.raw("marketType");
  if (checks.rawPresent("marketType") !== undefined && market === undefined)
    checks.fail(
      "market",
      "market must be provided if marketType is provided",
      checks.rawPresent("market"),
      "query",
    );
  if (checks.rawPresent("market") !== undefined && marketType === undefined)
    checks.fail(
      "marketType",
      "marketType must be provided if market is provided",
      checks.rawPresent("marketType"),
      "query",
    );
  checks.oneOf(
    "marketType",
    (t) => t === "PERPETUAL" || t === "SPOT",
    "marketType must be a valid market type (PERPETUAL/SPOT)",
    "query",
    true,
  );
  return { ...(market === undefined ? {} : { market }), ...(marketType === undefined ? {} : { marketType }) };
}

function historyOf(
  indexer: Indexer,
  checks: RequestChecks,
  address: string,
  numbers: readonly number[],
): RouteAnswer {
  const limit = checks.limit();
  const page = checks.page();
  const { market, marketType } = marketPair(checks);
  if (checks.errors.length > 0) return ok({});
  let clobPairId: number | undefined;
  if (market !== undefined && marketType !== undefined) {
    const found = marketType === "PERPETUAL" ? indexer.markets.market(market) : undefined;
    if (found === undefined) return notFound(`${market} not found in markets of type ${marketType}`);
    clobPairId = found.clobPairId;
  }
  const fills: TradeFill[] = numbers
    .flatMap((n) => indexer.history.fillsOf(address, n))
    .filter((f) => clobPairId === undefined || f.clobPairId === clobPairId)
    .sort(
      (a, b) =>
        a.createdAt.getTime() - b.createdAt.getTime() ||
        (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0),
    )
    .flatMap((f) => {
      const m = indexer.markets.marketOfPair(f.clobPairId);
      if (m === undefined) return [];
      const order = indexer.orders.byKey(f.orderKey);
      const body = fillBody(m, f, () => true);
      return [
        {
          id: body.id,
          subaccountNumber: f.subaccountNumber,
          ticker: m.ticker,
          marginMode: m.marketType,
          side: f.side,
          price: body.price,
          size: body.size,
          fee: body.fee,
          orderId: orderUuid(f.orderKey),
          ...(order === undefined ? {} : { orderType: String(orderBody(m, order).type) }),
          createdAt: body.createdAt,
          createdAtHeight: body.createdAtHeight,
        },
      ];
    });
  const rows = tradeHistoryRows(fills);
  const offset = page === undefined ? 0 : (page - 1) * limit;
  return ok({
    tradeHistory: rows.slice(offset, offset + limit),
    pageSize: limit,
    totalResults: rows.length,
    offset,
  });
}

/** The trade history routes. */
export const tradeHistoryRoutes: readonly Route[] = [
  {
    path: INDEXER_ROUTES.getTradeHistory.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = subaccountParams(checks);
      return historyOf(indexer, checks, address, [n]);
    },
  },
  {
    path: INDEXER_ROUTES.getParentTradeHistory.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = parentParams(checks);
      return historyOf(indexer, checks, address, childrenOf(indexer, address, n));
    },
  },
];
