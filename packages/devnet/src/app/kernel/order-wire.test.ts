import { create, type DescMessage, toBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agrees, mutated } from "../../../test/support/wire-agreement.js";
import { ORDER_MSG_READERS } from "./order-wire.js";

// Mostly ASCII (the text the direct decoder takes), sometimes any text (left to protobuf-es).
const text = fc.oneof(
  { arbitrary: fc.string({ maxLength: 12 }), weight: 6 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 4 }), weight: 1 },
);
const u32 = fc.oneof(fc.nat(300), fc.integer({ min: 0, max: 2 ** 32 - 1 }));
const u64 = fc.oneof(fc.bigInt({ min: 0n, max: 300n }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }));
// Enums are open int32 in proto3: mostly known values, sometimes any (negatives are 10-byte varints).
const enumValue = fc.oneof(
  { arbitrary: fc.nat(3), weight: 6 },
  { arbitrary: fc.integer({ min: -2, max: 2 ** 31 - 1 }), weight: 1 },
);
const goodTil = fc.oneof(
  fc.constant({ case: undefined }),
  fc.record({ case: fc.constant("goodTilBlock" as const), value: u32 }),
  fc.record({ case: fc.constant("goodTilBlockTime" as const), value: u32 }),
);
const subaccountId = fc.record({ owner: text, number: u32 }, { requiredKeys: [] });
const orderId = fc.record(
  { subaccountId, clientId: u32, orderFlags: u32, clobPairId: u32 },
  { requiredKeys: [] },
);
const order = fc.record(
  {
    orderId,
    side: enumValue,
    quantums: u64,
    subticks: u64,
    goodTilOneof: goodTil,
    timeInForce: enumValue,
    reduceOnly: fc.boolean(),
    clientMetadata: u32,
    conditionType: enumValue,
    conditionalOrderTriggerSubticks: u64,
    twapParameters: fc.record({ duration: u32, interval: u32, priceTolerance: u32 }, { requiredKeys: [] }),
    builderCodeParameters: fc.record({ builderAddress: text, feePpm: u32 }, { requiredKeys: [] }),
    orderRouterAddress: text,
  },
  { requiredKeys: [] },
);
const placeOrder = fc.record({ order }, { requiredKeys: [] });
const cancelOrder = fc.record({ orderId, goodTilOneof: goodTil }, { requiredKeys: [] });
const batchCancel = fc.record(
  {
    subaccountId,
    shortTermCancels: fc.array(
      fc.record({ clobPairId: u32, clientIds: fc.array(u32, { maxLength: 4 }) }, { requiredKeys: [] }),
      { maxLength: 3 },
    ),
    goodTilBlock: u32,
  },
  { requiredKeys: [] },
);

const cases = [
  ["MsgPlaceOrder", clob.MsgPlaceOrderSchema, placeOrder],
  ["MsgCancelOrder", clob.MsgCancelOrderSchema, cancelOrder],
  ["MsgBatchCancel", clob.MsgBatchCancelSchema, batchCancel],
] as const;

const encode = (schema: DescMessage, value: unknown) => toBinary(schema, create(schema, value as never));

describe("direct decoding of the clob's order messages", () => {
  for (const [name, schema, init] of cases) {
    const read = ORDER_MSG_READERS.get(schema.typeName);
    if (read === undefined) throw new Error(`no reader for ${name}`);

    it(`property: ${name} as protobuf-es decodes it, or left to protobuf-es`, () => {
      let taken = 0;
      fc.assert(
        fc.property(init, (value) => {
          if (agrees(schema as DescMessage, read, encode(schema, value))) taken++;
        }),
        { numRuns: 500 },
      );
      // The usual shapes are taken (the generators make some that are left).
      expect(taken).toBeGreaterThan(50);
    });

    it(`property: ${name} from damaged, concatenated or random bytes: left, or exactly protobuf-es's`, () => {
      fc.assert(
        fc.property(
          fc.oneof(
            init.chain((value) => mutated(encode(schema, value))),
            // Two encodings one after the other: protobuf merges them (repeats, last-wins, merged messages).
            fc
              .tuple(init, init)
              .map(([a, b]) => new Uint8Array([...encode(schema, a), ...encode(schema, b)])),
            fc.uint8Array({ maxLength: 60 }),
          ),
          (bytes) => {
            agrees(schema as DescMessage, read, bytes);
          },
        ),
        { numRuns: 800 },
      );
    });
  }

  it("takes a client's short-term order", () => {
    const bytes = encode(clob.MsgPlaceOrderSchema, {
      order: {
        orderId: {
          subaccountId: { owner: "perpx1qyqszqgpqyqszqgpqyqszqgpqyqszqgp0q9ll8", number: 0 },
          clientId: 4_000_000_000,
          clobPairId: 1,
        },
        side: clob.Order_Side.BUY,
        quantums: 1_000_000n,
        subticks: 5_000_000_000n,
        goodTilOneof: { case: "goodTilBlock", value: 120 },
        timeInForce: clob.Order_TimeInForce.IOC,
      },
    });
    expect(
      agrees(
        clob.MsgPlaceOrderSchema,
        ORDER_MSG_READERS.get(clob.MsgPlaceOrderSchema.typeName) as never,
        bytes,
      ),
    ).toBe(true);
  });

  it("takes unpacked client ids in a batch cancel, as protobuf-es reads them", () => {
    // OrderBatch { clob_pair_id: 2, client_ids: 5 (unpacked), client_ids: [7, 300] (packed), client_ids: 9 }.
    const batch = [0x08, 2, 0x10, 5, 0x12, 3, 7, 0xac, 0x02, 0x10, 9];
    const bytes = new Uint8Array([0x12, batch.length, ...batch, 0x18, 40]);
    const read = ORDER_MSG_READERS.get(clob.MsgBatchCancelSchema.typeName) as never;
    expect(agrees(clob.MsgBatchCancelSchema, read, bytes)).toBe(true);
  });
});
