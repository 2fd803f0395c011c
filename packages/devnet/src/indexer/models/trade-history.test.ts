/**
 * Trade history rows from fills: grouping an order's fills in one block, OPEN, EXTEND with a
 * weighted entry, PARTIAL_CLOSE, a crossing trade's CLOSE and OPEN with the fee split, and a
 * liquidation close; divisions rounded half up to 20 places as Big.js does (expected figures
 * worked by hand with Python's decimal module).
 */
import { describe, expect, it } from "vitest";
import { type TradeFill, tradeHistoryRows } from "./trade-history.js";

const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;

function fill(
  n: number,
  side: "BUY" | "SELL",
  size: string,
  price: string,
  fee: string,
  orderId: string | undefined,
): TradeFill {
  return {
    id: `f${n}`,
    subaccountNumber: 0,
    ticker: "BTC-USD",
    marginMode: "CROSS",
    side,
    price,
    size,
    fee,
    ...(orderId === undefined ? {} : { orderId, orderType: "LIMIT" }),
    createdAt: at(n),
    createdAtHeight: String(n),
  };
}

const common = { subaccountNumber: 0, marketId: "BTC-USD", marginMode: "CROSS" };

describe("tradeHistoryRows", () => {
  it("replays a position's lifecycle from its fills", () => {
    const rows = tradeHistoryRows([
      fill(1, "BUY", "0.01", "100", "0.001", "o1"),
      { ...fill(1, "BUY", "0.02", "101", "0.002", "o1"), id: "f1b" },
      fill(2, "BUY", "0.04", "103", "0.004", "o2"),
      fill(3, "SELL", "0.05", "110", "0.005", "o3"),
      fill(4, "SELL", "0.03", "90", "0.006", "o4"),
      fill(5, "BUY", "0.01", "95", "0.001", undefined),
    ]);
    expect(rows).toEqual([
      {
        ...common,
        id: "f5",
        action: "LIQUIDATION_CLOSE",
        executionPrice: "95",
        entryPrice: "90",
        side: "BUY",
        positionSide: null,
        prevSize: "0.01",
        additionalSize: "0.01",
        value: "0.95",
        orderType: null,
        netFee: "0.003",
        netRealizedPnl: "-0.05",
        netRealizedPnlPercent: "-0.05555555555555555556",
        time: at(5),
        orderId: null,
      },
      {
        ...common,
        id: "o4:4:open",
        action: "OPEN",
        executionPrice: "90",
        entryPrice: "90",
        side: "SELL",
        positionSide: "SHORT",
        prevSize: "0",
        additionalSize: "-0.01",
        value: "0.9",
        orderType: "LIMIT",
        netFee: "0.002",
        netRealizedPnl: "0",
        netRealizedPnlPercent: null,
        time: at(4),
        orderId: "o4",
      },
      {
        ...common,
        id: "o4:4:close",
        action: "CLOSE",
        executionPrice: "90",
        entryPrice: "102",
        side: "SELL",
        positionSide: null,
        prevSize: "0.02",
        additionalSize: "-0.02",
        value: "1.8",
        orderType: "LIMIT",
        netFee: "0.016",
        netRealizedPnl: "0.16",
        netRealizedPnlPercent: "0.02240896358543417367",
        time: at(4),
        orderId: "o4",
      },
      {
        ...common,
        id: "o3:3",
        action: "PARTIAL_CLOSE",
        executionPrice: "110",
        entryPrice: "102",
        side: "SELL",
        positionSide: "LONG",
        prevSize: "0.07",
        additionalSize: "-0.05",
        value: "5.5",
        orderType: "LIMIT",
        netFee: "0.012",
        netRealizedPnl: "0.4",
        netRealizedPnlPercent: "0.07843137254901960784",
        time: at(3),
        orderId: "o3",
      },
      {
        ...common,
        id: "o2:2",
        action: "EXTEND",
        executionPrice: "103",
        entryPrice: "102",
        side: "BUY",
        positionSide: "LONG",
        prevSize: "0.03",
        additionalSize: "0.04",
        value: "4.12",
        orderType: "LIMIT",
        netFee: "0.007",
        netRealizedPnl: "0",
        netRealizedPnlPercent: null,
        time: at(2),
        orderId: "o2",
      },
      {
        ...common,
        id: "o1:1",
        action: "OPEN",
        executionPrice: "100.66666666666666666667",
        entryPrice: "100.66666666666666666667",
        side: "BUY",
        positionSide: "LONG",
        prevSize: "0",
        additionalSize: "0.03",
        value: "3.0200000000000000000001",
        orderType: "LIMIT",
        netFee: "0.003",
        netRealizedPnl: "0",
        netRealizedPnlPercent: null,
        time: at(1),
        orderId: "o1",
      },
    ]);
  });

  it("keeps each subaccount's and market's lifecycle apart, and groups an order only within a block", () => {
    const rows = tradeHistoryRows([
      fill(1, "BUY", "1", "10", "0", "o1"),
      { ...fill(1, "SELL", "1", "10", "0", "o9"), subaccountNumber: 128 },
      { ...fill(2, "BUY", "1", "20", "0", "o1") },
    ]);
    expect(rows.map((r) => [r.id, r.subaccountNumber, r.action, r.entryPrice])).toEqual([
      ["o1:2", 0, "EXTEND", "15"],
      ["o9:1", 128, "OPEN", "10"],
      ["o1:1", 0, "OPEN", "10"],
    ]);
  });
});
