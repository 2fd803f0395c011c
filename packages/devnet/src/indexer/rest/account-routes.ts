/**
 * The account routes (`spec/indexer-api.md` 1.1-1.5 and historical funding): subaccounts and
 * parent subaccounts, positions, orders, fills, transfers, with the reference's validation,
 * ordering, pagination and not-found bodies.
 */
import { CHILD_SUBACCOUNT_STRIDE } from "@perpx/address";
import {
  FILL_TYPES,
  INDEXER_ROUTES,
  ORDER_STATUSES,
  ORDER_TYPES,
  PERPETUAL_POSITION_STATUSES,
} from "@perpx/core/indexer";
import { parentBody } from "../account-feed.js";
import {
  assetPositionBodies,
  fillBody,
  orderBody,
  orderUuid,
  positionBody,
  subaccountBody,
  transferBody,
} from "../account-views.js";
import { iso, scaled } from "../format.js";
import type { Indexer } from "../indexer.js";
import { subaccountKey } from "../models/accounts.js";
import { priceOf } from "../models/markets.js";
import type { OrderRecord } from "../models/orders.js";
import { arrayParam, childrenOf, createdFilter, parentParams, subaccountParams } from "./account-params.js";
import { notFound, ok, paginate, type Route } from "./routes.js";
import { isValidAddress } from "./utility-routes.js";
import { isBooleanText, type RequestChecks } from "./validation.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function positionsOf(indexer: Indexer, checks: RequestChecks, address: string, numbers: number[]) {
  const statuses = arrayParam(
    checks,
    "status",
    PERPETUAL_POSITION_STATUSES,
    "status must be a valid Position Status (OPEN, etc)",
  );
  const limit = checks.limit();
  const keep = createdFilter(checks.createdBeforeOrAt());
  const models = indexer.accountModels();
  const all = numbers.flatMap((n) =>
    indexer.accounts
      .positions(address, n)
      .map((p) => ({ n, p, record: indexer.accounts.subaccount(address, n) })),
  );
  return all
    .filter(
      ({ p }) =>
        (statuses === undefined || statuses.includes(p.status)) && keep(p.createdAtHeight, p.createdAt),
    )
    .sort((a, b) => b.p.openSeq - a.p.openSeq)
    .slice(0, limit)
    .flatMap(({ n, p, record }) => {
      const body = positionBody(models, record, n, p);
      return body === undefined ? [] : [body];
    });
}

function goodTilSortKey(o: OrderRecord): [number, number] {
  const gt = o.order.goodTilOneof;
  return gt.case === "goodTilBlock" ? [0, gt.value] : [1, gt.value ?? 0];
}

function ordersOf(indexer: Indexer, checks: RequestChecks, address: string, numbers: number[]) {
  const limit = checks.limit();
  const ticker = checks.oneOf(
    "ticker",
    (t) => indexer.markets.market(t) !== undefined,
    "ticker must be a valid ticker (BTC-USD, etc)",
    "query",
    true,
  );
  const side = checks.oneOf(
    "side",
    (s) => s === "BUY" || s === "SELL",
    "side must be one of BUY,SELL",
    "query",
    true,
  );
  const type = checks.oneOf(
    "type",
    (t) => (ORDER_TYPES as readonly string[]).includes(t),
    `type must be one of ${ORDER_TYPES}`,
    "query",
    true,
  );
  const statuses = arrayParam(checks, "status", ORDER_STATUSES, `status must be one of ${ORDER_STATUSES}`);
  const gtbBefore = checks.optionalInt("goodTilBlockBeforeOrAt", "Invalid value", 0);
  const gtbAfter = checks.optionalInt("goodTilBlockAfter", "Invalid value", 0);
  const gtbtBefore = checks.optionalIso("goodTilBlockTimeBeforeOrAt");
  const gtbtAfter = checks.optionalIso("goodTilBlockTimeAfter");
  checks.oneOf("returnLatestOrders", isBooleanText, "Invalid value", "query", true);
  const includeTypes = arrayParam(
    checks,
    "includeTypes",
    ORDER_TYPES,
    `includeTypes must be one of ${ORDER_TYPES}`,
  );
  const excludeTypes = arrayParam(
    checks,
    "excludeTypes",
    ORDER_TYPES,
    `excludeTypes must be one of ${ORDER_TYPES}`,
  );
  // The reference's rule names `goodTilBlock` and `goodTilBlockTime` (not the bounds it reads).
  const goodTilBlock = checks.rawPresent("goodTilBlock");
  if (
    checks.rawPresent("goodTilBlockTime") !== undefined &&
    goodTilBlock !== undefined &&
    goodTilBlock !== ""
  ) {
    checks.fail(
      "goodTilBlock",
      "Cannot provide both goodTilBlock and goodTilBlockTime",
      goodTilBlock,
      "query",
    );
  }
  const ascending = checks.raw("returnLatestOrders") !== undefined;
  const market = ticker === undefined ? undefined : indexer.markets.market(ticker);
  const rows = numbers
    .flatMap((n) => indexer.orders.ofSubaccount(subaccountKey(address, n)))
    .flatMap((o) => {
      const m = indexer.markets.marketOfPair(o.order.orderId?.clobPairId ?? 0);
      return m === undefined ? [] : [{ o, body: orderBody(m, o) }];
    })
    .filter(({ o, body }) => {
      const gt = o.order.goodTilOneof;
      if (market !== undefined && body.ticker !== market.ticker) return false;
      if (side !== undefined && body.side !== side) return false;
      if (type !== undefined && body.type !== type) return false;
      if (includeTypes !== undefined && !includeTypes.includes(body.type as string)) return false;
      if (excludeTypes?.includes(body.type as string)) return false;
      if (statuses !== undefined && !statuses.includes(o.status)) return false;
      if (gtbBefore !== undefined && !(gt.case === "goodTilBlock" && gt.value <= gtbBefore)) return false;
      if (gtbAfter !== undefined && !(gt.case === "goodTilBlock" && gt.value > gtbAfter)) return false;
      if (
        gtbtBefore !== undefined &&
        !(gt.case === "goodTilBlockTime" && gt.value * 1000 <= gtbtBefore.getTime())
      )
        return false;
      if (
        gtbtAfter !== undefined &&
        !(gt.case === "goodTilBlockTime" && gt.value * 1000 > gtbtAfter.getTime())
      )
        return false;
      return true;
    });
  rows.sort((a, b) => {
    const [ka, va] = goodTilSortKey(a.o);
    const [kb, vb] = goodTilSortKey(b.o);
    const order = ka - kb || va - vb;
    return ascending ? order : -order;
  });
  return ok(rows.slice(0, limit).map((r) => r.body));
}

function fillsOf(
  indexer: Indexer,
  checks: RequestChecks,
  address: string,
  numbers: number[],
  withMarket: boolean,
) {
  const limit = checks.limit();
  const before = checks.createdBeforeOrAt();
  const page = checks.page();
  const marketParam = checks.raw("market");
  const marketTypeParam = checks.raw("marketType");
  if (checks.rawPresent("marketType") !== undefined && marketParam === undefined)
    checks.fail(
      "market",
      "market must be provided if marketType is provided",
      checks.rawPresent("market"),
      "query",
    );
  if (checks.rawPresent("market") !== undefined && marketTypeParam === undefined)
    checks.fail(
      "marketType",
      "marketType must be provided if market is provided",
      checks.rawPresent("marketType"),
      "query",
    );
  const marketType = checks.oneOf(
    "marketType",
    (t) => t === "PERPETUAL" || t === "SPOT",
    "marketType must be a valid market type (PERPETUAL/SPOT)",
    "query",
    true,
  );
  const includeTypes = arrayParam(
    checks,
    "includeTypes",
    FILL_TYPES,
    `includeTypes must be one of ${FILL_TYPES}`,
  );
  const excludeTypes = arrayParam(
    checks,
    "excludeTypes",
    FILL_TYPES,
    `excludeTypes must be one of ${FILL_TYPES}`,
  );
  if (checks.errors.length > 0) return ok({});
  // The parent route validates the market and the time bound but reads neither.
  const wanted = withMarket ? marketParam : undefined;
  const market = wanted === undefined ? undefined : indexer.markets.market(wanted);
  if (wanted !== undefined && (market === undefined || marketType === "SPOT")) {
    return notFound(`${wanted} not found in markets of type ${marketType}`);
  }
  const keep = createdFilter(withMarket ? before : {});
  const rows = numbers
    .flatMap((n) => indexer.history.fillsOf(address, n))
    .filter(
      (f) =>
        (market === undefined || f.clobPairId === market.clobPairId) && keep(f.createdAtHeight, f.createdAt),
    )
    .sort((a, b) =>
      a.eventId < b.eventId ? 1 : a.eventId > b.eventId ? -1 : a.liquidity === "TAKER" ? -1 : 1,
    );
  const bodies = rows.flatMap((f) => {
    const m = indexer.markets.marketOfPair(f.clobPairId);
    if (m === undefined) return [];
    const body = fillBody(m, f, (key) => indexer.orders.byKey(key) !== undefined);
    const type = String(body.type);
    if (includeTypes !== undefined && !includeTypes.includes(type)) return [];
    return excludeTypes?.includes(type) ? [] : [body];
  });
  const { items, paging } = paginate(bodies, limit, page);
  return ok({ fills: items, ...paging });
}

function transfersOf(indexer: Indexer, checks: RequestChecks, address: string, n: number, parent: boolean) {
  const limit = checks.limit();
  const before = checks.createdBeforeOrAt();
  const page = checks.page();
  const numbers = parent ? childrenOf(indexer, address, n) : [n];
  if (numbers.every((c) => indexer.accounts.subaccount(address, c) === undefined)) {
    return notFound(
      `No subaccount found with address ${address} and ${parent ? "parentSubaccountNumber" : "subaccountNumber"} ${n}`,
    );
  }
  const keep = createdFilter(before);
  const seen = new Set<string>();
  const rows = numbers
    .flatMap((c) => indexer.history.transfersOf(address, c))
    .filter((t) => {
      if (seen.has(t.eventId) || !keep(t.createdAtHeight, t.createdAt)) return false;
      seen.add(t.eventId);
      if (!parent) return true;
      // Between two children of the parent: not a transfer at parent level.
      const s = t.sender;
      const r = t.recipient;
      return !(
        s.address === r.address &&
        s.address === address &&
        s.subaccountNumber !== undefined &&
        r.subaccountNumber !== undefined &&
        s.subaccountNumber % CHILD_SUBACCOUNT_STRIDE === n &&
        r.subaccountNumber % CHILD_SUBACCOUNT_STRIDE === n
      );
    })
    .sort((a, b) => (a.eventId < b.eventId ? 1 : -1))
    .map((t) => transferBody(t, address, n, parent));
  const { items, paging } = paginate(rows, limit, page);
  return ok({ transfers: items, ...paging });
}

/** The account routes. */
export const accountRoutes: readonly Route[] = [
  {
    path: INDEXER_ROUTES.getAddress.path,
    cache: 1,
    handler: (checks, indexer) => {
      const address =
        checks.oneOf("address", isValidAddress, "address must be a valid address", "params") ?? "";
      const models = indexer.accountModels();
      const subaccounts = indexer.accounts.numbersOf(address).flatMap((n) => {
        const record = indexer.accounts.subaccount(address, n);
        return record === undefined ? [] : [subaccountBody(models, record)];
      });
      if (subaccounts.length === 0) return notFound(`No subaccounts found for address ${address}`);
      return ok({ subaccounts, totalTradingRewards: indexer.rewards.totalOf(address) });
    },
  },
  {
    path: INDEXER_ROUTES.getSubaccount.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = subaccountParams(checks);
      const record = indexer.accounts.subaccount(address, n);
      if (record === undefined)
        return notFound(`No subaccount found with address ${address} and subaccountNumber ${n}`);
      return ok({ subaccount: subaccountBody(indexer.accountModels(), record) });
    },
  },
  {
    path: INDEXER_ROUTES.getParentSubaccount.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = parentParams(checks);
      const body = parentBody(indexer.accountModels(), address, n);
      if (body === undefined)
        return notFound(`No subaccount found with address ${address} and parentSubaccountNumber ${n}`);
      return ok({ subaccount: body });
    },
  },
  {
    path: INDEXER_ROUTES.getPerpetualPositions.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = subaccountParams(checks);
      return ok({ positions: positionsOf(indexer, checks, address, [n]) });
    },
  },
  {
    path: INDEXER_ROUTES.getParentPerpetualPositions.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = parentParams(checks);
      return ok({ positions: positionsOf(indexer, checks, address, childrenOf(indexer, address, n)) });
    },
  },
  {
    path: INDEXER_ROUTES.getAssetPositions.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = subaccountParams(checks);
      const record = indexer.accounts.subaccount(address, n);
      if (record === undefined)
        return notFound(`No subaccount found with address ${address} and subaccountNumber ${n}`);
      return ok({ positions: assetPositionBodies(indexer.accountModels(), record) });
    },
  },
  {
    path: INDEXER_ROUTES.getParentAssetPositions.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = parentParams(checks);
      const models = indexer.accountModels();
      const positions = childrenOf(indexer, address, n).flatMap((c) => {
        const record = indexer.accounts.subaccount(address, c);
        return record === undefined ? [] : assetPositionBodies(models, record);
      });
      return ok({ positions });
    },
  },
  {
    path: INDEXER_ROUTES.getOrders.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = subaccountParams(checks);
      return ordersOf(indexer, checks, address, [n]);
    },
  },
  {
    path: INDEXER_ROUTES.getParentOrders.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = parentParams(checks);
      return ordersOf(indexer, checks, address, childrenOf(indexer, address, n));
    },
  },
  {
    path: INDEXER_ROUTES.getOrder.path,
    cache: 1,
    handler: (checks, indexer) => {
      const id = checks.oneOf("orderId", (v) => UUID.test(v), "Invalid value", "params");
      if (id === undefined) return ok({});
      for (const record of indexer.orders.all()) {
        if (orderUuid(record.key) !== id.toLowerCase()) continue;
        const market = indexer.markets.marketOfPair(record.order.orderId?.clobPairId ?? 0);
        if (market !== undefined) return ok(orderBody(market, record));
      }
      return notFound(`Unable to find order id ${id}`);
    },
  },
  {
    path: INDEXER_ROUTES.getFills.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = subaccountParams(checks);
      return fillsOf(indexer, checks, address, [n], true);
    },
  },
  {
    path: INDEXER_ROUTES.getParentFills.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = parentParams(checks);
      return fillsOf(indexer, checks, address, childrenOf(indexer, address, n), false);
    },
  },
  {
    path: INDEXER_ROUTES.getTransfers.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = subaccountParams(checks);
      return transfersOf(indexer, checks, address, n, false);
    },
  },
  {
    path: INDEXER_ROUTES.getParentTransfers.path,
    cache: 1,
    handler: (checks, indexer) => {
      const { address, n } = parentParams(checks);
      return transfersOf(indexer, checks, address, n, true);
    },
  },
  {
    path: INDEXER_ROUTES.getHistoricalFunding.path,
    cache: 10,
    handler: (checks, indexer) => {
      const limit = checks.limit();
      const height = checks.optionalInt(
        "effectiveBeforeOrAtHeight",
        "effectiveBeforeOrAtHeight must be a non-negative integer",
        -1,
      );
      const time = checks.optionalIso("effectiveBeforeOrAt");
      const ticker = checks.oneOf(
        "ticker",
        (t) => indexer.markets.market(t) !== undefined,
        "ticker must be a valid ticker (BTC-USD, etc)",
        "params",
      );
      const market = ticker === undefined ? undefined : indexer.markets.market(ticker);
      if (market === undefined) return ok({ historicalFunding: [] });
      const rows = [...indexer.history.fundingOf(market.perpetualId)]
        .reverse()
        .filter(
          (f) =>
            (height === undefined || height === 0 || f.effectiveAtHeight <= BigInt(height)) &&
            (time === undefined || f.effectiveAt <= time),
        )
        .slice(0, limit)
        .map((f) => ({
          ticker: market.ticker,
          rate: scaled((f.ratePpm * 1000n) / 8n, -9),
          price: priceOf(market, f.oracleSubticks),
          effectiveAt: iso(f.effectiveAt),
          effectiveAtHeight: f.effectiveAtHeight.toString(),
        }));
      return ok({ historicalFunding: rows });
    },
  },
];
