/**
 * `padKey` against the reference spelling, `value.toString().padStart(width, "0")`, and `idStoreKey`
 * against the template literal over it, asked repeatedly.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { idStoreKey, padKey } from "./records.js";

const value = fc.oneof(
  fc.integer({ min: 0, max: 1100 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, 1023, 1024, 0.5, -1),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
  fc.bigInt({ min: 0n, max: 1100n }),
);

describe("padKey", () => {
  it("spells any value at any width as toString().padStart, however often it is asked", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(value, fc.integer({ min: 0, max: 25 })), { maxLength: 20 }), (asks) => {
        for (const [v, width] of [...asks, ...asks])
          expect(padKey(v, width)).toBe(v.toString().padStart(width, "0"));
      }),
    );
  });
});

describe("idStoreKey", () => {
  it("spells `prefix/<id:10>` as the template literal over padKey, however often it is asked", () => {
    const id = fc.oneof(
      fc.integer({ min: 0, max: 1100 }),
      fc.integer(),
      fc.double(),
      fc.constantFrom(-0, 1023, 1024),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("perp", "funding", "oi", "tier"), id), { maxLength: 20 }),
        (asks) => {
          for (const [prefix, v] of [...asks, ...asks])
            expect(idStoreKey(prefix, v)).toBe(`${prefix}/${padKey(v, 10)}`);
        },
      ),
    );
  });
});
