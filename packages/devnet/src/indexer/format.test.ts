/**
 * The indexer's decimal text: exact `value × 10^exponent`, and quotients rounded half up as the
 * reference's Big.js divides (checked against a plain reference implementation).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ratio, scaled } from "./format.js";

/** A slow, obviously right `value × 10^exponent` (string shifting, zeros trimmed). */
function reference(value: bigint, exponent: number): string {
  if (exponent >= 0) return (value * 10n ** BigInt(exponent)).toString();
  const sign = value < 0n ? "-" : "";
  const digits = (value < 0n ? -value : value).toString();
  const padded = digits.length <= -exponent ? "0".repeat(-exponent - digits.length + 1) + digits : digits;
  const whole = padded.slice(0, padded.length + exponent);
  const fraction = padded.slice(padded.length + exponent).replace(/0+$/, "");
  const text = fraction === "" ? whole : `${whole}.${fraction}`;
  return text === "0" ? "0" : sign + text;
}

describe("scaled", () => {
  it("prints exact decimals", () => {
    expect(scaled(6_500_000_000n, -5)).toBe("65000");
    expect(scaled(-12_500_000n, -6)).toBe("-12.5");
    expect(scaled(5n, -12)).toBe("0.000000000005");
    expect(scaled(0n, -6)).toBe("0");
    expect(scaled(-1n, 0)).toBe("-1");
    expect(scaled(3n, 2)).toBe("300");
  });

  it("agrees with the reference for any integer and exponent", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: -24, max: 6 }),
        (v, e) => {
          expect(scaled(v, e)).toBe(reference(v, e));
        },
      ),
    );
  });
});

describe("ratio", () => {
  it("divides with 20 decimals, half up", () => {
    expect(ratio(65_000_000_000n, 1_000_000n, -5)).toBe("0.65");
    expect(ratio(1n, 3n, 0)).toBe("0.33333333333333333333");
    expect(ratio(2n, 3n, 0)).toBe("0.66666666666666666667");
    expect(ratio(-2n, 3n, 0)).toBe("-0.66666666666666666667");
    expect(ratio(1n, -4n, 0)).toBe("-0.25");
  });

  it("is exact when the quotient terminates", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: -12, max: 2 }),
        (v, k, e) => {
          const den = 2n ** BigInt(k) * 5n ** BigInt(6 - k);
          expect(ratio(v * den, den, e)).toBe(scaled(v, e));
        },
      ),
    );
  });
});
