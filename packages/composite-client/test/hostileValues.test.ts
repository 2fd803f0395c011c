/**
 * Values no field takes, refused before signing with an error that names the field the caller gave.
 */
import { isInvalidAmountError, isInvalidArgumentError } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { fundedWallet, recordingSigner, useDevnet } from "./support.js";

const net = useDevnet();

describe("hostile values", () => {
  it("deposit, withdraw and transfer refuse a zero or beyond-uint64 amount as the amount, and a bad recipient by name", async () => {
    const { signer, signed } = recordingSigner(await fundedWallet(net.devnet));
    const client = await net.connect({ signer });
    const moves = {
      deposit: (amount: string) => client.deposit({ amount }),
      withdraw: (amount: string) => client.withdraw({ amount }),
      transfer: (amount: string) => client.transfer({ amount, to: { number: 1 } }),
    };
    // 2^64 quote quantums is 18446744073709.551616 USDC: the largest amount is one quantum less.
    const refused = {
      "0": "not-positive",
      "0.000000": "not-positive",
      "18446744073709.551616": "out-of-range",
    };
    for (const [name, move] of Object.entries(moves)) {
      for (const [amount, reason] of Object.entries(refused)) {
        const error = await move(amount).catch((e: unknown) => e);
        const shown = `${name} ${amount}: ${String(error)}`;
        expect(isInvalidAmountError(error) && [error.kind, error.reason], shown).toEqual(["amount", reason]);
      }
    }
    const recipients = [
      `${signer.address.slice(0, -1)}${signer.address.endsWith("q") ? "p" : "q"}`, // bad checksum
      "cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a", // another chain's prefix
    ];
    for (const recipient of recipients) {
      const error = await client.withdraw({ amount: "1", recipient }).catch((e: unknown) => e);
      expect(isInvalidArgumentError(error) && error.argument, String(error)).toBe("recipient");
    }
    expect(signed).toEqual([]);
  });
});
