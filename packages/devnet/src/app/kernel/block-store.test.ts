import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { flatString, sharedFlatString } from "./block-store.js";

describe("sharedFlatString", () => {
  it("answers a string equal to its input, as flatString does, for any text (lone surrogates too)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary", maxLength: 300 }), { maxLength: 30 }), (texts) => {
        for (const text of [...texts, ...texts]) {
          const built = `${text.slice(0, 5)}${text.slice(5)}`;
          expect(sharedFlatString(built)).toBe(text);
          expect(sharedFlatString(built)).toBe(flatString(built));
        }
      }),
    );
  });
});
