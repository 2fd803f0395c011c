import { fromBinary } from "@bufbuild/protobuf";
import { cosmosSecp256k1 } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pubKeyBytes } from "./ante.js";

/** The decoder's answer: the key bytes, or the message it throws. */
function decoded(value: Uint8Array): Uint8Array | string {
  try {
    return fromBinary(cosmosSecp256k1.PubKeySchema, value).key;
  } catch (error) {
    return (error as Error).message;
  }
}

function ours(value: Uint8Array): Uint8Array | string {
  try {
    return pubKeyBytes(value);
  } catch (error) {
    return (error as Error).message;
  }
}

describe("pubKeyBytes", () => {
  it("property: gives what the protobuf decoder gives, for the usual 33-byte key and any other bytes", () => {
    const usual = fc
      .uint8Array({ minLength: 33, maxLength: 33 })
      .map((key) => new Uint8Array([0x0a, 33, ...key]));
    const nearUsual = fc
      .tuple(fc.nat(255), fc.nat(255), fc.uint8Array({ minLength: 30, maxLength: 40 }))
      .map(([a, b, rest]) => new Uint8Array([a, b, ...rest]));
    fc.assert(
      fc.property(fc.oneof(usual, nearUsual, fc.uint8Array({ maxLength: 80 })), (value) => {
        expect(ours(value)).toEqual(decoded(value));
      }),
      { numRuns: 2000 },
    );
  });

  it("reads the usual encoding in place, as the decoder does", () => {
    const value = new Uint8Array([0x0a, 33, ...new Uint8Array(33).fill(7)]);
    const key = pubKeyBytes(value);
    expect(key.buffer).toBe(value.buffer);
    expect(key.byteOffset).toBe(2);
    expect(fromBinary(cosmosSecp256k1.PubKeySchema, value).key.buffer).toBe(value.buffer);
  });
});
