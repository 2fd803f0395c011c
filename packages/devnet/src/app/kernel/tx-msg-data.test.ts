import { create, toBinary } from "@bufbuild/protobuf";
import { cosmosAbci } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { txMsgDataBytes } from "./tx-msg-data.js";

describe("tx msg data bytes", () => {
  it("property: the bytes protobuf-es writes for the same TxMsgData", () => {
    const any = fc.record({
      typeUrl: fc.string({ unit: "grapheme", maxLength: 40 }),
      value: fc.oneof(fc.uint8Array({ maxLength: 20 }), fc.uint8Array({ minLength: 120, maxLength: 3_000 })),
    });
    fc.assert(
      fc.property(fc.array(any, { maxLength: 4 }), (items) => {
        const responses = items.map((item) => ({ $typeName: "google.protobuf.Any" as const, ...item }));
        const reference = toBinary(
          cosmosAbci.TxMsgDataSchema,
          create(cosmosAbci.TxMsgDataSchema, { msgResponses: responses }),
        );
        expect(txMsgDataBytes(responses)).toEqual(reference);
        // Again: a lone empty response's bytes come from the memo then, a copy each time.
        const again = txMsgDataBytes(responses);
        expect(again).toEqual(reference);
        expect(again).not.toBe(txMsgDataBytes(responses));
      }),
      { numRuns: 300 },
    );
  });
});
