/**
 * `searchKind` on `<address>/<subaccount>/<client id>`: every subaccount number the chain has (a
 * child's up to 128000) names a client id search; a number above that is no subaccount.
 */
import { expect, it } from "vitest";
import { searchKind } from "../src/app/pages/search.js";

const ADDRESS = "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc";

it("a child subaccount's number (up to 128000) is a client id search; above it, nothing", () => {
  for (const n of [0, 127, 128, 1_000, 12_345, 128_000]) {
    expect(searchKind(`${ADDRESS}/${n}/7`), String(n)).toBe("client-id");
  }
  for (const n of ["128001", "999999", "1234567"]) {
    expect(searchKind(`${ADDRESS}/${n}/7`), n).toBe("unknown");
  }
});
