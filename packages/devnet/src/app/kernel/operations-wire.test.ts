import { create, toBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agrees, mutated } from "../../../test/support/wire-agreement.js";
import { encodePlacementOperation, encodeProposedOperations } from "../modules/clob/operations-queue.js";
import { encodeMatchOperation } from "../modules/clob/order-codec.js";
import { readProposedOperations } from "./operations-wire.js";

// Mostly ASCII (the text the direct decoder takes), sometimes any text (left to protobuf-es).
const text = fc.oneof(
  { arbitrary: fc.string({ maxLength: 12 }), weight: 6 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 4 }), weight: 1 },
);
const u32 = fc.oneof(fc.nat(300), fc.integer({ min: 0, max: 2 ** 32 - 1 }));
const u64 = fc.oneof(fc.bigInt({ min: 0n, max: 300n }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }));
const subaccountId = fc.record({ owner: text, number: u32 }, { requiredKeys: [] });
const orderId = fc.record(
  { subaccountId, clientId: u32, orderFlags: u32, clobPairId: u32 },
  { requiredKeys: [] },
);
const fill = fc.record({ fillAmount: u64, makerOrderId: orderId }, { requiredKeys: [] });
const operation = fc.oneof(
  { arbitrary: fc.constant({}), weight: 1 },
  {
    arbitrary: fc
      .uint8Array({ maxLength: 20 })
      .map((value) => ({ operation: { case: "shortTermOrderPlacement", value } })),
    weight: 4,
  },
  {
    arbitrary: fc
      .record({ takerOrderId: orderId, fills: fc.array(fill, { maxLength: 3 }) }, { requiredKeys: [] })
      .map((value) => ({ operation: { case: "match", value: { match: { case: "matchOrders", value } } } })),
    weight: 4,
  },
  // Left to protobuf-es.
  {
    arbitrary: orderId.map((id) => ({ operation: { case: "orderRemoval", value: { orderId: id } } })),
    weight: 1,
  },
  {
    arbitrary: fc.constant({
      operation: { case: "match", value: { match: { case: "matchPerpetualDeleveraging", value: {} } } },
    }),
    weight: 1,
  },
);
const proposed = fc.record({ operationsQueue: fc.array(operation, { maxLength: 5 }) }, { requiredKeys: [] });

const schema = clob.MsgProposedOperationsSchema;
const encode = (value: unknown) => toBinary(schema, create(schema, value as never));

describe("direct decoding of the proposer's operations", () => {
  it("property: as protobuf-es decodes them, or left to protobuf-es", () => {
    let taken = 0;
    fc.assert(
      fc.property(proposed, (value) => {
        if (agrees(schema, readProposedOperations, encode(value))) taken++;
      }),
      { numRuns: 500 },
    );
    // The usual shapes are taken (the generators make some that are left).
    expect(taken).toBeGreaterThan(50);
  });

  it("property: from damaged, concatenated or random bytes: left, or exactly protobuf-es's", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          proposed.chain((value) => mutated(encode(value))),
          // Two encodings one after the other: protobuf merges them (repeats, last-wins, merged messages).
          fc.tuple(proposed, proposed).map(([a, b]) => new Uint8Array([...encode(a), ...encode(b)])),
          fc.uint8Array({ maxLength: 60 }),
        ),
        (bytes) => {
          agrees(schema, readProposedOperations, bytes);
        },
      ),
      { numRuns: 800 },
    );
  });

  it("takes the queue the memclob writes: a placement, then a match against two makers", () => {
    const id = (clientId: number) =>
      create(clob.OrderIdSchema, {
        subaccountId: { owner: "perpx1qyqszqgpqyqszqgpqyqszqgpqyqszqgp0q9ll8", number: 0 },
        clientId,
        clobPairId: 1,
      });
    const bytes = encodeProposedOperations([
      encodePlacementOperation(new Uint8Array([1, 2, 3])),
      encodeMatchOperation(id(1), [
        { makerId: id(2), quantums: 5n },
        { makerId: id(3), quantums: 7n },
      ]),
    ]);
    expect(agrees(schema, readProposedOperations, bytes)).toBe(true);
  });
});
