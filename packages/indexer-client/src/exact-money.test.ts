/**
 * Issue 20, point 5: every amount the client computes keeps every digit. The example,
 * `1234567890123.123456789 + 0.000000001`, has 22 significant digits: decimal.js at its default 20
 * rounded it to `1234567890123.1234568`.
 */
import { describe, expect, it } from "vitest";
import { SubaccountView } from "./account/subaccountView.js";
import { OrderBook } from "./book/orderBook.js";
import { withDecimals } from "./rest/decimals.js";

const BIG = "1234567890123.123456789";
const TINY = "0.000000001";
const SUM = "1234567890123.12345679";

describe("exact money in the indexer client", () => {
  it("sums a book's depth and prices a fill without rounding", () => {
    const book = new OrderBook();
    book.applySnapshot({
      bids: [{ price: "99", size: "1" }],
      asks: [
        { price: "100", size: BIG },
        { price: "100.000000001", size: TINY },
      ],
    });
    expect(book.depth("asks").map((level) => level.total)).toEqual([BIG, SUM]);
    const fill = book.fillPrice("BUY", SUM);
    expect(fill.filled).toBe(SUM);
    expect(fill.complete).toBe(true);
    expect(book.spread()).toBe("1");
    expect(book.mid()).toBe("99.5");
    // a mid of prices with 21 digits is exact: the half of a decimal is a decimal
    book.applySnapshot({
      bids: [{ price: BIG, size: "1" }],
      asks: [{ price: "1234567890123.123456791", size: "1" }],
    });
    expect(book.mid()).toBe("1234567890123.12345679");
    expect(book.spread()).toBe("0.000000002");
  });

  it("computes equity from the balance and positions without rounding", () => {
    const view = new SubaccountView();
    view.applyUpdate({
      assetPositions: [
        {
          address: "perpx1abc",
          subaccountNumber: 0,
          positionId: "a",
          assetId: "0",
          symbol: "USDC",
          side: "LONG",
          size: BIG,
        },
      ],
      perpetualPositions: [
        {
          address: "perpx1abc",
          subaccountNumber: 0,
          positionId: "p",
          market: "BTC-USD",
          side: "LONG",
          status: "OPEN",
          size: TINY,
          maxSize: TINY,
          netFunding: "0",
          entryPrice: "1",
          sumOpen: TINY,
          sumClose: "0",
        },
      ],
    });
    expect(view.equity({ "BTC-USD": "1" })).toBe(SUM);
  });

  it("converts REST amounts to exact decimals", () => {
    const row = withDecimals({ price: BIG, size: TINY }, ["price", "size"]);
    expect(row.price.plus(row.size).toFixed()).toBe(SUM);
  });
});
