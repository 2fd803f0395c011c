import { isInvalidArgumentError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import { feeForGas } from "./fees.js";
import { MINIMUM_GAS_PRICES } from "./networks.js";

describe("feeForGas", () => {
  it("multiplies the gas limit by the minimum gas price", () => {
    expect(feeForGas(200_000n, MINIMUM_GAS_PRICES[0]!)).toEqual({
      denom: "aperpx",
      amount: 5_000_000_000_000_000n,
    });
    expect(feeForGas(200_000n, MINIMUM_GAS_PRICES[1]!)).toEqual({ denom: "uusdc", amount: 5_000n });
    expect(feeForGas("0", MINIMUM_GAS_PRICES[1]!)).toEqual({ denom: "uusdc", amount: 0n });
  });

  it("rounds a fractional fee up, as the SDK's check does", () => {
    expect(feeForGas(1n, MINIMUM_GAS_PRICES[1]!).amount).toBe(1n);
    expect(feeForGas(41n, MINIMUM_GAS_PRICES[1]!).amount).toBe(2n); // 1.025
    expect(feeForGas(40n, MINIMUM_GAS_PRICES[1]!).amount).toBe(1n); // exactly 1
  });

  it("refuses a negative gas limit and a bad price", () => {
    for (const fn of [
      () => feeForGas(-1n, MINIMUM_GAS_PRICES[1]!),
      () => feeForGas(1n, { denom: "uusdc", amount: "abc" }),
      () => feeForGas(1n, { denom: "uusdc", amount: "-0.1" }),
      () => feeForGas(1.5, MINIMUM_GAS_PRICES[1]!),
    ]) {
      let caught: unknown;
      try {
        fn();
      } catch (error) {
        caught = error;
      }
      expect(isInvalidArgumentError(caught)).toBe(true);
    }
  });
});
