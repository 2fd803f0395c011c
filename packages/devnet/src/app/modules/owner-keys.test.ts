/** The kept owner spellings against `addressKey(accAddressBytes(owner))`, invalid owners refused as before. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accAddressBytes, addressKey } from "../lib/addresses.js";
import { ownerAddressKey } from "./owner-keys.js";

const owners = fc.oneof(
  fc.constantFrom(
    "perpx1qyqszqgpqyqszqgpqyqszqgpqyqszqgpmz98xe",
    "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9",
    "",
    "0xabc",
  ),
  fc.string(),
);

/** What `f` returns, or the message it throws. */
function outcome(f: () => string): string {
  try {
    return f();
  } catch (error) {
    return `throws ${(error as Error).message}`;
  }
}

describe("ownerAddressKey", () => {
  it("is addressKey(accAddressBytes(owner)), or throws as it, however often it is asked", () => {
    fc.assert(
      fc.property(fc.array(owners, { maxLength: 10 }), (asks) => {
        for (const owner of [...asks, ...asks]) {
          expect(outcome(() => ownerAddressKey(owner))).toBe(
            outcome(() => addressKey(accAddressBytes(owner))),
          );
        }
      }),
    );
  });
});
