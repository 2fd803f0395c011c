import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gasWithMultiplier } from "./send.js";

describe("gasWithMultiplier", () => {
  it("is the exact ceiling of gas × the multiplier as written, never a unit above", () => {
    // Each double product lands just above the integer (100_000 × 1.1 = 110000.00000000001).
    expect(gasWithMultiplier(100_000n, 1.1)).toBe(110_000n);
    expect(gasWithMultiplier(1_000n, 1.1)).toBe(1_100n);
    expect(gasWithMultiplier(300_000n, 1.15)).toBe(345_000n);
    expect(gasWithMultiplier(100_000n, 1.6)).toBe(160_000n);
    expect(gasWithMultiplier(100_001n, 1.5)).toBe(150_002n); // 150001.5 rounds up
  });

  it("keeps every digit of a gas figure past 2^53", () => {
    const gas = 2n ** 60n + 1n;
    expect(gasWithMultiplier(gas, 1)).toBe(gas);
    expect(gasWithMultiplier(gas, 2)).toBe(2n * gas);
  });

  it("equals ceil(gas × hundredths / 100) for every multiplier written with two decimals", () => {
    fc.assert(
      fc.property(
        // whole multiples of 100 too, where the exact product is an integer a double overshoots
        fc.oneof(
          fc.bigInt({ min: 0n, max: 10n ** 12n }),
          fc.bigInt({ min: 0n, max: 10n ** 10n }).map((k) => k * 100n),
        ),
        fc.integer({ min: 100, max: 1_000 }),
        (gas, hundredths) => {
          const exact = (gas * BigInt(hundredths) + 99n) / 100n;
          expect(gasWithMultiplier(gas, hundredths / 100)).toBe(exact);
        },
      ),
    );
  });

  it("refuses a multiplier that is not a positive finite number", () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => gasWithMultiplier(1n, bad)).toThrow(/gasMultiplier/);
    }
  });
});
