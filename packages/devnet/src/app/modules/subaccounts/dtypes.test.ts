/**
 * The fixed-width helpers against their references: `encodeI256`/`decodeI256` against the plain
 * two's complement of `encodeU256`/`decodeUint`, `putI256`/`decodeI256At` against
 * `encodeI256`/`decodeI256` of the slice, `pow10` against `10n ** n`, `ceilDiv` against the
 * negated floor division of the negated dividend.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeUint, encodeU256 } from "../../lib/codec.js";
import { ceilDiv, decodeI256, decodeI256At, encodeI256, floorDiv, pow10, putI256 } from "./dtypes.js";

const TWO_256 = 1n << 256n;
const MAX_I256 = (1n << 255n) - 1n;
/** The reference encoding: the unsigned 256-bit form of `value mod 2^256`. */
const referenceEncode = (value: bigint) => encodeU256(value < 0n ? TWO_256 + value : value);
/** The reference decoding: the unsigned value, less 2^256 above the largest signed one. */
const referenceDecode = (bytes: Uint8Array) => {
  const unsigned = decodeUint(bytes);
  return unsigned > MAX_I256 ? unsigned - TWO_256 : unsigned;
};

const i256 = fc.oneof(
  fc.constant(0n),
  fc.bigInt({ min: -(1n << 40n), max: 1n << 40n }),
  fc.bigInt({ min: -(1n << 255n), max: (1n << 255n) - 1n }),
);

describe("encodeI256 and decodeI256", () => {
  it("are the plain two's complement of every signed 256-bit value", () => {
    fc.assert(
      fc.property(i256, (v) => {
        expect(encodeI256(v)).toEqual(referenceEncode(v));
        expect(decodeI256(referenceEncode(v))).toBe(v);
      }),
    );
    for (const v of [-(1n << 255n), (1n << 255n) - 1n, -1n, 1n, -(1n << 32n), (1n << 32n) - 1n]) {
      expect(encodeI256(v)).toEqual(referenceEncode(v));
      expect(decodeI256(encodeI256(v))).toBe(v);
    }
  });

  it("read any bytes as the reference does", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), (bytes) => {
        expect(decodeI256(bytes)).toBe(referenceDecode(bytes));
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        expect(decodeI256(bytes)).toBe(referenceDecode(bytes));
      }),
    );
  });

  it("refuse values outside the signed 256-bit range", () => {
    expect(() => encodeI256(1n << 255n)).toThrow();
    expect(() => encodeI256(-(1n << 255n) - 1n)).toThrow();
  });
});

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

describe("ceilDiv", () => {
  it("is -floorDiv(-a, b): the quotient rounded toward positive infinity", () => {
    const operand = fc.oneof(fc.bigInt({ min: -50n, max: 50n }), i256);
    fc.assert(
      fc.property(operand, operand, (a, b) => {
        fc.pre(b !== 0n);
        expect(ceilDiv(a, b)).toBe(-floorDiv(-a, b));
      }),
    );
  });
});
