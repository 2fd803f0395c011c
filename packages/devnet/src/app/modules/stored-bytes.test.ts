/**
 * The slab-carved store bytes against plain allocation: each is zeroed, of the length asked, and
 * its own (writing one changes no other); the UTF-8 of a text is `utf8`'s, for any text.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utf8 } from "../lib/codec.js";
import { storeBytes, storeUtf8 } from "./stored-bytes.js";

describe("store bytes", () => {
  it("are zeroed, of the length asked, and each its own", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1500 }), { minLength: 1, maxLength: 40 }), (lengths) => {
        const all = lengths.map((length) => {
          const bytes = storeBytes(length);
          expect(bytes.length).toBe(length);
          expect(bytes.every((b) => b === 0)).toBe(true);
          return bytes;
        });
        all.forEach((bytes, i) => {
          bytes.fill(i + 1);
        });
        all.forEach((bytes, i) => {
          expect(bytes.every((b) => b === i + 1)).toBe(true);
        });
      }),
    );
  });

  it("spell a text as utf8 does", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 600 }),
      fc.string({ unit: "grapheme", maxLength: 300 }),
      fc.string({ unit: "binary", maxLength: 300 }),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(storeUtf8(t)).toEqual(utf8(t));
      }),
    );
    expect(storeUtf8("é".repeat(400))).toEqual(utf8("é".repeat(400)));
  });
});
