import type {
  AssetPositionUpdate,
  FillUpdate,
  OrderResponseObject,
  OrderUpdate,
  PerpetualPositionUpdate,
  SubaccountResponseObject,
} from "@perpx/core/indexer";
import { describe, expect, it } from "vitest";
import { SubaccountView } from "./subaccountView.js";

const subaccount = (number: number, usdc: string): SubaccountResponseObject => ({
  address: "perpx1abc",
  subaccountNumber: number,
  equity: "1000",
  freeCollateral: "900",
  openPerpetualPositions: {
    "BTC-USD": {
      market: "BTC-USD",
      status: "OPEN",
      side: "LONG",
      size: "0.1",
      maxSize: "0.1",
      entryPrice: "60000",
      exitPrice: null,
      realizedPnl: "0",
      unrealizedPnl: "0",
      createdAt: "2026-01-01T00:00:00.000Z",
      createdAtHeight: "1",
      closedAt: null,
      sumOpen: "0.1",
      sumClose: "0",
      netFunding: "0",
      subaccountNumber: number,
    },
  },
  assetPositions: {
    USDC: { symbol: "USDC", side: "LONG", size: usdc, assetId: "0", subaccountNumber: number },
  },
  marginEnabled: true,
  updatedAtHeight: "1",
  latestProcessedBlockHeight: "1",
});

const order: OrderResponseObject = {
  id: "o1",
  subaccountId: "s0",
  clientId: "1",
  clobPairId: "0",
  side: "BUY",
  size: "1",
  totalFilled: "0",
  price: "100",
  type: "LIMIT",
  status: "OPEN",
  timeInForce: "GTT",
  postOnly: false,
  reduceOnly: false,
  orderFlags: "64",
  clientMetadata: "0",
  ticker: "BTC-USD",
  subaccountNumber: 0,
};
const orderUpdate = (id: string, fields: Partial<OrderUpdate>): OrderUpdate => ({
  id,
  subaccountId: "s0",
  clientId: "1",
  status: "OPEN",
  orderFlags: "64",
  ...fields,
});
const fill = (id: string, size: string): FillUpdate => ({
  id,
  subaccountId: "s0",
  side: "BUY",
  liquidity: "TAKER",
  type: "LIMIT",
  clobPairId: "0",
  size,
  price: "100",
  quoteAmount: "0",
  eventId: "00",
  transactionHash: "AA",
  createdAt: "2026-01-01T00:00:00.000Z",
  createdAtHeight: "11",
  fee: "0",
  affiliateRevShare: "0",
  ticker: "BTC-USD",
});
const position = (number: number, status: "OPEN" | "CLOSED", size: string): PerpetualPositionUpdate => ({
  address: "perpx1abc",
  subaccountNumber: number,
  positionId: "p",
  market: "BTC-USD",
  side: "LONG",
  status,
  size,
  maxSize: size,
  netFunding: "0",
  entryPrice: "60000",
  sumOpen: size,
  sumClose: "0",
});
const usdc = (size: string): AssetPositionUpdate => ({
  address: "perpx1abc",
  subaccountNumber: 0,
  positionId: "a",
  assetId: "0",
  symbol: "USDC",
  side: "LONG",
  size,
});

describe("SubaccountView", () => {
  it("keeps positions, balances, orders merged by id from partial updates, fills and equity", () => {
    const view = new SubaccountView({ maxFills: 2 });
    view.applySnapshot({ subaccount: subaccount(0, "-5000"), orders: [order], blockHeight: "10" });
    expect(view.equity()).toBe("1000");
    // USDC -5000 + 0.1 * 65000
    expect(view.equity({ "BTC-USD": "65000" })).toBe("1500");
    expect(view.equity({})).toBeUndefined(); // no price for an open market
    view.applyUpdate({
      orders: [orderUpdate("o1", { totalFilled: "0.4" })], // partial
      fills: [fill("f1", "0.4")],
      blockHeight: "11",
    });
    expect(view.order("o1")).toMatchObject({ side: "BUY", size: "1", price: "100", totalFilled: "0.4" });
    view.applyUpdate({
      orders: [
        orderUpdate("o1", { status: "FILLED", totalFilled: "1" }),
        orderUpdate("o2", { status: "BEST_EFFORT_OPENED", side: "SELL" }),
      ],
      fills: [fill("f1", "0.4"), fill("f2", "0.6"), fill("f3", "1")], // f1 replayed: kept once
      perpetualPositions: [position(0, "CLOSED", "0")],
      assetPositions: [usdc("1200")],
    });
    expect(view.openOrders().map((o) => o.id)).toEqual(["o2"]);
    expect(view.fills().map((f) => f.id)).toEqual(["f2", "f3"]); // capped at 2, oldest dropped
    expect(view.positions()).toEqual([]);
    expect(view.equity({})).toBe("1200");
    expect(view.blockHeight).toBe("11");
  });

  it("keeps a parent's children apart, by the update's child number", () => {
    const view = new SubaccountView();
    view.applySnapshot({
      subaccount: {
        address: "perpx1abc",
        parentSubaccountNumber: 0,
        equity: "2000",
        freeCollateral: "1800",
        childSubaccounts: [subaccount(0, "100"), subaccount(128, "200")],
      },
      orders: [],
      blockHeight: "5",
    });
    expect(view.positions().map((p) => p.subaccountNumber)).toEqual([0, 128]);
    view.applyUpdate({ perpetualPositions: [position(128, "OPEN", "0.3")] }, 128);
    expect(view.positions().map((p) => [p.subaccountNumber, p.size])).toEqual([
      [0, "0.1"],
      [128, "0.3"],
    ]);
  });

  it("starts empty for a subaccount that does not exist yet ({} snapshot)", () => {
    const view = new SubaccountView();
    view.applySnapshot({});
    expect([view.positions(), view.openOrders(), view.equity()]).toEqual([[], [], undefined]);
  });
});
