import { create, fromBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RootStore } from "../../kernel/store.js";
import { BinaryReader, BinaryWriter } from "../../lib/codec.js";
import { type BookSide, OrderBook } from "./book.js";
import { encodeOrder } from "./order-codec.js";
import {
  getOrder,
  isMemclobKey,
  isShortTermOrderKey,
  nextPriority,
  orderKey,
  orderKeyAfter,
  setOrder,
} from "./state.js";

const PAIR = 0;
const OWNER = "perpx1owner";

/** Places an order of `flags` at one price: its priority, record and book entry. */
function placeAt(store: RootStore, clientId: number, flags: 0 | 64, side: BookSide): string {
  const orderId = create(clob.OrderIdSchema, {
    subaccountId: { owner: OWNER, number: 0 },
    clientId,
    orderFlags: flags,
    clobPairId: PAIR,
  });
  const key = orderKey(orderId);
  const priority = nextPriority(store, flags === 0);
  const order = create(clob.OrderSchema, { orderId, subticks: 100n, quantums: 10n });
  setOrder(store, key, { order, ...priority, height: 1n, txIndex: 0, filled: 0n, triggered: false });
  new OrderBook(store).insert(PAIR, {
    key,
    side,
    subticks: 100n,
    ...priority,
    remaining: 10n,
    owner: OWNER,
    number: 0,
  });
  return key;
}

describe("memclob state", () => {
  it("tells memclob keys from committed ones", () => {
    const short = orderKey(create(clob.OrderIdSchema, { subaccountId: { owner: OWNER }, orderFlags: 0 }));
    const long = orderKey(create(clob.OrderIdSchema, { subaccountId: { owner: OWNER }, orderFlags: 64 }));
    for (const key of [
      `order/${short}`,
      `done/${short}`,
      `exp/b/00000000000000000010/${short}`,
      "book/0000000000/b/00000000000000000100/00000000000000000003/00000000000000000001",
      "tie",
      "book/0000000000/b/00000000000000000100/00000000000000000003",
      `txb/${short}`,
      "ops/00000000000000000001",
      "ops_n",
      `opsin/${short}`,
      "new/00000000000000000003",
      "stream/00000000000000000000",
      "stream_n",
    ]) {
      expect(isMemclobKey(key), key).toBe(true);
    }
    for (const key of [
      `order/${long}`,
      `exp/t/00000000000000000010/${long}`,
      `trig/0000000000/${long}`,
      "seq",
      "pair/0000000000",
      "last_time",
    ]) {
      expect(isMemclobKey(key), key).toBe(false);
    }
  });

  it("property: the book ranks any mix of short-term and stateful orders in arrival order; only stateful order records reach the hash", () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { maxLength: 40 }),
        fc.constantFrom<BookSide>("buy", "sell"),
        (kinds, side) => {
          const store = new RootStore(isMemclobKey);
          const statefulOnly = new RootStore(isMemclobKey);
          const keys = kinds.map((shortTerm, i) => {
            if (!shortTerm) placeAt(statefulOnly, i, 64, side);
            return placeAt(store, i, shortTerm ? 0 : 64, side);
          });
          expect([...new OrderBook(store).orders(PAIR, side)].map((o) => o.key)).toEqual(keys);
          for (const key of keys) expect(getOrder(store, key)).toBeDefined();
          expect(store.hash()).toEqual(statefulOnly.hash());
        },
      ),
    );
  });
});

describe("getOrder", () => {
  /** The reference: the record decoded from the bytes, never taken from a write. */
  const decoded = (store: RootStore, key: string) => {
    const r = new BinaryReader(store.get(`order/${key}`) as Uint8Array);
    return {
      order: fromBinary(clob.OrderSchema, r.bytes()),
      seq: r.uvarint(),
      height: r.uvarint(),
      txIndex: r.uint(),
      filled: r.uvarint(),
      triggered: r.bool(),
      tie: r.uvarint(),
    };
  };

  it("property: reads what the last write of the key in that store holds, whichever store wrote last", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            store: fc.nat(1),
            clientId: fc.nat(3),
            filled: fc.bigInt({ min: 0n, max: 1n << 40n }),
            subticks: fc.bigInt({ min: 1n, max: 1n << 40n }),
            raw: fc.boolean(),
          }),
          { maxLength: 30 },
        ),
        (writes) => {
          const stores = [new RootStore(), new RootStore()];
          for (const { store, clientId, filled, subticks, raw } of writes) {
            const target = stores[store] as RootStore;
            const orderId = create(clob.OrderIdSchema, { subaccountId: { owner: OWNER }, clientId });
            const key = orderKey(orderId);
            const order = create(clob.OrderSchema, { orderId, subticks, quantums: 1n << 41n });
            const stored = { order, seq: 3n, tie: 1n, height: 2n, txIndex: 0, filled, triggered: false };
            if (raw) {
              // Bytes that no setOrder of this process wrote under the key (written through a copy).
              const other = new RootStore();
              setOrder(other, key, { ...stored, seq: 4n });
              target.set(`order/${key}`, other.get(`order/${key}`) as Uint8Array);
              setOrder(other, key, { ...stored, seq: 5n });
            } else setOrder(target, key, stored);
            for (const s of stores) {
              for (let id = 0; id < 4; id++) {
                const k = orderKey(
                  create(clob.OrderIdSchema, { subaccountId: { owner: OWNER }, clientId: id }),
                );
                if (s.get(`order/${k}`) === undefined) expect(getOrder(s, k)).toBeUndefined();
                else expect(getOrder(s, k)).toEqual(decoded(s, k));
              }
            }
          }
        },
      ),
    );
  });
});

describe("isShortTermOrderKey", () => {
  it("property: is true when the third part of the key is the short-term flags", () => {
    const part = fc.oneof(
      fc.constantFrom("0000000000", "0000000064", "000000000", "00000000000", ""),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), (parts) => {
        const key = parts.join("/");
        expect(isShortTermOrderKey(key)).toBe(key.split("/")[2] === "0000000000");
      }),
      { numRuns: 1000 },
    );
  });
});

describe("setOrder", () => {
  it("property: writes the record as a BinaryWriter lays it out", () => {
    const u64 = fc.oneof(fc.bigInt({ min: 0n, max: 300n }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }));
    fc.assert(
      fc.property(
        fc.record({
          clientId: fc.nat(),
          owner: fc.string({ maxLength: 50 }),
          subticks: u64,
          seq: u64,
          tie: u64,
          height: u64,
          txIndex: fc.oneof(fc.nat(300), fc.nat()),
          filled: u64,
          triggered: fc.boolean(),
        }),
        ({ clientId, owner, subticks, ...fields }) => {
          const orderId = create(clob.OrderIdSchema, { subaccountId: { owner }, clientId });
          const stored = { order: create(clob.OrderSchema, { orderId, subticks }), ...fields };
          const store = new RootStore();
          setOrder(store, "k", stored);
          const reference = new BinaryWriter(16)
            .bytes(encodeOrder(stored.order))
            .uvarint(stored.seq)
            .uvarint(stored.height)
            .uvarint(stored.txIndex)
            .uvarint(stored.filled)
            .bool(stored.triggered)
            .uvarint(stored.tie)
            .finish();
          expect(store.get("order/k")).toEqual(reference);
        },
      ),
    );
  });
});

describe("isMemclobKey", () => {
  /** The reference: the key split at every slash. */
  const reference = (key: string): boolean => {
    const parts = key.split("/");
    switch (parts[0]) {
      case "order":
        return parts[3] === "0000000000";
      case "exp":
        return parts[1] === "b";
      case "book":
      case "done":
      case "tie":
      case "txb":
      case "ops":
      case "ops_n":
      case "opsin":
      case "new":
      case "stream":
      case "stream_n":
        return true;
      default:
        return false;
    }
  };
  const segments = fc.oneof(
    fc.constantFrom(
      "order",
      "exp",
      "book",
      "stream",
      "stream_n",
      "ops_n",
      "b",
      "t",
      "0000000000",
      "0000000064",
      "",
    ),
    fc.string({ maxLength: 6 }),
  );

  it("answers as splitting the key does", () => {
    fc.assert(
      fc.property(fc.array(segments, { minLength: 1, maxLength: 7 }), (parts) => {
        const key = parts.join("/");
        expect(isMemclobKey(key)).toBe(reference(key));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("orderKeyAfter", () => {
  it("property: answers as splitting the key, dropping the first parts and joining the rest does", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "b", "/", "0"), { maxLength: 12 }),
        fc.nat(5),
        (chars, parts) => {
          const key = chars.join("");
          expect(orderKeyAfter(key, parts)).toBe(key.split("/").slice(parts).join("/"));
        },
      ),
    );
  });
});
