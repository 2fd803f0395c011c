/**
 * The fixed-width helpers' shortcuts against their references: `putI256`/`decodeI256At` against
 * `encodeI256`/`decodeI256` of the slice, `pow10` against `10n ** n`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeI256, decodeI256At, encodeI256, pow10, putI256 } from "./dtypes.js";

const i256 = fc.oneof(
  fc.constant(0n),
  fc.bigInt({ min: -(1n << 40n), max: 1n << 40n }),
  fc.bigInt({ min: -(1n << 255n), max: (1n << 255n) - 1n }),
);

describe("putI256 and decodeI256At", () => {
  it("write and read a value at an offset as encodeI256 and decodeI256 of the slice", () => {
    fc.assert(
      fc.property(fc.array(i256, { minLength: 1, maxLength: 3 }), (values) => {
        const out = new Uint8Array(32 * values.length);
        for (const [i, v] of values.entries()) putI256(out, 32 * i, v);
        values.forEach((v, i) => {
          const slice = out.subarray(32 * i, 32 * i + 32);
          expect(slice).toEqual(encodeI256(v));
          expect(decodeI256At(out, 32 * i)).toBe(decodeI256(slice));
          expect(decodeI256At(out, 32 * i)).toBe(v);
        });
      }),
    );
  });

  it("reads any bytes as decodeI256 of the slice (short ones included)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), fc.nat(40), (bytes, offset) => {
        expect(decodeI256At(bytes, offset)).toBe(decodeI256(bytes.subarray(offset, offset + 32)));
      }),
    );
  });

  it("refuses what encodeI256 refuses", () => {
    expect(() => putI256(new Uint8Array(32), 0, 1n << 255n)).toThrow();
  });
});

describe("pow10", () => {
  it("is 10n ** n, and throws where it throws", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -3, max: 80 }), fc.double({ min: 0, max: 70 })), (n) => {
        let reference: bigint | "throws";
        try {
          reference = 10n ** BigInt(n);
        } catch {
          reference = "throws";
        }
        if (reference === "throws") expect(() => pow10(n)).toThrow();
        else expect(pow10(n)).toBe(reference);
      }),
    );
  });
});
