/**
 * The order book model: levels from the order stream (absolute totals, immediate-or-cancel orders
 * never resting, fill updates and removals), and the reference's uncross rule in snapshots.
 */
import { create } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { OrderBookModel } from "./orderbook.js";

function order(
  clientId: number,
  side: "buy" | "sell",
  subticks: bigint,
  quantums: bigint,
  tif = clob.Order_TimeInForce.UNSPECIFIED,
) {
  return create(clob.OrderSchema, {
    orderId: { subaccountId: { owner: "perpx1a", number: 0 }, clientId, orderFlags: 0, clobPairId: 0 },
    side: side === "buy" ? clob.Order_Side.BUY : clob.Order_Side.SELL,
    subticks,
    quantums,
    timeInForce: tif,
  });
}

describe("order book model", () => {
  it("keeps absolute level totals through places, fills and removals", () => {
    const book = new OrderBookModel();
    expect(book.apply({ kind: "place", order: order(1, "sell", 100n, 5n) })).toEqual([
      { clobPairId: 0, side: "asks", subticks: 100n, quantums: 5n, previous: 0n },
    ]);
    book.apply({ kind: "place", order: order(2, "sell", 100n, 3n) });
    const id = order(1, "sell", 100n, 5n).orderId as clob.OrderId;
    expect(book.apply({ kind: "update", orderId: id, totalFilled: 2n })).toEqual([
      { clobPairId: 0, side: "asks", subticks: 100n, quantums: 6n, previous: 8n },
    ]);
    expect(book.apply({ kind: "remove", orderId: id, reason: "user_canceled" })).toEqual([
      { clobPairId: 0, side: "asks", subticks: 100n, quantums: 3n, previous: 6n },
    ]);
    expect(
      book.apply({ kind: "place", order: order(3, "buy", 100n, 9n, clob.Order_TimeInForce.IOC) }),
    ).toEqual([]);
    expect(book.levels(0, "asks").map((l) => [l.subticks, l.quantums])).toEqual([[100n, 3n]]);
  });

  it("uncrosses a snapshot: the older level goes, then the smaller, and the bid on a tie", () => {
    const book = new OrderBookModel();
    book.apply({ kind: "place", order: order(1, "buy", 105n, 4n) });
    book.apply({ kind: "place", order: order(2, "sell", 100n, 7n) });
    book.apply({ kind: "place", order: order(3, "sell", 110n, 1n) });
    // The ask at 100 changed last: the crossing bid at 105 is dropped.
    expect(book.snapshot(0)).toMatchObject({ bids: [], asks: [{ subticks: 100n }, { subticks: 110n }] });
    book.apply({ kind: "place", order: order(4, "buy", 101n, 2n) });
    // Now the bid at 101 is newer than the ask at 100; the bid at 105 is older than that ask.
    expect(book.snapshot(0).bids.map((l) => l.subticks)).toEqual([101n]);
    expect(book.snapshot(0).asks.map((l) => l.subticks)).toEqual([110n]);
  });
});
