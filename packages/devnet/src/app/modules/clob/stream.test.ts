/**
 * The order stream's slice: what a successful step wrote is drained in order, as it was made;
 * what a failed step wrote is gone with its other writes; bytes written by other means are decoded.
 */
import { create } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OrderRemovalReason, OrderStreamMessage } from "../../contract.js";
import { CacheStore, RootStore } from "../../kernel/store.js";
import { PrefixStore } from "../../kernel/store-views.js";
import { BinaryWriter, decodeU64 } from "../../lib/codec.js";
import { encodeOrder, encodeOrderId } from "./order-codec.js";
import { keys } from "./state.js";
import { drainOrderStream, emitOrderStream } from "./stream.js";

const orderId = (clientId: number) =>
  create(clob.OrderIdSchema, { subaccountId: { owner: "perpx1maker", number: 0 }, clientId, clobPairId: 0 });
const order = (clientId: number) =>
  create(clob.OrderSchema, {
    orderId: orderId(clientId),
    side: clob.Order_Side.SELL,
    quantums: 1_000_000n,
    subticks: 6_500_000_000n,
    goodTilOneof: { case: "goodTilBlock", value: 30 },
  });

describe("order stream", () => {
  it("drains the messages of successful steps in order, not those of failed ones", () => {
    const root = new RootStore();
    const place: OrderStreamMessage = { kind: "place", order: order(1) };
    const failed = new CacheStore(root);
    emitOrderStream(failed, { kind: "remove", orderId: orderId(9), reason: "user_canceled" });
    failed.discard();
    const ok = new CacheStore(root);
    emitOrderStream(ok, place);
    emitOrderStream(ok, { kind: "update", orderId: orderId(1), totalFilled: 5n });
    ok.write();
    const drained = drainOrderStream(root);
    expect(drained).toEqual([place, { kind: "update", orderId: orderId(1), totalFilled: 5n }]);
    expect(drained[0]).toBe(place);
    expect(Object.isFrozen(place) && Object.isFrozen(place.order.orderId?.subaccountId)).toBe(true);
    expect(drainOrderStream(root)).toEqual([]);
    expect([...root.entries(keys.streamPrefix)]).toEqual([]);
  });

  it("keeps counting across drains: a drained key is never written again", () => {
    const root = new RootStore();
    emitOrderStream(root, { kind: "place", order: order(1) });
    drainOrderStream(root);
    const update: OrderStreamMessage = { kind: "update", orderId: orderId(1), totalFilled: 5n };
    emitOrderStream(root, update);
    expect([...root.entries(keys.streamPrefix)].map(([key]) => key)).toEqual([keys.stream(1n)]);
    expect(decodeU64(root.get(keys.streamCounter) as Uint8Array)).toBe(2n);
    expect(drainOrderStream(root)).toEqual([update]);
  });

  it("drains the whole state's clob slice given its prefix, as it drains the slice itself", () => {
    const root = new RootStore();
    const branch = new CacheStore(root);
    const slice = new PrefixStore(branch, "clob/");
    const place: OrderStreamMessage = { kind: "place", order: order(1) };
    const update: OrderStreamMessage = { kind: "update", orderId: orderId(1), totalFilled: 5n };
    emitOrderStream(slice, place);
    emitOrderStream(slice, update);
    branch.write();
    root.set("clobs/stream/00000000000000000000", new Uint8Array([1]));
    const drained = drainOrderStream(root, "clob/");
    expect(drained).toEqual([place, update]);
    expect(drained[0]).toBe(place);
    expect([...root.entries("clob/")].map(([key]) => key)).toEqual([`clob/${keys.streamCounter}`]);
    expect(root.has("clobs/stream/00000000000000000000")).toBe(true);
    expect(drainOrderStream(root, "clob/")).toEqual([]);
  });

  it("decodes an entry whose bytes are not the ones it wrote last, or that a drain forgot", () => {
    const other = new RootStore();
    const replaced: OrderStreamMessage = { kind: "replace", oldOrder: order(2), order: order(3) };
    emitOrderStream(other, replaced);
    const source = new RootStore();
    const placed: OrderStreamMessage = { kind: "place", order: order(4) };
    emitOrderStream(source, placed);
    const copied = new RootStore();
    for (const key of [keys.streamCounter, keys.stream(0n)]) copied.set(key, other.get(key) as Uint8Array);
    const decoded = drainOrderStream(copied);
    expect(decoded).toEqual([replaced]);
    expect(decoded[0]).not.toBe(replaced);
    const forgotten = drainOrderStream(source);
    expect(forgotten).toEqual([placed]);
    expect(forgotten[0]).not.toBe(placed);
  });

  it("property: writes each message as the BinaryWriter layout (kind, length-prefixed parts, fill amount)", () => {
    /** The reference: the layout written field by field. */
    const reference = (message: OrderStreamMessage): Uint8Array => {
      const w = new BinaryWriter(16).uvarint(["place", "remove", "update", "replace"].indexOf(message.kind));
      switch (message.kind) {
        case "place":
          return w.bytes(encodeOrder(message.order)).finish();
        case "remove":
          return w.bytes(encodeOrderId(message.orderId)).string(message.reason).finish();
        case "update":
          return w.bytes(encodeOrderId(message.orderId)).uvarint(message.totalFilled).finish();
        case "replace":
          return w.bytes(encodeOrder(message.oldOrder)).bytes(encodeOrder(message.order)).finish();
      }
    };
    const ids = fc.nat({ max: 2 ** 32 - 1 });
    const messages = fc.oneof(
      ids.map((id): OrderStreamMessage => ({ kind: "place", order: order(id) })),
      fc
        .tuple(
          ids,
          fc.constantFrom<OrderRemovalReason>("user_canceled", "fully_filled", "immediate_or_cancel"),
        )
        .map(([id, reason]): OrderStreamMessage => ({ kind: "remove", orderId: orderId(id), reason })),
      fc
        .tuple(ids, fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }))
        .map(
          ([id, totalFilled]): OrderStreamMessage => ({ kind: "update", orderId: orderId(id), totalFilled }),
        ),
      fc
        .tuple(ids, ids)
        .map(([a, b]): OrderStreamMessage => ({ kind: "replace", oldOrder: order(a), order: order(b) })),
    );
    fc.assert(
      fc.property(fc.array(messages, { maxLength: 8 }), (batch) => {
        const root = new RootStore();
        for (const message of batch) emitOrderStream(root, message);
        expect([...root.entries(keys.streamPrefix)].map(([, bytes]) => bytes)).toEqual(batch.map(reference));
        expect(drainOrderStream(root)).toEqual(batch);
      }),
    );
  });
});
