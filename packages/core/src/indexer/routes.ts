/**
 * The indexer's REST routes as one table: for every route the client calls, its method, path
 * template, parameters (path and query, in the order the client sends them) with their kinds,
 * where a subaccount's `{ owner, number }` goes, how it pages and what it answers. The indexer
 * client derives its calls from it and the devnet's indexer serves the same rows.
 */
import {
  CANDLE_RESOLUTIONS,
  FILL_TYPES,
  MARKET_TYPES,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
  PERPETUAL_POSITION_STATUSES,
  PNL_TICK_INTERVALS,
  SPARKLINE_TIME_PERIODS,
  TRADING_REWARD_AGGREGATION_PERIODS,
} from "./enums.js";
import type { RouteParam, RouteParamKind } from "./route-params.js";

/**
 * One REST route of the indexer. `subaccounts` maps a params group (`""` for the top level) to
 * the address and number parameters its `{ owner, number }` fills; `paging` is `"page"` for
 * `page`-based lists and `"height"` for lists that walk back by `createdBeforeOrAtHeight`.
 *
 * @example
 * ```ts
 * const route: IndexerRoute = INDEXER_ROUTES.getFills;
 * route.path; // "/v4/fills"
 * ```
 */
export interface IndexerRoute {
  readonly method: "GET";
  readonly path: string;
  readonly params: Readonly<Record<string, RouteParam>>;
  readonly subaccounts: Readonly<Record<string, readonly [address: string, number: string]>>;
  readonly paging: readonly ("page" | "height")[];
  readonly answer: "object" | "array";
}

function p<const K extends RouteParamKind, const M extends Omit<RouteParam, "kind"> = Record<never, never>>(
  kind: K,
  more?: M,
): { readonly kind: K } & M {
  return { kind, ...more } as { readonly kind: K } & M;
}
const req = <const K extends RouteParamKind, const V extends readonly string[] = never>(
  kind: K,
  values?: V,
) =>
  p(kind, { required: true, ...(values === undefined ? {} : { values }) } as { readonly required: true } & ([
    V,
  ] extends [never]
    ? unknown
    : { readonly values: V }));
const CHILD = { address: req("address"), subaccountNumber: req("subaccountNumber") };
const PARENT = { address: req("address"), parentSubaccountNumber: req("parentSubaccountNumber") };
const ONE = { "": ["address", "subaccountNumber"] } as const;
const ONE_PARENT = { "": ["address", "parentSubaccountNumber"] } as const;
const LIMIT = { limit: p("limit") };
const LIST = { limit: p("limit"), page: p("page") };
const BEFORE = { createdBeforeOrAtHeight: p("height"), createdBeforeOrAt: p("time") };
const AFTER = { createdOnOrAfterHeight: p("height"), createdOnOrAfter: p("time") };
const MARKET = {
  market: p("ticker"),
  marketType: p("enum", { values: MARKET_TYPES, needs: "market", fallback: "PERPETUAL" }),
};
const FILL_FILTER = {
  includeTypes: p("enums", { values: FILL_TYPES }),
  excludeTypes: p("enums", { values: FILL_TYPES }),
};
const POSITIONS = {
  status: p("enums", { values: PERPETUAL_POSITION_STATUSES }),
  limit: p("limit"),
  ...BEFORE,
};
const ORDERS = {
  limit: p("limit"),
  ticker: p("ticker"),
  side: p("enum", { values: ORDER_SIDES }),
  type: p("enum", { values: ORDER_TYPES }),
  includeTypes: p("enums", { values: ORDER_TYPES }),
  excludeTypes: p("enums", { values: ORDER_TYPES }),
  status: p("enums", { values: ORDER_STATUSES }),
  goodTilBlockBeforeOrAt: p("positive"),
  goodTilBlockAfter: p("positive"),
  goodTilBlockTimeBeforeOrAt: p("time"),
  goodTilBlockTimeAfter: p("time"),
  returnLatestOrders: p("flag"),
};
const PNL = { ...LIST, ...BEFORE, ...AFTER };
const REWARDS = { limit: p("limit"), startingBeforeOrAt: p("time"), startingBeforeOrAtHeight: p("height") };
const FUNDING = {
  ...LIST,
  ticker: p("ticker"),
  createdOnOrAfter: p("time"),
  showZeroPayments: p("flag"),
};
const VAULT = { resolution: p("enum", { values: PNL_TICK_INTERVALS }) };

type RouteShape = Pick<IndexerRoute, "subaccounts" | "paging" | "answer">;
interface Defaults {
  readonly subaccounts: Record<never, never>;
  readonly paging: readonly [];
  readonly answer: "object";
}

function get<
  const P extends Record<string, RouteParam>,
  const M extends Partial<RouteShape> = Record<never, never>,
>(
  path: string,
  params: P,
  more?: M,
): { readonly method: "GET"; readonly path: string; readonly params: P } & Omit<Defaults, keyof M> & M {
  return { method: "GET", path, params, subaccounts: {}, paging: [], answer: "object", ...more } as never;
}

/**
 * Every REST route of the indexer the client calls, by the name of the client's call
 * (`spec/indexer-api.md` section 1).
 *
 * @example
 * ```ts
 * INDEXER_ROUTES.getSubaccount.path; // "/v4/addresses/:address/subaccountNumber/:subaccountNumber"
 * Object.keys(INDEXER_ROUTES.getCandles.params); // ["ticker", "resolution", "limit", "fromISO", "toISO"]
 * ```
 */
export const INDEXER_ROUTES = {
  getAddress: get("/v4/addresses/:address", { address: req("address") }),
  getSubaccount: get("/v4/addresses/:address/subaccountNumber/:subaccountNumber", CHILD, {
    subaccounts: ONE,
  }),
  getParentSubaccount: get("/v4/addresses/:address/parentSubaccountNumber/:parentSubaccountNumber", PARENT, {
    subaccounts: ONE_PARENT,
  }),
  getPerpetualPositions: get(
    "/v4/perpetualPositions",
    { ...CHILD, ...POSITIONS },
    { subaccounts: ONE, paging: ["height"] },
  ),
  getParentPerpetualPositions: get(
    "/v4/perpetualPositions/parentSubaccountNumber",
    { ...PARENT, ...POSITIONS },
    { subaccounts: ONE_PARENT },
  ),
  getAssetPositions: get("/v4/assetPositions", CHILD, { subaccounts: ONE }),
  getParentAssetPositions: get("/v4/assetPositions/parentSubaccountNumber", PARENT, {
    subaccounts: ONE_PARENT,
  }),
  getOrders: get("/v4/orders", { ...CHILD, ...ORDERS }, { subaccounts: ONE, answer: "array" }),
  getParentOrders: get(
    "/v4/orders/parentSubaccountNumber",
    { ...PARENT, ...ORDERS },
    { subaccounts: ONE_PARENT, answer: "array" },
  ),
  getOrder: get("/v4/orders/:orderId", { orderId: req("uuid") }),
  getFills: get(
    "/v4/fills",
    { ...CHILD, ...MARKET, ...FILL_FILTER, ...LIST, ...BEFORE },
    { subaccounts: ONE, paging: ["page", "height"] },
  ),
  getParentFills: get(
    "/v4/fills/parentSubaccountNumber",
    { ...PARENT, ...FILL_FILTER, ...LIST },
    { subaccounts: ONE_PARENT, paging: ["page"] },
  ),
  getTransfers: get(
    "/v4/transfers",
    { ...CHILD, ...LIST, ...BEFORE },
    { subaccounts: ONE, paging: ["page", "height"] },
  ),
  getParentTransfers: get(
    "/v4/transfers/parentSubaccountNumber",
    { ...PARENT, ...LIST, ...BEFORE },
    { subaccounts: ONE_PARENT, paging: ["page"] },
  ),
  getTransfersBetween: get(
    "/v4/transfers/between",
    {
      sourceAddress: req("address"),
      sourceSubaccountNumber: req("subaccountNumber"),
      recipientAddress: req("address"),
      recipientSubaccountNumber: req("subaccountNumber"),
      ...BEFORE,
    },
    {
      subaccounts: {
        source: ["sourceAddress", "sourceSubaccountNumber"],
        recipient: ["recipientAddress", "recipientSubaccountNumber"],
      },
    },
  ),
  getHistoricalPnl: get(
    "/v4/historical-pnl",
    { ...CHILD, ...PNL },
    { subaccounts: ONE, paging: ["page", "height"] },
  ),
  getParentHistoricalPnl: get(
    "/v4/historical-pnl/parentSubaccountNumber",
    { ...PARENT, ...LIMIT, ...BEFORE, ...AFTER },
    { subaccounts: ONE_PARENT },
  ),
  getPnl: get("/v4/pnl", { ...CHILD, ...PNL, daily: p("boolean") }, { subaccounts: ONE, paging: ["height"] }),
  getParentPnl: get(
    "/v4/pnl/parentSubaccountNumber",
    { ...PARENT, ...PNL, daily: p("boolean") },
    { subaccounts: ONE_PARENT },
  ),
  getHistoricalTradingRewardAggregations: get("/v4/historicalTradingRewardAggregations/:address", {
    address: req("address"),
    period: req("enum", TRADING_REWARD_AGGREGATION_PERIODS),
    ...REWARDS,
  }),
  getHistoricalBlockTradingRewards: get("/v4/historicalBlockTradingRewards/:address", {
    address: req("address"),
    ...REWARDS,
  }),
  getFundingPayments: get(
    "/v4/fundingPayments",
    { ...CHILD, ...FUNDING },
    { subaccounts: ONE, paging: ["page"] },
  ),
  getParentFundingPayments: get(
    "/v4/fundingPayments/parentSubaccount",
    { ...PARENT, ...FUNDING },
    { subaccounts: ONE_PARENT },
  ),
  getTradeHistory: get(
    "/v4/tradeHistory",
    { ...CHILD, ...MARKET, ...LIST },
    { subaccounts: ONE, paging: ["page"] },
  ),
  getParentTradeHistory: get(
    "/v4/tradeHistory/parentSubaccountNumber",
    { ...PARENT, ...MARKET, ...LIST },
    { subaccounts: ONE_PARENT },
  ),
  getPerpetualMarkets: get("/v4/perpetualMarkets", { ticker: p("ticker"), ...LIMIT }),
  getOrderbook: get("/v4/orderbooks/perpetualMarket/:ticker", { ticker: req("ticker") }),
  getTrades: get(
    "/v4/trades/perpetualMarket/:ticker",
    { ticker: req("ticker"), ...LIST, ...BEFORE },
    { paging: ["page", "height"] },
  ),
  getCandles: get("/v4/candles/perpetualMarkets/:ticker", {
    ticker: req("ticker"),
    resolution: req("enum", CANDLE_RESOLUTIONS),
    ...LIMIT,
    fromISO: p("time"),
    toISO: p("time"),
  }),
  getHistoricalFunding: get("/v4/historicalFunding/:ticker", {
    ticker: req("ticker"),
    ...LIMIT,
    effectiveBeforeOrAtHeight: p("height"),
    effectiveBeforeOrAt: p("time"),
  }),
  getSparklines: get("/v4/sparklines", { timePeriod: req("enum", SPARKLINE_TIME_PERIODS) }),
  getTime: get("/v4/time", {}),
  getHeight: get("/v4/height", {}),
  getHealth: get("/health", {}),
  getScreen: get("/v4/screen", { address: req("address") }),
  getComplianceScreen: get("/v4/compliance/screen/:address", { address: req("address") }),
  getMegavaultHistoricalPnl: get("/v4/vault/v1/megavault/historicalPnl", VAULT),
  getVaultsHistoricalPnl: get("/v4/vault/v1/vaults/historicalPnl", VAULT),
  getMegavaultPositions: get("/v4/vault/v1/megavault/positions", {}),
  getAffiliateMetadata: get("/v4/affiliates/metadata", { address: req("address") }),
  getAffiliateAddress: get("/v4/affiliates/address", { referralCode: req("referralCode") }),
  getAffiliateSnapshot: get("/v4/affiliates/snapshot", {
    addressFilter: p("addresses"),
    offset: p("offset"),
    ...LIMIT,
    sortByAffiliateEarning: p("boolean"),
  }),
  getAffiliateTotalVolume: get("/v4/affiliates/total_volume", { address: req("address") }),
  searchTrader: get("/v4/trader/search", { searchParam: req("text") }),
} as const;

/**
 * The name of a route of {@link INDEXER_ROUTES}.
 *
 * @example
 * ```ts
 * const name: IndexerRouteName = "getFills";
 * ```
 */
export type IndexerRouteName = keyof typeof INDEXER_ROUTES;
