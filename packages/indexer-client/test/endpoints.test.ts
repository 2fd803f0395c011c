/**
 * Every REST action asks the reference's route with the reference's query parameters (names,
 * encodings, comma-joined arrays, nothing sent as `undefined` or `null`), and returns the body.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createIndexerClient, type IndexerClient } from "../src/index.js";
import { indexerActions } from "../src/rest.js";
import { ADDRESS, type FixtureServer, startFixtureServer } from "./support/fixture-server.js";

const ORDER_ID = "0b9f6a64-1d1e-5c3e-9d4a-6f0e4c1b2a33";
const SUB = { owner: ADDRESS, number: 2 };
const PARENT = { owner: ADDRESS, number: 1 };

interface Case {
  name: keyof typeof indexerActions;
  call: (client: IndexerClient) => Promise<unknown>;
  path: string;
  query: Record<string, string>;
  array?: boolean;
}

const cases: Case[] = [
  {
    name: "getAddress",
    call: (c) => c.getAddress({ address: ADDRESS }),
    path: `/v4/addresses/${ADDRESS}`,
    query: {},
  },
  {
    name: "getSubaccount",
    call: (c) => c.getSubaccount(SUB),
    path: `/v4/addresses/${ADDRESS}/subaccountNumber/2`,
    query: {},
  },
  {
    name: "getParentSubaccount",
    call: (c) => c.getParentSubaccount(PARENT),
    path: `/v4/addresses/${ADDRESS}/parentSubaccountNumber/1`,
    query: {},
  },
  {
    name: "getPerpetualPositions",
    call: (c) =>
      c.getPerpetualPositions({ ...SUB, status: ["OPEN", "CLOSED"], limit: 5, createdBeforeOrAtHeight: 9n }),
    path: "/v4/perpetualPositions",
    query: {
      address: ADDRESS,
      subaccountNumber: "2",
      status: "OPEN,CLOSED",
      limit: "5",
      createdBeforeOrAtHeight: "9",
    },
  },
  {
    name: "getParentPerpetualPositions",
    call: (c) =>
      c.getParentPerpetualPositions({ ...PARENT, createdBeforeOrAt: new Date("2026-01-02T00:00:00Z") }),
    path: "/v4/perpetualPositions/parentSubaccountNumber",
    query: { address: ADDRESS, parentSubaccountNumber: "1", createdBeforeOrAt: "2026-01-02T00:00:00.000Z" },
  },
  {
    name: "getAssetPositions",
    call: (c) => c.getAssetPositions(SUB),
    path: "/v4/assetPositions",
    query: { address: ADDRESS, subaccountNumber: "2" },
  },
  {
    name: "getParentAssetPositions",
    call: (c) => c.getParentAssetPositions(PARENT),
    path: "/v4/assetPositions/parentSubaccountNumber",
    query: { address: ADDRESS, parentSubaccountNumber: "1" },
  },
  {
    name: "getOrders",
    call: (c) =>
      c.getOrders({
        ...SUB,
        ticker: "BTC-USD",
        side: "BUY",
        type: "LIMIT",
        includeTypes: ["LIMIT", "STOP_LIMIT"],
        status: ["OPEN", "BEST_EFFORT_OPENED"],
        goodTilBlockBeforeOrAt: 100,
        goodTilBlockAfter: 10,
        returnLatestOrders: true,
        limit: 3,
      }),
    path: "/v4/orders",
    query: {
      address: ADDRESS,
      subaccountNumber: "2",
      limit: "3",
      ticker: "BTC-USD",
      side: "BUY",
      type: "LIMIT",
      includeTypes: "LIMIT,STOP_LIMIT",
      status: "OPEN,BEST_EFFORT_OPENED",
      goodTilBlockBeforeOrAt: "100",
      goodTilBlockAfter: "10",
      returnLatestOrders: "true",
    },
    array: true,
  },
  {
    name: "getParentOrders",
    call: (c) => c.getParentOrders({ ...PARENT, returnLatestOrders: false, excludeTypes: ["MARKET"] }),
    path: "/v4/orders/parentSubaccountNumber",
    query: { address: ADDRESS, parentSubaccountNumber: "1", excludeTypes: "MARKET" },
    array: true,
  },
  {
    name: "getOrder",
    call: (c) => c.getOrder({ orderId: ORDER_ID }),
    path: `/v4/orders/${ORDER_ID}`,
    query: {},
  },
  {
    name: "getFills",
    call: (c) => c.getFills({ ...SUB, market: "ETH-USD", excludeTypes: ["LIQUIDATION"], page: 2, limit: 10 }),
    path: "/v4/fills",
    query: {
      address: ADDRESS,
      subaccountNumber: "2",
      market: "ETH-USD",
      marketType: "PERPETUAL",
      excludeTypes: "LIQUIDATION",
      limit: "10",
      page: "2",
    },
  },
  {
    name: "getParentFills",
    call: (c) => c.getParentFills({ ...PARENT, includeTypes: ["LIMIT"], limit: 1 }),
    path: "/v4/fills/parentSubaccountNumber",
    query: { address: ADDRESS, parentSubaccountNumber: "1", includeTypes: "LIMIT", limit: "1" },
  },
  {
    name: "getTransfers",
    call: (c) => c.getTransfers({ ...SUB, createdBeforeOrAtHeight: "77" }),
    path: "/v4/transfers",
    query: { address: ADDRESS, subaccountNumber: "2", createdBeforeOrAtHeight: "77" },
  },
  {
    name: "getParentTransfers",
    call: (c) => c.getParentTransfers({ ...PARENT, page: 1 }),
    path: "/v4/transfers/parentSubaccountNumber",
    query: { address: ADDRESS, parentSubaccountNumber: "1", page: "1" },
  },
  {
    name: "getTransfersBetween",
    call: (c) =>
      c.getTransfersBetween({
        source: { owner: ADDRESS, number: 0 },
        recipient: { owner: ADDRESS, number: 128 },
      }),
    path: "/v4/transfers/between",
    query: {
      sourceAddress: ADDRESS,
      sourceSubaccountNumber: "0",
      recipientAddress: ADDRESS,
      recipientSubaccountNumber: "128",
    },
  },
  {
    name: "getHistoricalPnl",
    call: (c) =>
      c.getHistoricalPnl({ ...SUB, createdOnOrAfterHeight: 3, createdOnOrAfter: "2026-01-01T00:00:00.000Z" }),
    path: "/v4/historical-pnl",
    query: {
      address: ADDRESS,
      subaccountNumber: "2",
      createdOnOrAfterHeight: "3",
      createdOnOrAfter: "2026-01-01T00:00:00.000Z",
    },
  },
  {
    name: "getParentHistoricalPnl",
    call: (c) => c.getParentHistoricalPnl({ ...PARENT, limit: 7 }),
    path: "/v4/historical-pnl/parentSubaccountNumber",
    query: { address: ADDRESS, parentSubaccountNumber: "1", limit: "7" },
  },
  {
    name: "getPnl",
    call: (c) => c.getPnl({ ...SUB, daily: true }),
    path: "/v4/pnl",
    query: { address: ADDRESS, subaccountNumber: "2", daily: "true" },
  },
  {
    name: "getParentPnl",
    call: (c) => c.getParentPnl({ ...PARENT, daily: false }),
    path: "/v4/pnl/parentSubaccountNumber",
    query: { address: ADDRESS, parentSubaccountNumber: "1", daily: "false" },
  },
  {
    name: "getHistoricalTradingRewardAggregations",
    call: (c) =>
      c.getHistoricalTradingRewardAggregations({
        address: ADDRESS,
        period: "WEEKLY",
        startingBeforeOrAtHeight: 8,
      }),
    path: `/v4/historicalTradingRewardAggregations/${ADDRESS}`,
    query: { period: "WEEKLY", startingBeforeOrAtHeight: "8" },
  },
  {
    name: "getHistoricalBlockTradingRewards",
    call: (c) => c.getHistoricalBlockTradingRewards({ address: ADDRESS, limit: 4 }),
    path: `/v4/historicalBlockTradingRewards/${ADDRESS}`,
    query: { limit: "4" },
  },
  {
    name: "getFundingPayments",
    call: (c) => c.getFundingPayments({ ...SUB, ticker: "BTC-USD", showZeroPayments: true }),
    path: "/v4/fundingPayments",
    query: { address: ADDRESS, subaccountNumber: "2", ticker: "BTC-USD", showZeroPayments: "true" },
  },
  {
    name: "getParentFundingPayments",
    call: (c) => c.getParentFundingPayments(PARENT),
    path: "/v4/fundingPayments/parentSubaccount",
    query: { address: ADDRESS, parentSubaccountNumber: "1" },
  },
  {
    name: "getTradeHistory",
    call: (c) => c.getTradeHistory({ ...SUB, market: "BTC-USD", marketType: "PERPETUAL" }),
    path: "/v4/tradeHistory",
    query: { address: ADDRESS, subaccountNumber: "2", market: "BTC-USD", marketType: "PERPETUAL" },
  },
  {
    name: "getParentTradeHistory",
    call: (c) => c.getParentTradeHistory({ ...PARENT, page: 3 }),
    path: "/v4/tradeHistory/parentSubaccountNumber",
    query: { address: ADDRESS, parentSubaccountNumber: "1", page: "3" },
  },
  {
    name: "getPerpetualMarkets",
    call: (c) => c.getPerpetualMarkets({ ticker: "BTC-USD" }),
    path: "/v4/perpetualMarkets",
    query: { ticker: "BTC-USD" },
  },
  {
    name: "getOrderbook",
    call: (c) => c.getOrderbook({ ticker: "BTC-USD" }),
    path: "/v4/orderbooks/perpetualMarket/BTC-USD",
    query: {},
  },
  {
    name: "getTrades",
    call: (c) => c.getTrades({ ticker: "ETH-USD", limit: 2, createdBeforeOrAtHeight: 50 }),
    path: "/v4/trades/perpetualMarket/ETH-USD",
    query: { limit: "2", createdBeforeOrAtHeight: "50" },
  },
  {
    name: "getCandles",
    call: (c) =>
      c.getCandles({
        ticker: "BTC-USD",
        resolution: "5MINS",
        fromISO: "2026-01-01T00:00:00.000Z",
        toISO: new Date(0),
      }),
    path: "/v4/candles/perpetualMarkets/BTC-USD",
    query: { resolution: "5MINS", fromISO: "2026-01-01T00:00:00.000Z", toISO: "1970-01-01T00:00:00.000Z" },
  },
  {
    name: "getHistoricalFunding",
    call: (c) => c.getHistoricalFunding({ ticker: "BTC-USD", effectiveBeforeOrAtHeight: 10 }),
    path: "/v4/historicalFunding/BTC-USD",
    query: { effectiveBeforeOrAtHeight: "10" },
  },
  {
    name: "getSparklines",
    call: (c) => c.getSparklines({ timePeriod: "SEVEN_DAYS" }),
    path: "/v4/sparklines",
    query: { timePeriod: "SEVEN_DAYS" },
  },
  { name: "getTime", call: (c) => c.getTime(), path: "/v4/time", query: {} },
  { name: "getHeight", call: (c) => c.getHeight(), path: "/v4/height", query: {} },
  { name: "getHealth", call: (c) => c.getHealth(), path: "/health", query: {} },
  {
    name: "getScreen",
    call: (c) => c.getScreen({ address: ADDRESS }),
    path: "/v4/screen",
    query: { address: ADDRESS },
  },
  {
    name: "getComplianceScreen",
    call: (c) => c.getComplianceScreen({ address: ADDRESS }),
    path: `/v4/compliance/screen/${ADDRESS}`,
    query: {},
  },
  {
    name: "getMegavaultHistoricalPnl",
    call: (c) => c.getMegavaultHistoricalPnl({ resolution: "day" }),
    path: "/v4/vault/v1/megavault/historicalPnl",
    query: { resolution: "day" },
  },
  {
    name: "getVaultsHistoricalPnl",
    call: (c) => c.getVaultsHistoricalPnl(),
    path: "/v4/vault/v1/vaults/historicalPnl",
    query: {},
  },
  {
    name: "getMegavaultPositions",
    call: (c) => c.getMegavaultPositions(),
    path: "/v4/vault/v1/megavault/positions",
    query: {},
  },
  {
    name: "getAffiliateMetadata",
    call: (c) => c.getAffiliateMetadata({ address: ADDRESS }),
    path: "/v4/affiliates/metadata",
    query: { address: ADDRESS },
  },
  {
    name: "getAffiliateAddress",
    call: (c) => c.getAffiliateAddress({ referralCode: "alice1" }),
    path: "/v4/affiliates/address",
    query: { referralCode: "alice1" },
  },
  {
    name: "getAffiliateSnapshot",
    call: (c) =>
      c.getAffiliateSnapshot({
        addressFilter: [ADDRESS, ADDRESS],
        offset: 5,
        limit: 10,
        sortByAffiliateEarning: true,
      }),
    path: "/v4/affiliates/snapshot",
    query: {
      addressFilter: `${ADDRESS},${ADDRESS}`,
      offset: "5",
      limit: "10",
      sortByAffiliateEarning: "true",
    },
  },
  {
    name: "getAffiliateTotalVolume",
    call: (c) => c.getAffiliateTotalVolume({ address: ADDRESS }),
    path: "/v4/affiliates/total_volume",
    query: { address: ADDRESS },
  },
  {
    name: "searchTrader",
    call: (c) => c.searchTrader({ searchParam: "alice" }),
    path: "/v4/trader/search",
    query: { searchParam: "alice" },
  },
];

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

describe("every REST action", () => {
  it("has a case here", () => {
    const covered = new Set(cases.map((c) => c.name));
    const actions = Object.keys(indexerActions).filter((name) => !name.startsWith("iterate"));
    expect(actions.filter((name) => !covered.has(name as Case["name"]))).toEqual([]);
  });

  it.each(cases)("$name asks $path", async ({ call, path, query, array }) => {
    const body = array ? [{ marker: path }] : { marker: path };
    server.route(path, { body });
    const client = createIndexerClient({ baseUrl: server.baseUrl, retry: false });
    expect(await call(client)).toEqual(body);
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    expect(request?.path).toBe(path);
    expect(Object.fromEntries(request?.query ?? [])).toEqual(query);
  });
});
