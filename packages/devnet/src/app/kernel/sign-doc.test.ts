import { create, toBinary } from "@bufbuild/protobuf";
import { cosmosTx } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { signDocBytes } from "./sign-doc.js";

describe("sign doc bytes", () => {
  it("property: the bytes protobuf-es writes for the same SignDoc", () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 20 }),
      fc.uint8Array({ minLength: 120, maxLength: 20_000 }),
    );
    const u64 = fc.oneof(fc.bigInt({ min: 0n, max: 300n }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }));
    fc.assert(
      fc.property(
        bytes,
        bytes,
        fc.string({ unit: "grapheme", maxLength: 30 }),
        u64,
        (body, authInfo, chainId, accountNumber) => {
          const reference = toBinary(
            cosmosTx.SignDocSchema,
            create(cosmosTx.SignDocSchema, {
              bodyBytes: body,
              authInfoBytes: authInfo,
              chainId,
              accountNumber,
            }),
          );
          expect(signDocBytes(body, authInfo, chainId, accountNumber)).toEqual(reference);
        },
      ),
      { numRuns: 300 },
    );
  });
});
