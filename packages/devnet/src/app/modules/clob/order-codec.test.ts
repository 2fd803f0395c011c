/**
 * The memclob's hand-written encodings against `toBinary` (the reference), over arbitrary orders,
 * order ids and matches, unknown fields included.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeMatchOperation, encodeOrder, encodeOrderId } from "./order-codec.js";

const u32 = fc.oneof(fc.constant(0), fc.nat(300), fc.integer({ min: 0, max: 0xffffffff }));
const u64 = fc.oneof(fc.constant(0n), fc.bigInt(0n, 300n), fc.bigInt(0n, 2n ** 64n - 1n));
const enumValue = fc.oneof(fc.nat(4), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }));
const text = fc.oneof(
  fc.constant(""),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 20 }),
);
/** Unknown fields as a decoder keeps them (field number, wire type, raw bytes). */
const unknown = fc.option(
  fc.array(
    fc.record({
      no: fc.integer({ min: 100, max: 200 }),
      wireType: fc.constant(0),
      data: fc.constant(new Uint8Array([1])),
    }),
    { minLength: 1, maxLength: 2 },
  ),
  { nil: undefined, freq: 8 },
);

const withUnknown = <T extends object>(message: T, fields: unknown): T =>
  fields === undefined ? message : Object.assign(message, { $unknown: fields });

const orderId = fc
  .tuple(fc.option(fc.tuple(text, u32, unknown), { nil: undefined }), u32, u32, u32, unknown)
  .map(([sub, clientId, orderFlags, clobPairId, u]) =>
    withUnknown(
      create(clob.OrderIdSchema, {
        ...(sub === undefined
          ? {}
          : {
              subaccountId: withUnknown(
                { $typeName: "perpx.subaccounts.v1.SubaccountId" as const, owner: sub[0], number: sub[1] },
                sub[2],
              ),
            }),
        clientId,
        orderFlags,
        clobPairId,
      }),
      u,
    ),
  );

const goodTil = fc.oneof(
  fc.constant({ case: undefined }),
  u32.map((value) => ({ case: "goodTilBlock" as const, value })),
  u32.map((value) => ({ case: "goodTilBlockTime" as const, value })),
);

const order = fc
  .record({
    orderId: fc.option(orderId, { nil: undefined }),
    side: enumValue,
    quantums: u64,
    subticks: u64,
    goodTilOneof: goodTil,
    timeInForce: enumValue,
    reduceOnly: fc.boolean(),
    clientMetadata: u32,
    conditionType: enumValue,
    conditionalOrderTriggerSubticks: u64,
    twap: fc.option(fc.tuple(u32, u32, u32, unknown), { nil: undefined }),
    builder: fc.option(fc.tuple(text, u32, unknown), { nil: undefined }),
    orderRouterAddress: text,
    unknown,
  })
  .map(({ twap, builder, unknown: u, orderId: id, ...fields }) =>
    withUnknown(
      create(clob.OrderSchema, {
        ...fields,
        ...(id === undefined ? {} : { orderId: id }),
        ...(twap === undefined
          ? {}
          : {
              twapParameters: withUnknown(
                create(clob.TwapParametersSchema, {
                  duration: twap[0],
                  interval: twap[1],
                  priceTolerance: twap[2],
                }),
                twap[3],
              ),
            }),
        ...(builder === undefined
          ? {}
          : {
              builderCodeParameters: withUnknown(
                create(clob.BuilderCodeParametersSchema, { builderAddress: builder[0], feePpm: builder[1] }),
                builder[2],
              ),
            }),
      } as Parameters<typeof create<typeof clob.OrderSchema>>[1]),
      u,
    ),
  );

/** Whether a message or any message inside it carries unknown fields. */
function carriesUnknown(value: unknown): boolean {
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return false;
  const unknownFields = (value as { $unknown?: readonly unknown[] }).$unknown;
  if (unknownFields !== undefined && unknownFields.length > 0) return true;
  return Object.values(value).some(carriesUnknown);
}

/** The encoding equals `reference`, and (without unknown fields) was measured: it fills its buffer. */
function expectEncoding(bytes: Uint8Array, reference: Uint8Array, message: unknown): void {
  expect(bytes).toEqual(reference);
  if (!carriesUnknown(message)) expect(bytes.buffer.byteLength).toBe(bytes.length);
}

describe("memclob encodings", () => {
  it("encodes an order id as toBinary does", () => {
    fc.assert(
      fc.property(orderId, (id) => {
        expectEncoding(encodeOrderId(id), toBinary(clob.OrderIdSchema, id), id);
      }),
      { numRuns: 500 },
    );
  });

  it("encodes an order as toBinary does", () => {
    fc.assert(
      fc.property(order, (o) => {
        expectEncoding(encodeOrder(o), toBinary(clob.OrderSchema, o), o);
      }),
      { numRuns: 1000 },
    );
  });

  it("encodes a match's OperationRaw as toBinary does", () => {
    fc.assert(
      fc.property(
        orderId,
        fc.array(fc.record({ makerId: orderId, quantums: u64 }), { maxLength: 5 }),
        (takerOrderId, fills) => {
          const reference = create(clob.OperationRawSchema, {
            operation: {
              case: "match",
              value: create(clob.ClobMatchSchema, {
                match: {
                  case: "matchOrders",
                  value: create(clob.MatchOrdersSchema, {
                    takerOrderId,
                    fills: fills.map((f) =>
                      create(clob.MakerFillSchema, { makerOrderId: f.makerId, fillAmount: f.quantums }),
                    ),
                  }),
                },
              }),
            },
          });
          expectEncoding(
            encodeMatchOperation(takerOrderId, fills),
            toBinary(clob.OperationRawSchema, reference),
            reference,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
