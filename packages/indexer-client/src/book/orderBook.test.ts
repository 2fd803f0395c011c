import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalDecimal, compareDecimals, isZeroDecimal } from "./decimal-text.js";
import { OrderBook } from "./orderBook.js";

const snapshot = {
  bids: [
    { price: "99", size: "1" },
    { price: "98.5", size: "2" },
  ],
  asks: [
    { price: "101", size: "1.5" },
    { price: "102", size: "3" },
  ],
};

describe("OrderBook", () => {
  it("reads best levels, spread, mid and depth from a snapshot and absolute-size updates", () => {
    const book = new OrderBook();
    book.applySnapshot(snapshot);
    expect(book.bestBid()).toEqual({ price: "99", size: "1" });
    expect(book.bestAsk()).toEqual({ price: "101", size: "1.5" });
    expect(book.spread()).toBe("2");
    expect(book.mid()).toBe("100");
    book.applyUpdate({ bids: [["99.50", "4"]] }); // a new best bid, written with a trailing zero
    book.applyUpdate({ asks: [["101", "0"]] }); // level gone
    book.applyUpdate({ bids: [["99", "0.25"]] }); // absolute, not a delta
    expect(book.bestBid()).toEqual({ price: "99.5", size: "4" });
    expect(book.bestAsk()).toEqual({ price: "102", size: "3" });
    expect(book.depth("bids")).toEqual([
      { price: "99.5", size: "4", total: "4" },
      { price: "99", size: "0.25", total: "4.25" },
      { price: "98.5", size: "2", total: "6.25" },
    ]);
    expect(book.depth("bids", { levels: 1 })).toHaveLength(1);
    expect(book.depth("bids", { size: "4.1" }).map((l) => l.price)).toEqual(["99.5", "99"]);
  });

  it("prices a fill by walking the opposite side", () => {
    const book = new OrderBook();
    book.applySnapshot(snapshot);
    expect(book.fillPrice("BUY", "2.5")).toEqual({
      filled: "2.5",
      averagePrice: "101.4", // (1.5*101 + 1*102) / 2.5
      worstPrice: "102",
      complete: true,
    });
    const partial = book.fillPrice("SELL", "10"); // only 3 on the bids: (1*99 + 2*98.5) / 3
    expect(partial).toMatchObject({ filled: "3", worstPrice: "98.5", complete: false });
    expect(partial.averagePrice).toBe("98.666666666666666667"); // rounded to 18 decimals
    expect(new OrderBook().fillPrice("BUY", "1")).toEqual({
      filled: "0",
      averagePrice: undefined,
      worstPrice: undefined,
      complete: false,
    });
    expect(() => book.fillPrice("BUY", "-1")).toThrow(/size/);
  });

  it("reads a crossed book uncrossed: the level updated less recently is hidden, the bid on a tie", () => {
    const book = new OrderBook();
    book.applySnapshot(snapshot);
    book.applyUpdate({ bids: [["101.5", "1"]] }); // crosses asks 101 (older): they are hidden
    expect(book.crossed).toBe(true);
    expect(book.bestBid()).toEqual({ price: "101.5", size: "1" });
    expect(book.bestAsk()).toEqual({ price: "102", size: "3" });
    book.applyUpdate({ asks: [["101", "2"]] }); // the ask at 101 is now newer: the bid hides
    expect(book.bestBid()).toEqual({ price: "99", size: "1" });
    expect(book.bestAsk()).toEqual({ price: "101", size: "2" });
    book.applyUpdate({ bids: [["101.5", "0"]] }); // the hidden bid still updates exactly
    expect(book.crossed).toBe(false);
    const tie = new OrderBook();
    tie.applySnapshot({ bids: [{ price: "100", size: "1" }], asks: [{ price: "100", size: "1" }] });
    expect(tie.bestBid()).toBeUndefined();
    expect(tie.bestAsk()).toEqual({ price: "100", size: "1" });
  });

  it("rejects a price that is not a decimal string", () => {
    const book = new OrderBook();
    expect(() => book.applyUpdate({ bids: [["1e5", "1"]] })).toThrow(/price/);
    expect(() => book.applyUpdate({ asks: [["1", "-2"]] })).toThrow(/size/);
  });

  it("equals a plain map model after any sequence of updates (property)", () => {
    const price = fc.integer({ min: 1, max: 400 }).map((n) => (n / 4).toString());
    const size = fc.oneof(
      fc.constant("0"),
      fc.integer({ min: 1, max: 50 }).map((n) => (n / 10).toString()),
    );
    const op = fc.tuple(fc.boolean(), price, size);
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const book = new OrderBook();
        const model = { bids: new Map<string, string>(), asks: new Map<string, string>() };
        for (const [isBid, p, s] of ops) {
          book.applyUpdate(isBid ? { bids: [[p, s]] } : { asks: [[p, s]] });
          const side = isBid ? model.bids : model.asks;
          if (s === "0") side.delete(p);
          else side.set(p, s);
        }
        // Compare the stored (uncrossed or not) book through a fresh uncrossed snapshot model.
        const stored = (levels: Map<string, string>, descending: boolean) =>
          [...levels.keys()].sort((a, b) => (descending ? Number(b) - Number(a) : Number(a) - Number(b)));
        const bids = stored(model.bids, true);
        const asks = stored(model.asks, false);
        const visible = [...book.depth("bids"), ...book.depth("asks")];
        for (const level of visible) {
          expect(model.bids.get(level.price) ?? model.asks.get(level.price)).toBeDefined();
        }
        if (!book.crossed) {
          expect(book.depth("bids").map((l) => l.price)).toEqual(bids);
          expect(book.depth("asks").map((l) => l.price)).toEqual(asks);
        } else {
          const bestBid = book.bestBid();
          const bestAsk = book.bestAsk();
          if (bestBid && bestAsk) expect(Number(bestBid.price)).toBeLessThan(Number(bestAsk.price));
        }
      }),
    );
  });

  it("keeps levels in exact order when prices differ below a double's resolution (property)", () => {
    // 1e15 + k / 1e20: neighbours a double cannot tell apart, written with and without padding.
    const price = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.boolean()).map(([k, padded]) => {
      const text = `1000000000000000.${k.toString().padStart(20, "0")}`;
      const canonical = canonicalDecimal(text);
      return padded ? `00${canonical}${canonical.includes(".") ? "00" : ""}` : canonical;
    });
    const scaled = (text: string) => {
      const [int, frac = ""] = canonicalDecimal(text).split(".");
      return BigInt(int + frac.padEnd(24, "0"));
    };
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), price, fc.boolean()), { maxLength: 120 }), (ops) => {
        const book = new OrderBook();
        const model = { bids: new Map<string, bigint>(), asks: new Map<string, bigint>() };
        for (const [isBid, p, remove] of ops) {
          book.applyUpdate(
            isBid ? { bids: [[p, remove ? "0" : "1"]] } : { asks: [[p, remove ? "0.00" : "2"]] },
          );
          const side = isBid ? model.bids : model.asks;
          if (remove) side.delete(canonicalDecimal(p));
          else side.set(canonicalDecimal(p), scaled(p));
        }
        const sorted = (levels: Map<string, bigint>, descending: boolean) =>
          [...levels].sort(([, a], [, b]) => (a === b ? 0 : a < b !== descending ? -1 : 1)).map(([p]) => p);
        // Bids all sit at or above asks here, so compare the stored sides without the uncrossed view.
        const stored = book as unknown as { bidSide: { prices: string[] }; askSide: { prices: string[] } };
        expect(stored.bidSide.prices).toEqual(sorted(model.bids, true));
        expect(stored.askSide.prices).toEqual(sorted(model.asks, false));
      }),
    );
  });
});

describe("decimal text", () => {
  it("orders canonical decimals exactly as numbers (property)", () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 20 }))
      .map(([mantissa, scale]) => {
        const digits = mantissa.toString().padStart(scale + 1, "0");
        return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
      });
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const scaled = (text: string) => {
          const [int, frac = ""] = text.split(".");
          return BigInt(int + frac.padEnd(20, "0"));
        };
        const expected = Math.sign(Number(scaled(a) - scaled(b)));
        expect(Math.sign(compareDecimals(canonicalDecimal(a), canonicalDecimal(b)))).toBe(expected);
      }),
    );
    expect(canonicalDecimal("0065000.500")).toBe("65000.5");
  });

  it("says whether a size is zero, and rejects what is not a plain decimal (property)", () => {
    const text = fc.stringMatching(/^[0-9.a-]{0,6}$/);
    fc.assert(
      fc.property(text, (size) => {
        const plain = /^[0-9]+(\.[0-9]+)?$/.test(size);
        if (plain) expect(isZeroDecimal(size)).toBe(/^[0.]+$/.test(size));
        else expect(() => isZeroDecimal(size)).toThrow(/non-negative decimal/);
      }),
    );
    expect(canonicalDecimal("0.000")).toBe("0");
  });
});
