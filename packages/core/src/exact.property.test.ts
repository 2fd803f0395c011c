/**
 * Property tests of {@link Exact} against a bigint oracle over the whole range of amounts the chain
 * allows: u64 quantums (signed, for PnL and debts) at 0 to 18 decimals (USDC's 6, a token's 18),
 * and prices of up to 20 integer digits. The oracle brings every value to one scale (10^-36) and
 * does integer arithmetic, rounds by floor division (the class rounds from a truncated quotient),
 * and formats with division and remainder (the class pads a digit string).
 */
import { Decimal } from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Exact } from "./exact.js";
import type { ExactRounding } from "./exact-math.js";

const RUNS = { numRuns: 2_000 };
const U64_MAX = (1n << 64n) - 1n;
const SCALE = 36;
const ROUNDINGS: ExactRounding[] = [
  "ceil",
  "floor",
  "expand",
  "trunc",
  "halfCeil",
  "halfFloor",
  "halfExpand",
  "halfTrunc",
  "halfEven",
];

/** An amount: `units × 10^-decimals`, units a signed u64 (or a 20-digit integer price). */
interface Amount {
  units: bigint;
  decimals: number;
}

const amount: fc.Arbitrary<Amount> = fc.record({
  units: fc.oneof(
    fc.bigInt({ min: -U64_MAX, max: U64_MAX }),
    fc.bigInt({ min: -(10n ** 20n) + 1n, max: 10n ** 20n - 1n }),
    fc.bigInt({ min: -1000n, max: 1000n }),
    fc.constantFrom(0n, 1n, -1n, U64_MAX, -U64_MAX, 5n, -5n, 15n, -25n),
  ),
  decimals: fc.integer({ min: 0, max: 18 }),
});
const rounding = fc.constantFrom(...ROUNDINGS);

const pow10 = (n: number) => 10n ** BigInt(n);
/** The amount as an integer count of 10^-36. */
const atScale = (a: Amount) => a.units * pow10(SCALE - a.decimals);

/** `value × 10^-scale` in plain notation, no trailing zeros, by division and remainder. */
function oracleText(value: bigint, scale: number): string {
  const magnitude = value < 0n ? -value : value;
  const whole = magnitude / pow10(scale);
  let fraction = (magnitude % pow10(scale)).toString().padStart(scale, "0");
  while (fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  const text = fraction === "" ? whole.toString() : `${whole}.${fraction}`;
  return value < 0n && magnitude !== 0n ? `-${text}` : text;
}

/** `value × 10^-scale` with exactly `scale` fraction digits. */
function oracleFixed(value: bigint, scale: number): string {
  const magnitude = value < 0n ? -value : value;
  const whole = magnitude / pow10(scale);
  const fraction = (magnitude % pow10(scale)).toString().padStart(scale, "0");
  const text = scale === 0 ? whole.toString() : `${whole}.${fraction}`;
  return value < 0n ? `-${text}` : text;
}

/** `n / d` (d > 0) rounded to an integer, from the floor and the remainder. */
function oracleRound(n: bigint, d: bigint, mode: ExactRounding): bigint {
  let floor = n / d;
  if (n % d !== 0n && n < 0n) floor -= 1n;
  const remainder = n - floor * d; // 0 <= remainder < d
  if (remainder === 0n) return floor;
  const ceil = floor + 1n;
  const trunc = n < 0n ? ceil : floor;
  const expand = n < 0n ? floor : ceil;
  const directed = { floor, ceil, trunc, expand } as Record<string, bigint>;
  const simple = directed[mode];
  if (simple !== undefined) return simple;
  if (2n * remainder < d) return floor;
  if (2n * remainder > d) return ceil;
  const ties: Record<string, bigint> = {
    halfFloor: floor,
    halfCeil: ceil,
    halfTrunc: trunc,
    halfExpand: expand,
    halfEven: floor % 2n === 0n ? floor : ceil,
  };
  return ties[mode] as bigint;
}

const exact = (a: Amount) => new Exact(oracleText(a.units, a.decimals));

describe("Exact against a bigint oracle", () => {
  it("adds and subtracts exactly", () => {
    fc.assert(
      fc.property(amount, amount, (a, b) => {
        expect(exact(a).plus(exact(b)).toString()).toBe(oracleText(atScale(a) + atScale(b), SCALE));
        expect(exact(a).minus(exact(b)).toString()).toBe(oracleText(atScale(a) - atScale(b), SCALE));
      }),
      RUNS,
    );
  });

  it("multiplies exactly, products of products too", () => {
    fc.assert(
      fc.property(amount, amount, amount, (a, b, c) => {
        const product = a.units * b.units;
        expect(exact(a).times(exact(b)).toString()).toBe(oracleText(product, a.decimals + b.decimals));
        expect(exact(a).times(exact(b)).times(exact(c)).toString()).toBe(
          oracleText(product * c.units, a.decimals + b.decimals + c.decimals),
        );
      }),
      RUNS,
    );
  });

  it("compares as the integers at one scale compare", () => {
    fc.assert(
      fc.property(amount, amount, (a, b) => {
        const x = atScale(a);
        const y = atScale(b);
        const expected = x < y ? -1 : x > y ? 1 : 0;
        expect(exact(a).comparedTo(exact(b))).toBe(expected);
        expect(exact(a).lessThan(exact(b))).toBe(x < y);
        expect(exact(a).greaterThanOrEqualTo(exact(b))).toBe(x >= y);
        expect(exact(a).equals(exact(b))).toBe(x === y);
      }),
      RUNS,
    );
  });

  it("rounds to any number of decimals in every mode", () => {
    fc.assert(
      fc.property(amount, amount, fc.integer({ min: 0, max: 40 }), rounding, (a, b, dp, mode) => {
        // products have up to 36 decimals: round those too
        const product = { units: a.units * b.units, decimals: a.decimals + b.decimals };
        for (const value of [a, product]) {
          const expected =
            dp >= value.decimals
              ? value.units * pow10(dp - value.decimals)
              : oracleRound(value.units, pow10(value.decimals - dp), mode);
          const text = oracleText(value.units, value.decimals);
          expect(new Exact(text).toFixed(dp, mode)).toBe(oracleFixed(expected, dp));
          expect(new Exact(text).toDecimalPlaces(dp, mode).toString()).toBe(oracleText(expected, dp));
        }
      }),
      RUNS,
    );
  });

  it("divides at an explicit scale or number of significant digits, rounding once", () => {
    const nonZero = amount.filter((a) => a.units !== 0n);
    fc.assert(
      fc.property(amount, nonZero, fc.integer({ min: 0, max: 40 }), rounding, (a, b, scale, mode) => {
        // a ÷ b × 10^scale = (ua × 10^(db + scale)) ÷ (ub × 10^da)
        let n = a.units * pow10(b.decimals + scale);
        let d = b.units * pow10(a.decimals);
        if (d < 0n) [n, d] = [-n, -d];
        const quotient = exact(a).dividedBy(exact(b), { scale, rounding: mode });
        expect(quotient.toString()).toBe(oracleText(oracleRound(n, d, mode), scale));
      }),
      RUNS,
    );
    fc.assert(
      fc.property(nonZero, nonZero, fc.integer({ min: 1, max: 40 }), rounding, (a, b, digits, mode) => {
        let n = a.units * pow10(b.decimals);
        let d = b.units * pow10(a.decimals);
        if (d < 0n) [n, d] = [-n, -d];
        const magnitude = n < 0n ? -n : n;
        // the exponent e with 10^e <= |a ÷ b| < 10^(e+1), by search
        let e = -80;
        while (magnitude * pow10(80) >= d * pow10(e + 1 + 80)) e++;
        const scale = digits - 1 - e;
        const expected =
          scale >= 0
            ? oracleText(oracleRound(n * pow10(scale), d, mode), scale)
            : oracleText(oracleRound(n, d * pow10(-scale), mode) * pow10(-scale), 0);
        expect(exact(a).dividedBy(exact(b), { significantDigits: digits, rounding: mode }).toString()).toBe(
          expected,
        );
      }),
      RUNS,
    );
  });

  it("reads every written form and writes it back in plain notation", () => {
    const HighPrecision = Decimal.clone({ precision: 200 });
    fc.assert(
      fc.property(amount, fc.nat({ max: 40 }), fc.nat({ max: 3 }), (a, zeros, lead) => {
        const text = oracleText(a.units, a.decimals);
        const magnitude = a.units < 0n ? -a.units : a.units;
        const sign = a.units < 0n ? "-" : "";
        const padded = text.includes(".")
          ? `${text}${"0".repeat(zeros)}`
          : `${text}.${"0".repeat(zeros + 1)}`;
        const written = [
          text,
          padded,
          `${sign}${"0".repeat(lead)}${magnitude}e-${a.decimals}`,
          `${sign}${magnitude}${"0".repeat(zeros)}E${-a.decimals - zeros}`,
          new HighPrecision(text),
          a.decimals === 0 ? a.units : text,
        ];
        for (const form of written) {
          const value = new Exact(form);
          expect(value.toString()).toBe(text);
          expect(value.toFixed()).toBe(text);
          expect(new Exact(value.toString()).equals(value)).toBe(true);
          expect(JSON.parse(JSON.stringify({ value }))).toEqual({ value: text });
        }
        expect(Exact.fromUnits(a.units, a.decimals).toString()).toBe(text);
        expect(text).not.toMatch(/e/i);
      }),
      RUNS,
    );
  });
});
