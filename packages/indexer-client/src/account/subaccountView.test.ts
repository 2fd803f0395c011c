import { describe, expect, it } from "vitest";
import type { SubaccountContents } from "../ws/channels.js";
import { SubaccountView } from "./subaccountView.js";

const subaccount = (number: number, usdc: string): SubaccountContents => ({
  address: "perpx1abc",
  subaccountNumber: number,
  equity: "1000",
  freeCollateral: "900",
  openPerpetualPositions: {
    "BTC-USD": { market: "BTC-USD", status: "OPEN", side: "LONG", size: "0.1", entryPrice: "60000" },
  },
  assetPositions: { USDC: { symbol: "USDC", side: "LONG", size: usdc } },
});

describe("SubaccountView", () => {
  it("keeps positions, balances, orders merged by id from partial updates, fills and equity", () => {
    const view = new SubaccountView({ maxFills: 2 });
    view.applySnapshot({
      subaccount: subaccount(0, "-5000"),
      orders: [
        { id: "o1", status: "OPEN", clientId: "1", side: "BUY", size: "1", price: "100", totalFilled: "0" },
      ],
      blockHeight: "10",
    });
    expect(view.equity()).toBe("1000");
    // USDC -5000 (LONG side here, as given) + 0.1 * 65000
    expect(view.equity({ "BTC-USD": "65000" })).toBe("1500");
    view.applyUpdate({
      orders: [{ id: "o1", status: "OPEN", clientId: "1", totalFilled: "0.4" }], // partial
      fills: [{ id: "f1", side: "BUY", size: "0.4", price: "100" }],
      blockHeight: "11",
    });
    expect(view.order("o1")).toMatchObject({ side: "BUY", size: "1", price: "100", totalFilled: "0.4" });
    view.applyUpdate({
      orders: [
        { id: "o1", status: "FILLED", clientId: "1", totalFilled: "1" },
        { id: "o2", status: "BEST_EFFORT_OPENED", clientId: "2", side: "SELL" },
      ],
      fills: [
        { id: "f1", side: "BUY", size: "0.4", price: "100" }, // replayed: kept once
        { id: "f2", side: "BUY", size: "0.6", price: "100" },
        { id: "f3", side: "SELL", size: "1", price: "101" },
      ],
      perpetualPositions: [
        { market: "BTC-USD", status: "CLOSED", side: "LONG", size: "0", subaccountNumber: 0 },
      ],
      assetPositions: [{ symbol: "USDC", side: "LONG", size: "1200", subaccountNumber: 0 }],
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
    view.applyUpdate(
      { perpetualPositions: [{ market: "BTC-USD", status: "OPEN", side: "LONG", size: "0.3" }] },
      128,
    );
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
