import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DevnetError } from "../../devnet-error.js";
import {
  BinaryReader,
  BinaryWriter,
  bytesEqual,
  bytesKey,
  concatList,
  decodeU64,
  decodeUint,
  encodeU64,
  encodeU256,
  fromHex,
  putU64,
  putVarint,
  toHex,
  varintLength,
} from "./codec.js";

/** Unsigned LEB128 by the definition: seven bits a byte, low first, the high bit set on all but the last. */
function referenceVarint(value: bigint): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    const low = Number(rest % 128n);
    rest /= 128n;
    out.push(rest > 0n ? low + 128 : low);
  } while (rest > 0n);
  return out;
}

describe("codec", () => {
  it("property: what the writer writes, the reader reads back", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ k: fc.constant("u" as const), v: fc.bigInt({ min: 0n, max: (1n << 130n) - 1n }) }),
            fc.record({ k: fc.constant("s" as const), v: fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }) }),
            fc.record({ k: fc.constant("b" as const), v: fc.uint8Array({ maxLength: 300 }) }),
            fc.record({ k: fc.constant("t" as const), v: fc.string() }),
            fc.record({ k: fc.constant("n" as const), v: fc.nat() }),
          ),
        ),
        (items) => {
          const w = new BinaryWriter(16);
          for (const item of items) {
            if (item.k === "u") w.uvarint(item.v);
            else if (item.k === "s") w.svarint(item.v);
            else if (item.k === "b") w.bytes(item.v);
            else if (item.k === "t") w.string(item.v);
            else w.uvarint(item.v);
          }
          const r = new BinaryReader(w.finish());
          for (const item of items) {
            if (item.k === "u") expect(r.uvarint()).toBe(item.v);
            else if (item.k === "s") expect(r.svarint()).toBe(item.v);
            else if (item.k === "b") expect(r.bytes()).toEqual(item.v);
            else if (item.k === "t") expect(r.string()).toBe(item.v);
            else expect(r.uint()).toBe(item.v);
          }
          expect(r.done).toBe(true);
        },
      ),
    );
  });

  it("property: putVarint and varintLength write a number and a bigint as LEB128 by its definition", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.bigInt({ min: 0n, max: (1n << 130n) - 1n }), fc.maxSafeNat().map(BigInt)),
        fc.nat({ max: 5 }),
        (value, at) => {
          const expected = referenceVarint(value);
          const asBigint = new Uint8Array(at + expected.length);
          expect(varintLength(value)).toBe(expected.length);
          expect(putVarint(asBigint, at, value)).toBe(at + expected.length);
          expect([...asBigint.subarray(at)]).toEqual(expected);
          if (value <= BigInt(Number.MAX_SAFE_INTEGER)) {
            const asNumber = new Uint8Array(at + expected.length);
            expect(varintLength(Number(value))).toBe(expected.length);
            expect(putVarint(asNumber, at, Number(value))).toBe(at + expected.length);
            expect(asNumber).toEqual(asBigint);
          }
        },
      ),
    );
  });

  it("property: uvarint writes LEB128 by its definition, for a number or a bigint of any size", () => {
    const values = fc.oneof(
      fc.bigInt({ min: 0n, max: 300n }),
      fc.bigInt({ min: (1n << 32n) - 2n, max: (1n << 32n) + 2n }),
      fc.bigInt({ min: 0n, max: (1n << 130n) - 1n }),
    );
    fc.assert(
      fc.property(values, fc.boolean(), (value, asNumber) => {
        const input = asNumber && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
        expect([...new BinaryWriter(16).uvarint(input).finish()]).toEqual(referenceVarint(value));
      }),
    );
    expect(() => new BinaryWriter().uvarint(-1)).toThrow(DevnetError);
    expect(() => new BinaryWriter().uvarint(-1n)).toThrow(DevnetError);
  });

  it("refuses truncated input", () => {
    const bytes = new BinaryWriter().string("hello").finish();
    expect(() => new BinaryReader(bytes.subarray(0, 3)).string()).toThrow(DevnetError);
  });

  it("concatenates more parts than a call takes arguments", () => {
    const parts = Array.from({ length: 300_000 }, (_, i) => new Uint8Array([i & 0xff]));
    const joined = concatList(parts);
    expect(joined.length).toBe(300_000);
    expect(joined[299_999]).toBe(299_999 & 0xff);
  });

  it("property: 256-bit encoding and uint decoding agree with a byte-at-a-time reference", () => {
    const reference = (bytes: Uint8Array) => bytes.reduce((v, b) => (v << 8n) | BigInt(b), 0n);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
        fc.uint8Array({ maxLength: 70 }),
        (value, bytes) => {
          const encoded = encodeU256(value);
          expect(encoded.length).toBe(32);
          expect(reference(encoded)).toBe(value);
          expect(decodeUint(encoded)).toBe(value);
          expect(decodeUint(bytes)).toBe(reference(bytes));
          // A view into a larger buffer reads only its own bytes.
          const padded = new Uint8Array([7, ...bytes, 9]);
          expect(decodeUint(padded.subarray(1, 1 + bytes.length))).toBe(reference(bytes));
        },
      ),
    );
    expect(() => encodeU256(1n << 256n)).toThrow(DevnetError);
  });

  it("property: 64-bit and 256-bit encodings agree with a byte-at-a-time reference at every width", () => {
    const reference = (bytes: Uint8Array) => bytes.reduce((v, b) => (v << 8n) | BigInt(b), 0n);
    // Values of every bit length (uniform 64- or 256-bit values are almost never small).
    const u64 = fc
      .integer({ min: 0, max: 64 })
      .chain((bits) => fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n }));
    fc.assert(
      fc.property(u64, fc.nat({ max: 9 }), fc.nat({ max: 9 }), (value, before, after) => {
        const encoded = encodeU64(value);
        expect(encoded.length).toBe(8);
        expect(reference(encoded)).toBe(value);
        expect(reference(encodeU256(value))).toBe(value);
        expect(decodeUint(encodeU256(value))).toBe(value);
        // At an offset, and in a view into a larger buffer.
        const padded = new Uint8Array([
          ...new Uint8Array(before).fill(0xff),
          ...encoded,
          ...new Uint8Array(after).fill(0xff),
        ]);
        expect(decodeU64(padded, before)).toBe(value);
        expect(decodeU64(padded.subarray(before, before + 8))).toBe(value);
        // Written in place at that offset: the same 8 bytes, the bytes around them untouched.
        const written = new Uint8Array(before + 8 + after).fill(0xff);
        putU64(written, before, value);
        expect(written).toEqual(padded);
        expect(() => decodeU64(padded, before + after + 1)).toThrow(RangeError);
      }),
    );
    expect(() => encodeU64(1n << 64n)).toThrow(DevnetError);
    expect(() => encodeU64(-1n)).toThrow(DevnetError);
    const untouched = new Uint8Array(8).fill(7);
    expect(() => putU64(untouched, 0, 1n << 64n)).toThrow(DevnetError);
    expect(untouched).toEqual(new Uint8Array(8).fill(7));
    expect(() => decodeU64(new Uint8Array(8), -1)).toThrow(RangeError);
  });

  it("property: bytesKey spells each byte as one char, so equal keys are equal bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.uint8Array({ maxLength: 100 }), (a, b) => {
        const key = bytesKey(a);
        expect([...key].map((c) => c.charCodeAt(0))).toEqual([...a]);
        expect(bytesKey(b) === key).toBe(bytesEqual(a, b));
        expect(bytesEqual(a, a)).toBe(true);
        // A view into a larger buffer spells its own bytes only.
        const larger = new Uint8Array([9, ...a, 9]);
        expect(bytesKey(larger.subarray(1, 1 + a.length))).toBe(key);
        expect(bytesKey(larger, 1, 1 + a.length)).toBe(key);
        // A copy is equal however long (native comparison from 64 bytes), and one changed byte is not.
        expect(bytesEqual(a, a.slice())).toBe(true);
        if (a.length > 0) {
          const changed = a.slice();
          changed[changed.length - 1] = ((changed.at(-1) as number) + 1) & 0xff;
          expect(bytesEqual(a, changed)).toBe(false);
        }
      }),
    );
  });

  it("encodes fixed-width integers and hex", () => {
    expect(encodeU256(258n).length).toBe(32);
    expect(decodeUint(encodeU256(258n))).toBe(258n);
    expect(() => encodeU256(-1n)).toThrow(DevnetError);
    expect(toHex(fromHex("00ffA1"))).toBe("00ffa1");
    expect(() => fromHex("abc")).toThrow();
  });

  it("spells hex as Buffer does, at every length and offset", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.nat(8), (bytes, cut) => {
        const view = bytes.subarray(Math.min(cut, bytes.length));
        expect(toHex(view)).toBe(Buffer.from(view).toString("hex"));
        expect(fromHex(toHex(view))).toEqual(view);
      }),
    );
  });
});
