/**
 * The REST client against the devnet's indexer (`startDevnet({ ports: "free" })`,
 * `endpoints.indexer`): every endpoint the devnet serves, answered in the contract's shapes, with
 * a funded subaccount and the devnet-owned market maker's resting orders as data, and the
 * reference's errors (400 from the server's validators, 404) as typed errors.
 */
import { CANDLE_RESOLUTIONS } from "@perpx/core/indexer";
import { type Devnet, startDevnet } from "@perpx/devnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIndexerClient, type IndexerClient, isIndexerNotFoundError } from "../src/index.js";
import { isIndexerValidationError, PRICE_SIZE_DECIMAL_FIELDS, withDecimals } from "../src/rest.js";
import {
  ASSET_POSITION_KEYS,
  keyDrift,
  MARKET_KEYS,
  ORDER_KEYS,
  SUBACCOUNT_KEYS,
} from "./support/contract-keys.js";

const NO_DRIFT = { extra: [], missing: [] };

let devnet: Devnet;
let client: IndexerClient;
let alice: string;
let maker: string;

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0, liquidity: { levels: 3, refreshBlocks: 1 } });
  alice = devnet.accounts[0]?.address as string;
  maker = devnet.liquidityAddress as string;
  devnet.app.control.fundSubaccount(alice, 0, 5_000_000_000n);
  devnet.app.control.fundSubaccount(alice, 128, 1_000_000n);
  devnet.mine(2);
  client = createIndexerClient({ baseUrl: devnet.endpoints.indexer, timeoutMs: 15_000 });
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error("resolved"),
    (error: unknown) => error,
  );
}

describe("markets", () => {
  it("lists the perpetual markets with numbers where the contract says so", async () => {
    const { markets } = await client.getPerpetualMarkets();
    const btc = markets["BTC-USD"];
    expect(btc?.ticker).toBe("BTC-USD");
    expect(typeof btc?.atomicResolution).toBe("number");
    expect(typeof btc?.oraclePrice).toBe("string");
    expect(typeof btc?.trades24H).toBe("number");
    for (const market of Object.values(markets)) expect(keyDrift(market, MARKET_KEYS)).toEqual(NO_DRIFT);
    const one = await client.getPerpetualMarkets({ ticker: "BTC-USD" });
    expect(Object.keys(one.markets)).toEqual(["BTC-USD"]);
  });

  it("answers an unknown ticker with the server's 400 entries", async () => {
    const error = await rejection(client.getPerpetualMarkets({ ticker: "NOPE-USD" }));
    expect(isIndexerValidationError(error) && error.entries[0]?.param).toBe("ticker");
  });

  it("gives an order book sorted and uncrossed, holding the maker's ladder", async () => {
    const book = await client.getOrderbook({ ticker: "BTC-USD" });
    expect(book.bids.length).toBeGreaterThan(0);
    expect(book.asks.length).toBeGreaterThan(0);
    const bids = book.bids.map((level) => withDecimals(level, PRICE_SIZE_DECIMAL_FIELDS));
    const asks = book.asks.map((level) => withDecimals(level, PRICE_SIZE_DECIMAL_FIELDS));
    for (let i = 1; i < bids.length; i++) expect(bids[i]?.price.lessThan(bids[i - 1]?.price ?? 0)).toBe(true);
    for (let i = 1; i < asks.length; i++)
      expect(asks[i]?.price.greaterThan(asks[i - 1]?.price ?? 0)).toBe(true);
    expect(bids[0]?.price.lessThan(asks[0]?.price ?? 0)).toBe(true);
    expect(isIndexerNotFoundError(await rejection(client.getOrderbook({ ticker: "NOPE-USD" })))).toBe(true);
  });

  it("serves trades, candles at every resolution, funding and sparklines", async () => {
    expect(Array.isArray((await client.getTrades({ ticker: "BTC-USD", limit: 10 })).trades)).toBe(true);
    const trades: unknown[] = [];
    for await (const trade of client.iterateTrades({ ticker: "BTC-USD", limit: 5 })) trades.push(trade);
    expect(trades.length).toBeLessThanOrEqual(1000);
    for (const resolution of CANDLE_RESOLUTIONS) {
      const { candles } = await client.getCandles({ ticker: "BTC-USD", resolution, limit: 5 });
      for (const candle of candles) expect(candle.resolution).toBe(resolution);
    }
    expect(Array.isArray((await client.getHistoricalFunding({ ticker: "BTC-USD" })).historicalFunding)).toBe(
      true,
    );
    const { markets } = await client.getPerpetualMarkets();
    for (const timePeriod of ["ONE_DAY", "SEVEN_DAYS"] as const) {
      const lines = await client.getSparklines({ timePeriod });
      expect(Object.keys(lines).sort()).toEqual(Object.keys(markets).sort());
    }
  });
});

describe("utility", () => {
  it("serves time, height, health and the compliance screens", async () => {
    const time = await client.getTime();
    expect(typeof time.epoch).toBe("number");
    expect(Math.abs(Date.parse(time.iso) - time.epoch * 1000)).toBeLessThan(1000);
    const height = await client.getHeight();
    expect(BigInt(height.height)).toBe(devnet.app.latestBlock().height);
    expect(await client.getHealth()).toEqual({ ok: true });
    expect((await client.getScreen({ address: alice })).restricted).toBe(false);
    expect((await client.getComplianceScreen({ address: alice })).status).toBe("COMPLIANT");
  });
});

describe("accounts", () => {
  it("shows a funded subaccount, its parent and its USDC", async () => {
    const { subaccount } = await client.getSubaccount({ owner: alice, number: 0 });
    expect(subaccount.address).toBe(alice);
    expect(subaccount.subaccountNumber).toBe(0);
    expect(subaccount.equity).toMatch(/^5000(\.0+)?$/);
    expect(subaccount.assetPositions.USDC?.size).toMatch(/^5000(\.0+)?$/);
    expect(keyDrift(subaccount, SUBACCOUNT_KEYS)).toEqual(NO_DRIFT);
    expect(keyDrift(subaccount.assetPositions.USDC ?? {}, ASSET_POSITION_KEYS)).toEqual(NO_DRIFT);
    const address = await client.getAddress({ address: alice });
    expect(address.subaccounts.map((s) => s.subaccountNumber).sort((a, b) => a - b)).toEqual([0, 128]);
    const parent = await client.getParentSubaccount({ owner: alice, number: 0 });
    expect(parent.subaccount.childSubaccounts.map((s) => s.subaccountNumber).sort((a, b) => a - b)).toEqual([
      0, 128,
    ]);
    const assets = await client.getAssetPositions({ owner: alice, number: 0 });
    expect(assets.positions.map((p) => p.symbol)).toEqual(["USDC"]);
    const parentAssets = await client.getParentAssetPositions({ owner: alice, number: 0 });
    expect(parentAssets.positions.map((p) => p.subaccountNumber).sort((a, b) => a - b)).toEqual([0, 128]);
    expect((await client.getPerpetualPositions({ owner: alice, number: 0 })).positions).toEqual([]);
    expect((await client.getParentPerpetualPositions({ owner: alice, number: 0 })).positions).toEqual([]);
  });

  it("answers a missing subaccount with IndexerNotFoundError", async () => {
    const error = await rejection(client.getSubaccount({ owner: alice, number: 7 }));
    expect(isIndexerNotFoundError(error) && error.status).toBe(404);
  });

  it("lists the maker's resting orders and finds each by id", async () => {
    const orders = await client.getOrders({ owner: maker, number: 0, ticker: "BTC-USD" });
    expect(orders.length).toBeGreaterThan(0);
    for (const order of orders) {
      expect(order.ticker).toBe("BTC-USD");
      expect(order.subaccountNumber).toBe(0);
      expect(keyDrift(order, ORDER_KEYS)).toEqual(NO_DRIFT);
    }
    const first = orders[0];
    if (!first) throw new Error("no order");
    expect((await client.getOrder({ orderId: first.id })).id).toBe(first.id);
    const buys = await client.getOrders({
      owner: maker,
      number: 0,
      ticker: "BTC-USD",
      side: "BUY",
    });
    expect(buys.every((order) => order.side === "BUY")).toBe(true);
    const parent = await client.getParentOrders({
      owner: maker,
      number: 0,
      ticker: "BTC-USD",
    });
    expect(parent.map((order) => order.id).sort()).toEqual(orders.map((order) => order.id).sort());
  });

  it("serves fills and transfers, paged and walked", async () => {
    const fills = await client.getFills({ owner: alice, number: 0 });
    expect(Array.isArray(fills.fills)).toBe(true);
    const paged = await client.getFills({ owner: alice, number: 0, page: 1, limit: 10 });
    expect(paged.pageSize).toBe(10);
    expect(paged.offset).toBe(0);
    const walked: string[] = [];
    for await (const fill of client.iterateFills({ owner: alice, number: 0, limit: 2 })) walked.push(fill.id);
    expect(walked).toEqual(fills.fills.map((fill) => fill.id));
    expect(Array.isArray((await client.getParentFills({ owner: alice, number: 0 })).fills)).toBe(true);
    const transfers = await client.getTransfers({ owner: alice, number: 0 });
    const walkedTransfers: string[] = [];
    for await (const transfer of client.iterateTransfers({ owner: alice, number: 0, limit: 1 })) {
      walkedTransfers.push(transfer.id);
    }
    expect(walkedTransfers).toEqual(transfers.transfers.map((transfer) => transfer.id));
    const parentTransfers = await client.getParentTransfers({ owner: alice, number: 0 });
    expect(Array.isArray(parentTransfers.transfers)).toBe(true);
  });
});
