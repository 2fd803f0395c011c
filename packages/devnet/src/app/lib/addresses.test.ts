import { addressBytesToBech32 } from "@perpx/address";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ACCOUNT_PREFIX, bech32Of, moduleAddress } from "./addresses.js";

describe("bech32Of", () => {
  it("property: encodes what addressBytesToBech32 encodes, the first time and every time after", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.nat(40), (bytes, offset) => {
        const expected = addressBytesToBech32(bytes, ACCOUNT_PREFIX);
        expect(bech32Of(bytes)).toBe(expected);
        // The same bytes at an offset of a larger buffer hit the same entry.
        const larger = new Uint8Array(offset + 60);
        larger.set(bytes, offset);
        expect(bech32Of(larger.subarray(offset, offset + 20))).toBe(expected);
      }),
    );
  });

  it("encodes changed bytes afresh, keeps encoding once its cache is full, and refuses what is no address", () => {
    const bytes = moduleAddress("fee_collector");
    const first = bech32Of(bytes);
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    expect(bech32Of(bytes)).toBe(addressBytesToBech32(bytes, ACCOUNT_PREFIX));
    expect(bech32Of(bytes)).not.toBe(first);
    for (let i = 0; i < 5000; i++) {
      const address = new Uint8Array(20);
      new DataView(address.buffer).setUint32(0, i);
      expect(bech32Of(address)).toBe(addressBytesToBech32(address, ACCOUNT_PREFIX));
    }
    expect(bech32Of(moduleAddress("fee_collector"))).toBe(first);
    expect(() => bech32Of(new Uint8Array(3))).toThrow();
  });
});
