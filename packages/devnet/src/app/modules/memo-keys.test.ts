/** The kept memo-key spellings against the plain template literal. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { idKey, ownerKey } from "./memo-keys.js";

const ids = fc.oneof(
  fc.integer({ min: 0, max: 1100 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, Number.NaN, 1023, 1024),
);

describe("idKey and ownerKey", () => {
  it("spell `prefix/id` and `prefix/owner/number` as a template literal does, repeat after repeat", () => {
    fc.assert(
      fc.property(fc.constantFrom("perp", "tier", "sub"), fc.string(), ids, (prefix, owner, id) => {
        for (let i = 0; i < 2; i++) {
          expect(idKey(prefix, id)).toBe(`${prefix}/${id}`);
          expect(ownerKey(prefix, owner, id)).toBe(`${prefix}/${owner}/${id}`);
        }
      }),
    );
  });
});
