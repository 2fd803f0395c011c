/** The proposer's tx bytes, written directly, against protobuf-es's. */
import { create, toBinary } from "@bufbuild/protobuf";
import { cosmosTx } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { proposedTxBytes } from "./proposer.js";

/** The reference: the messages in a body, an auth info with an empty fee, both in a `TxRaw`. */
function reference(messages: Parameters<typeof proposedTxBytes>[0]): Uint8Array {
  const body = toBinary(cosmosTx.TxBodySchema, create(cosmosTx.TxBodySchema, { messages: [...messages] }));
  const authInfo = toBinary(
    cosmosTx.AuthInfoSchema,
    create(cosmosTx.AuthInfoSchema, { fee: { gasLimit: 0n } }),
  );
  return toBinary(
    cosmosTx.TxRawSchema,
    create(cosmosTx.TxRawSchema, { bodyBytes: body, authInfoBytes: authInfo }),
  );
}

describe("proposed tx bytes", () => {
  it("property: the bytes protobuf-es writes for the same tx", () => {
    const any = fc.record({
      typeUrl: fc.oneof(fc.constant(""), fc.string({ unit: "grapheme", maxLength: 40 })),
      value: fc.oneof(fc.uint8Array({ maxLength: 20 }), fc.uint8Array({ minLength: 120, maxLength: 3_000 })),
    });
    fc.assert(
      fc.property(fc.array(any, { maxLength: 4 }), (items) => {
        const messages = items.map((item) => ({ $typeName: "google.protobuf.Any" as const, ...item }));
        expect(proposedTxBytes(messages)).toEqual(reference(messages));
      }),
      { numRuns: 300 },
    );
  });
});
