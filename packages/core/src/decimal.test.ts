import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CANONICAL_DECIMAL_PATTERN, formatExact, parseDecimal, toGrid } from "./decimal.js";

describe("parseDecimal", () => {
  it("reads canonical decimals exactly, and a leading minus", () => {
    expect(parseDecimal("28688.190", "price")).toEqual({ coefficient: 28688190n, exponent: -3 });
    expect(parseDecimal("-0.0015", "amount")).toEqual({ coefficient: -15n, exponent: -4 });
    expect(parseDecimal("007", "amount")).toEqual({ coefficient: 7n, exponent: 0 });
  });

  it("refuses every other written form: spaces, signs, exponents, a bare dot", () => {
    for (const text of [" 1", "1\n", "+1", ".5", "5.", "1e5", "1E-3", "-", "", "1_000", "0x1", "Infinity"]) {
      expect(() => parseDecimal(text, "amount"), text).toThrow(/not-a-decimal|plain digits/);
    }
  });

  it("takes CANONICAL_DECIMAL_PATTERN as the written form (property)", () => {
    const canonical = new RegExp(CANONICAL_DECIMAL_PATTERN);
    fc.assert(
      fc.property(fc.string({ maxLength: 12, unit: fc.constantFrom(..."0123456789.-+eE _") }), (text) => {
        const accepted = (() => {
          try {
            parseDecimal(text, "amount");
            return true;
          } catch {
            return false;
          }
        })();
        expect(accepted).toBe(canonical.test(text.startsWith("-") ? text.slice(1) : text));
      }),
    );
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
