import type { FillUpdate, OrderUpdate } from "@perpx/core/indexer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fillTotals, orderOutcome, rejectionOf } from "./orderOutcome.js";

const order = (patch: Partial<OrderUpdate>): OrderUpdate => ({
  id: "o1",
  subaccountId: "s",
  clientId: "7",
  clobPairId: "0",
  status: "OPEN",
  orderFlags: "64",
  ...patch,
});

const fill = (
  size: string,
  price: string,
  fee: string,
  liquidity: "TAKER" | "MAKER" = "TAKER",
): FillUpdate => ({
  id: `${size}/${price}`,
  subaccountId: "s",
  side: "BUY",
  liquidity,
  type: "LIMIT",
  clobPairId: "0",
  orderId: "o1",
  size,
  price,
  quoteAmount: "0",
  eventId: "e",
  transactionHash: "h",
  createdAt: "2026-01-01T00:00:00.000Z",
  createdAtHeight: "10",
  fee,
  affiliateRevShare: "0",
  ticker: "BTC-USD",
});

describe("order outcomes from the indexer's feed", () => {
  it("sums fills: size, size-weighted average price, fees", () => {
    expect(
      fillTotals([
        { size: "0.1", price: "100", fee: "0.01" },
        { size: "0.3", price: "104", fee: "-0.03" },
      ]),
    ).toEqual({ filledSize: "0.4", averagePrice: "103", fees: "-0.02" });
    expect(fillTotals([])).toEqual({ filledSize: "0", averagePrice: undefined, fees: "0" });
  });

  it("the average price lies between the lowest and the highest fill price", () => {
    const arbFill = fc.record({
      size: fc.integer({ min: 1, max: 1_000_000 }).map((n) => (n / 1000).toString()),
      price: fc.integer({ min: 1, max: 10_000_000 }).map((n) => (n / 100).toString()),
      fee: fc.constant("0"),
    });
    fc.assert(
      fc.property(fc.array(arbFill, { minLength: 1, maxLength: 20 }), (fills) => {
        const average = Number(fillTotals(fills).averagePrice);
        const prices = fills.map((f) => Number(f.price));
        return average >= Math.min(...prices) - 1e-9 && average <= Math.max(...prices) + 1e-9;
      }),
    );
  });

  it("maps states and removal reasons", () => {
    const size = "0.002";
    const states = [
      [order({}), [], "RESTING", false, undefined],
      [order({ totalFilled: "0.001" }), [fill("0.001", "100", "0.1")], "PARTIALLY_FILLED", false, undefined],
      [order({ status: "FILLED" }), [fill("0.002", "100", "0.1")], "FILLED", true, undefined],
      // The order's update ran ahead of its fills: not final until they are in.
      [order({ status: "FILLED" }), [fill("0.001", "100", "0.1")], "FILLED", false, undefined],
      [order({ status: "CANCELED", removalReason: "user_canceled" }), [], "CANCELED", true, "user_canceled"],
      [order({ status: "BEST_EFFORT_CANCELED", removalReason: "expired" }), [], "EXPIRED", true, "expired"],
      [
        order({ status: "CANCELED", removalReason: "POST_ONLY_WOULD_CROSS_MAKER_ORDER" }),
        [],
        "REJECTED",
        true,
        "post_only_would_cross",
      ],
      [order({ status: "CANCELED", removalReason: "reduce_only" }), [], "REJECTED", true, "reduce_only"],
      [
        order({ status: "CANCELED", removalReason: "immediate_or_cancel" }),
        [],
        "REJECTED",
        true,
        "ioc_unfilled",
      ],
      [
        order({ status: "CANCELED", removalReason: "immediate_or_cancel" }),
        [fill("0.001", "100", "0.1")],
        "PARTIALLY_FILLED",
        true,
        "ioc_unfilled",
      ],
    ] as const;
    for (const [o, fills, status, final, reason] of states) {
      const result = orderOutcome(o, fills, { size, canceled: false });
      expect([result.status, result.final, result.reason]).toEqual([status, final, reason]);
    }
    expect(rejectionOf("UNDERCOLLATERALIZED")).toBe("undercollateralized");
    expect(rejectionOf("user_canceled")).toBeUndefined();
  });
});
