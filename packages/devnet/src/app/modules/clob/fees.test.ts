import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fillFeeQuoteQuantums } from "./fees.js";

describe("fillFeeQuoteQuantums", () => {
  it("charges exact fees exactly", () => {
    expect(fillFeeQuoteQuantums(6_500_000n, 500)).toBe(3_250n);
    expect(fillFeeQuoteQuantums(6_500_000n, -110)).toBe(-715n);
    expect(fillFeeQuoteQuantums(0n, 500)).toBe(0n);
    expect(fillFeeQuoteQuantums(123_456n, 0)).toBe(0n);
  });

  it("rounds a fee up and a rebate toward zero (toward +infinity, as BigMulPpm(..., true))", () => {
    expect(fillFeeQuoteQuantums(1_001n, 500)).toBe(1n); // 0.5005
    expect(fillFeeQuoteQuantums(1n, 1)).toBe(1n); // 0.000001
    expect(fillFeeQuoteQuantums(6_500_001n, 500)).toBe(3_251n); // 3250.0005
    expect(fillFeeQuoteQuantums(1_001n, -110)).toBe(0n); // -0.11011
    expect(fillFeeQuoteQuantums(6_500_001n, -110)).toBe(-715n); // -715.00011
  });

  it("property: the fee is the least integer at or above quote × ppm / 1e6", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 18n }),
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        (quote, ppm) => {
          const fee = fillFeeQuoteQuantums(quote, ppm);
          const exact = quote * BigInt(ppm); // in millionths
          expect(fee * 1_000_000n >= exact).toBe(true);
          expect((fee - 1n) * 1_000_000n < exact).toBe(true);
        },
      ),
    );
  });
});
