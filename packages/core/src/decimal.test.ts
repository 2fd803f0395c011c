import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatExact, parseDecimal, toGrid } from "./decimal.js";

describe("parseDecimal", () => {
  it("reads plain and exponent notation exactly", () => {
    expect(parseDecimal("28688.190", "price")).toEqual({ coefficient: 28688190n, exponent: -3 });
    expect(parseDecimal("-1.5e-3", "amount")).toEqual({ coefficient: -15n, exponent: -4 });
    expect(parseDecimal("1E+21", "amount")).toEqual({ coefficient: 1n, exponent: 21 });
    expect(parseDecimal(".5", "amount")).toEqual({ coefficient: 5n, exponent: -1 });
  });

  it("round-trips through formatExact (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
        fc.integer({ min: -60, max: 20 }),
        (n, e) => {
          const text = formatExact(n, e);
          expect(text).toMatch(/^-?(0|[1-9]\d*)(\.\d*[1-9])?$/);
          const parsed = parseDecimal(text, "amount");
          expect(formatExact(parsed.coefficient, parsed.exponent)).toBe(text);
          // same value: n·10^e = c·10^f
          const shift = Math.min(e, parsed.exponent);
          expect(n * 10n ** BigInt(e - shift)).toBe(
            parsed.coefficient * 10n ** BigInt(parsed.exponent - shift),
          );
        },
      ),
    );
  });
});

describe("formatExact", () => {
  it("prints plain decimals without trailing zeros or negative zero", () => {
    expect(formatExact(2_868_800_000n, -5)).toBe("28688");
    expect(formatExact(1n, -10)).toBe("0.0000000001");
    expect(formatExact(-25n, -3)).toBe("-0.025");
    expect(formatExact(0n, -6)).toBe("0");
    expect(formatExact(7n, 3)).toBe("7000");
  });
});

describe("toGrid", () => {
  it("floors toward -∞ for negative values", () => {
    expect(toGrid({ coefficient: -15n, exponent: -1 }, 0, 1n, "down").rounded).toBe(-2n);
    expect(toGrid({ coefficient: -15n, exponent: -1 }, 0, 1n, "up").rounded).toBe(-1n);
    expect(toGrid({ coefficient: 15n, exponent: -1 }, 0, 1n, "exact")).toEqual({
      below: 1n,
      exact: false,
      rounded: 1n,
    });
  });
});
