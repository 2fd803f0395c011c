/** The kept subaccount store keys against their plain spelling, and an invalid owner refused as before. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accAddressBytes, addressKey } from "../../lib/addresses.js";
import { padKey } from "../records.js";
import { storeKeysOf } from "./store-keys.js";

const owners = [
  "perpx1qyqszqgpqyqszqgpqyqszqgpqyqszqgpmz98xe",
  "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9",
];
const numbers = fc.oneof(
  fc.integer({ min: 0, max: 1100 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, 1023, 1024),
);

describe("storeKeysOf", () => {
  it("spells `usdc/<owner hex>/<number:10>` and `pos/<owner hex>/<number:10>/`, however often it is asked", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...owners), numbers), { maxLength: 20 }), (asks) => {
        for (const [owner, number] of [...asks, ...asks]) {
          const k = `${addressKey(accAddressBytes(owner))}/${padKey(number, 10)}`;
          expect(storeKeysOf({ owner, number })).toEqual({ usdc: `usdc/${k}`, positions: `pos/${k}/` });
        }
      }),
    );
  });

  it("refuses an invalid owner as accAddressBytes does, every time", () => {
    for (const owner of ["", "perpx1invalid", "0x00"]) {
      let expected = "";
      try {
        accAddressBytes(owner);
      } catch (error) {
        expected = (error as Error).message;
      }
      for (let i = 0; i < 2; i++) expect(() => storeKeysOf({ owner, number: 0 })).toThrow(expected);
    }
  });
});
