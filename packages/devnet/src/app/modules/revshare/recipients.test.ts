/**
 * `recipientBytes` against `addressBytes`: the same bytes (a copy of its own each call) for any
 * valid address in either form, and the same error for any other text, however often asked.
 */
import { addressBytes, addressBytesToBech32 } from "@perpx/address";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recipientBytes } from "./keeper.js";

const outcome = (decode: () => Uint8Array) => {
  try {
    return { bytes: decode() };
  } catch (error) {
    return { error: String(error) };
  }
};

describe("recipientBytes", () => {
  it("decodes as addressBytes does, each time", () => {
    const valid = fc
      .uint8Array({ minLength: 20, maxLength: 20 })
      .chain((bytes) =>
        fc.constantFrom(addressBytesToBech32(bytes), `0x${Buffer.from(bytes).toString("hex")}`),
      );
    fc.assert(
      fc.property(fc.oneof(valid, fc.string({ maxLength: 60 })), (address) => {
        const expected = outcome(() => addressBytes(address));
        for (let i = 0; i < 2; i++) {
          const got = outcome(() => recipientBytes(address));
          expect(got).toEqual(expected);
          got.bytes?.fill(0);
        }
      }),
    );
  });
});
