import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RootStore } from "../../kernel/store.js";
import { type BookSide, OrderBook, type RestingOrder } from "./book.js";
import { applyMatch, crosses, matchOrder, opposite, type Taker, wouldCross } from "./matching.js";

const PAIR = 0;

function resting(
  i: number,
  side: BookSide,
  subticks: bigint,
  remaining: bigint,
  owner = `o${i % 3}`,
): RestingOrder {
  return { key: `k${i}`, side, subticks, seq: BigInt(i), tie: 0n, remaining, owner, number: 0 };
}

describe("OrderBook", () => {
  it("orders bids high to low and asks low to high, time priority within a price", () => {
    const book = new OrderBook(new RootStore());
    book.insert(PAIR, resting(1, "buy", 100n, 5n));
    book.insert(PAIR, resting(2, "buy", 120n, 5n));
    book.insert(PAIR, resting(3, "buy", 100n, 5n));
    book.insert(PAIR, resting(4, "sell", 130n, 5n));
    book.insert(PAIR, resting(5, "sell", 125n, 5n));
    expect([...book.orders(PAIR, "buy")].map((o) => o.key)).toEqual(["k2", "k1", "k3"]);
    expect([...book.orders(PAIR, "sell")].map((o) => o.key)).toEqual(["k5", "k4"]);
    expect(book.best(PAIR, "buy")?.subticks).toBe(120n);
    expect(book.levels(PAIR, "buy")).toEqual([
      { subticks: 120n, quantums: 5n },
      { subticks: 100n, quantums: 10n },
    ]);
    expect(book.remove(PAIR, resting(2, "buy", 120n, 5n))).toBe(true);
    expect(book.remove(PAIR, resting(2, "buy", 120n, 5n))).toBe(false);
    expect(book.best(PAIR, "buy")?.key).toBe("k1");
    expect(book.best(1, "buy")).toBeUndefined();
  });
});

describe("matchOrder", () => {
  it("fills at the maker's price, partially, and stops at the limit", () => {
    const book = new OrderBook(new RootStore());
    book.insert(PAIR, resting(1, "sell", 100n, 3n, "m"));
    book.insert(PAIR, resting(2, "sell", 101n, 3n, "m"));
    book.insert(PAIR, resting(3, "sell", 105n, 3n, "m"));
    const taker: Taker = { side: "buy", subticks: 102n, quantums: 5n, owner: "t", number: 0 };
    const result = matchOrder(taker, book.orders(PAIR, "sell"));
    expect(result.fills.map((f) => [f.maker.key, f.quantums, f.subticks])).toEqual([
      ["k1", 3n, 100n],
      ["k2", 2n, 101n],
    ]);
    expect(result.remaining).toBe(0n);
    applyMatch(book, PAIR, result);
    expect([...book.orders(PAIR, "sell")].map((o) => [o.key, o.remaining])).toEqual([
      ["k2", 1n],
      ["k3", 3n],
    ]);
  });

  it("cancels resting makers of the taker's own subaccount and matches past them", () => {
    const book = new OrderBook(new RootStore());
    book.insert(PAIR, resting(1, "buy", 100n, 3n, "t"));
    book.insert(PAIR, resting(2, "buy", 100n, 3n, "m"));
    const result = matchOrder(
      { side: "sell", subticks: 90n, quantums: 2n, owner: "t", number: 0 },
      book.orders(PAIR, "buy"),
    );
    expect(result.removed).toEqual([{ maker: expect.objectContaining({ key: "k1" }), reason: "self-trade" }]);
    expect(result.fills.map((f) => f.maker.key)).toEqual(["k2"]);
  });

  it("skips makers that fail collateral and stops when the taker fails", () => {
    const book = new OrderBook(new RootStore());
    for (let i = 1; i <= 3; i++) book.insert(PAIR, resting(i, "sell", 100n, 1n, "m"));
    const result = matchOrder(
      { side: "buy", subticks: 100n, quantums: 3n, owner: "t", number: 0 },
      book.orders(PAIR, "sell"),
      (maker) => (maker.key === "k1" ? "maker-fails" : maker.key === "k3" ? "taker-fails" : "ok"),
    );
    expect(result.removed.map((r) => r.reason)).toEqual(["undercollateralized"]);
    expect(result.fills.map((f) => f.maker.key)).toEqual(["k2"]);
    expect(result.takerFailed).toBe(true);
    expect(result.remaining).toBe(2n);
  });

  it("knows when a post-only order would cross", () => {
    expect(wouldCross(resting(1, "sell", 100n, 1n), { side: "buy", subticks: 100n })).toBe(true);
    expect(wouldCross(resting(1, "sell", 100n, 1n), { side: "buy", subticks: 99n })).toBe(false);
    expect(wouldCross(undefined, { side: "sell", subticks: 1n })).toBe(false);
  });
});

const orderArb = fc.record({
  side: fc.constantFrom<BookSide>("buy", "sell"),
  subticks: fc.bigInt({ min: 90n, max: 110n }),
  quantums: fc.bigInt({ min: 1n, max: 20n }),
  owner: fc.constantFrom("a", "b", "c", "d"),
});

/** Places a sequence of limit orders through matching; returns the book and every match. */
function run(orders: ReadonlyArray<{ side: BookSide; subticks: bigint; quantums: bigint; owner: string }>) {
  const book = new OrderBook(new RootStore());
  const matches: { taker: Taker; snapshot: RestingOrder[]; result: ReturnType<typeof matchOrder> }[] = [];
  orders.forEach((o, i) => {
    const taker: Taker = { ...o, number: 0 };
    const snapshot = [...book.orders(PAIR, opposite(o.side))];
    const result = matchOrder(taker, snapshot);
    applyMatch(book, PAIR, result);
    matches.push({ taker, snapshot, result });
    if (result.remaining > 0n) {
      book.insert(PAIR, {
        key: `k${i}`,
        side: o.side,
        subticks: o.subticks,
        seq: BigInt(i),
        tie: 0n,
        remaining: result.remaining,
        owner: o.owner,
        number: 0,
      });
    }
  });
  return { book, matches };
}

describe("matching properties", () => {
  it("conserves quantums: the taker's fill equals the makers' fills, and the book loses exactly that", () => {
    fc.assert(
      fc.property(fc.array(orderArb, { maxLength: 60 }), (orders) => {
        const book = new OrderBook(new RootStore());
        orders.forEach((o, i) => {
          const side = opposite(o.side);
          const before = [...book.orders(PAIR, side)].reduce((s, m) => s + m.remaining, 0n);
          const result = matchOrder({ ...o, number: 0 }, book.orders(PAIR, side));
          applyMatch(book, PAIR, result);
          const filled = result.fills.reduce((s, f) => s + f.quantums, 0n);
          const removed = result.removed.reduce((s, r) => s + r.maker.remaining, 0n);
          const after = [...book.orders(PAIR, side)].reduce((s, m) => s + m.remaining, 0n);
          expect(filled).toBe(o.quantums - result.remaining);
          expect(before - after).toBe(filled + removed);
          for (const f of result.fills) expect(f.quantums).toBeLessThanOrEqual(f.maker.remaining);
          if (result.remaining > 0n) {
            book.insert(PAIR, {
              key: `k${i}`,
              side: o.side,
              subticks: o.subticks,
              seq: BigInt(i),
              tie: 0n,
              remaining: result.remaining,
              owner: o.owner,
              number: 0,
            });
          }
        });
      }),
    );
  });

  it("respects price-time priority: fills take makers in book order, at their prices, within the limit", () => {
    fc.assert(
      fc.property(fc.array(orderArb, { maxLength: 60 }), (orders) => {
        for (const { taker, snapshot, result } of run(orders).matches) {
          const touched = [
            ...result.fills.map((f) => f.maker.key),
            ...result.removed.map((r) => r.maker.key),
          ];
          // Every maker touched is a prefix of the book, in order (skipping none).
          const prefix = snapshot
            .slice(0, touched.length)
            .map((m) => m.key)
            .sort();
          expect([...touched].sort()).toEqual(prefix);
          let previous: RestingOrder | undefined;
          for (const f of result.fills) {
            expect(f.subticks).toBe(f.maker.subticks);
            expect(crosses(taker, f.subticks)).toBe(true);
            if (previous !== undefined) {
              const better =
                taker.side === "buy" ? previous.subticks <= f.subticks : previous.subticks >= f.subticks;
              expect(better).toBe(true);
              if (previous.subticks === f.subticks) expect(previous.seq < f.maker.seq).toBe(true);
            }
            previous = f.maker;
          }
        }
      }),
    );
  });

  it("never leaves a crossed book", () => {
    fc.assert(
      fc.property(fc.array(orderArb, { maxLength: 80 }), (orders) => {
        const { book } = run(orders);
        const bid = book.best(PAIR, "buy");
        const ask = book.best(PAIR, "sell");
        if (bid !== undefined && ask !== undefined) expect(bid.subticks < ask.subticks).toBe(true);
      }),
    );
  });
});
