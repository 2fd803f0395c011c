import { isInvalidAmountError, isInvalidArgumentError } from "@perpx/core";
import { EvmWallet } from "@perpx/node-client/wallets";
import { describe, expect, it } from "vitest";
import { bridgeDeposit } from "./bridgeDeposit.js";
import type { ClientContext } from "./client.js";

describe("bridgeDeposit's amount", () => {
  it("is refused as an InvalidAmountError (kind amount, not-positive) when zero or negative, before any call", async () => {
    // No connection at all: the refusal comes before the source chain or the node is asked anything.
    const context = {} as ClientContext;
    const evmSigner = EvmWallet.generate();
    for (const amount of ["0", "0.000000", "-5", "-0.000001"]) {
      const error = await bridgeDeposit(context, { amount, source: "l1", evmSigner }).catch(
        (e: unknown) => e,
      );
      expect(
        isInvalidAmountError(error) && [error.kind, error.reason],
        `${amount}: ${String(error)}`,
      ).toEqual(["amount", "not-positive"]);
    }
    const tooFine = await bridgeDeposit(context, { amount: "0.0000001", source: "l1", evmSigner }).catch(
      (e: unknown) => e,
    );
    expect(isInvalidAmountError(tooFine) && tooFine.reason).toBe("off-grid");
  });
});

describe("bridgeDeposit's receiptTimeoutMs", () => {
  it("is refused by name when it is no positive number of ms, before any call", async () => {
    // A negative one used to time out after the approval was sent (the deposit never sent); NaN
    // never timed out.
    const context = {} as ClientContext;
    const evmSigner = EvmWallet.generate();
    for (const receiptTimeoutMs of [Number.NaN, -1, 0, Number.POSITIVE_INFINITY, "5" as unknown as number]) {
      const error = await bridgeDeposit(context, {
        amount: "5",
        source: "l1",
        evmSigner,
        receiptTimeoutMs,
      }).catch((e: unknown) => e);
      expect(isInvalidArgumentError(error) && error.argument, String(receiptTimeoutMs)).toBe(
        "receiptTimeoutMs",
      );
    }
  });
});
