/**
 * The book's stored values and keys: a resting order is written as the `BinaryWriter` layout and
 * read back as it was inserted, wherever it rests.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RootStore } from "../../kernel/store.js";
import { BinaryWriter } from "../../lib/codec.js";
import { type BookSide, encodeResting, OrderBook, type RestingOrder } from "./book.js";

const U64 = (1n << 64n) - 1n;

const resting = fc.record({
  key: fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: "grapheme", maxLength: 40 })),
  side: fc.constantFrom<BookSide>("buy", "sell"),
  subticks: fc.bigInt({ min: 0n, max: U64 }),
  seq: fc.bigInt({ min: 0n, max: U64 }),
  tie: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: U64 })),
  remaining: fc.bigInt({ min: 1n, max: U64 }),
  owner: fc.oneof(fc.string({ maxLength: 150 }), fc.string({ unit: "grapheme", maxLength: 20 })),
  number: fc.nat({ max: 2 ** 32 - 1 }),
});

describe("order book values", () => {
  it("property: writes a resting order as the BinaryWriter layout", () => {
    fc.assert(
      fc.property(resting, (order) => {
        const reference = new BinaryWriter(96)
          .string(order.key)
          .string(order.owner)
          .uvarint(order.number)
          .uvarint(order.remaining)
          .finish();
        expect(encodeResting(order)).toEqual(reference);
      }),
    );
  });

  it("property: reads back every resting order as inserted, on its side, best first", () => {
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 32 - 1 }), fc.array(resting, { maxLength: 20 }), (pairId, orders) => {
        const book = new OrderBook(new RootStore());
        for (const order of orders) book.insert(pairId, order);
        for (const side of ["buy", "sell"] as const) {
          const slot = (o: RestingOrder) => `${o.subticks}/${o.seq}/${o.tie}`;
          const latest = new Map<string, RestingOrder>();
          for (const o of orders) if (o.side === side) latest.set(slot(o), o);
          const price = (o: RestingOrder) => (side === "buy" ? U64 - o.subticks : o.subticks);
          const expected = [...latest.values()].sort((a, b) =>
            price(a) !== price(b)
              ? price(a) < price(b)
                ? -1
                : 1
              : a.seq !== b.seq
                ? a.seq < b.seq
                  ? -1
                  : 1
                : a.tie < b.tie
                  ? -1
                  : 1,
          );
          expect([...book.orders(pairId, side)]).toEqual(expected);
        }
      }),
    );
  });
});
