import { DirectSecp256k1Wallet } from "@cosmjs/proto-signing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fundedAddresses, fundedSubaccountKey } from "./funded-subaccounts.js";

describe("funded subaccount keys", () => {
  it("walks the same addresses as each key derived on its own (property)", () => {
    const addresses = fundedAddresses(2_100);
    expect(new Set(addresses).size).toBe(2_100);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_099 }), (index) => {
        expect(fundedSubaccountKey(index).address).toBe(addresses[index]);
      }),
      { numRuns: 40 },
    );
    expect(fundedSubaccountKey(2_099).address).toBe(addresses[2_099]);
    expect(fundedAddresses(0)).toEqual([]);
  });

  it("gives a key cosmjs signs with for the same address", async () => {
    const key = fundedSubaccountKey(42);
    const wallet = await DirectSecp256k1Wallet.fromKey(key.privateKey, "perpx");
    const [account] = await wallet.getAccounts();
    expect(account?.address).toBe(key.address);
    expect(account?.pubkey).toEqual(key.publicKey);
    expect(key.address).toMatch(/^perpx1[02-9ac-hj-np-z]{38}$/);
  });

  it("refuses an index out of range", () => {
    expect(() => fundedSubaccountKey(-1)).toThrow(
      "funded subaccount index must be an integer from 0 to 999999, got -1",
    );
    expect(() => fundedSubaccountKey(1.5)).toThrow(RangeError);
    expect(() => fundedAddresses(-1)).toThrow(RangeError);
  });
});
