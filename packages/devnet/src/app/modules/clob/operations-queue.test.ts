/**
 * The operations queue's hand-written encodings against `toBinary` (the reference): a placement's
 * `OperationRaw`, and a `MsgProposedOperations` spliced from encoded operations.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodePlacementOperation, encodeProposedOperations } from "./operations-queue.js";

const orderId = fc.record({
  subaccountId: fc.record({ owner: fc.string({ maxLength: 50 }), number: fc.nat(127) }),
  clientId: fc.nat(),
  orderFlags: fc.constantFrom(0, 32, 64),
  clobPairId: fc.nat(1000),
});

/** Any operation the memclob queues: a placement, a match or a removal. */
const operation: fc.Arbitrary<clob.OperationRaw["operation"]> = fc.oneof(
  fc.uint8Array({ maxLength: 400 }).map((value) => ({ case: "shortTermOrderPlacement" as const, value })),
  fc
    .record({
      takerOrderId: orderId,
      fills: fc.array(fc.record({ makerOrderId: orderId, fillAmount: fc.bigInt(0n, 2n ** 64n - 1n) }), {
        maxLength: 4,
      }),
    })
    .map((value) => ({
      case: "match" as const,
      value: create(clob.ClobMatchSchema, {
        match: { case: "matchOrders", value: create(clob.MatchOrdersSchema, value) },
      }),
    })),
  fc
    .record({ orderId, removalReason: fc.nat(10) })
    .map((value) => ({ case: "orderRemoval" as const, value: create(clob.OrderRemovalSchema, value) })),
);

const encode = (op: clob.OperationRaw["operation"]) =>
  toBinary(clob.OperationRawSchema, create(clob.OperationRawSchema, { operation: op }));

describe("operations queue encodings", () => {
  it("encodes a placement's OperationRaw as toBinary does", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 20_000 }), (txBytes) => {
        expect(encodePlacementOperation(txBytes)).toEqual(
          encode({ case: "shortTermOrderPlacement", value: txBytes }),
        );
      }),
    );
  });

  it("splices encoded operations into the MsgProposedOperations toBinary writes", () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 30 }), (operations) => {
        const reference = toBinary(
          clob.MsgProposedOperationsSchema,
          create(clob.MsgProposedOperationsSchema, {
            operationsQueue: operations.map((op) => create(clob.OperationRawSchema, { operation: op })),
          }),
        );
        expect(encodeProposedOperations(operations.map(encode))).toEqual(reference);
      }),
    );
  });
});
