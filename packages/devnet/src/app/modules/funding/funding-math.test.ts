import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  clampAbs,
  fundingIndexDelta,
  maxAbsClampPpm,
  meanTowardZero,
  medianAwayFromZero,
  padWithZeros,
} from "./funding-math.js";

const LARGE_CAP = { initialMarginPpm: 50_000, maintenanceFractionPpm: 600_000 };

describe("funding arithmetic", () => {
  it("takes the median of an even count as the middle pair's mean, away from zero", () => {
    expect(medianAwayFromZero([3n])).toBe(3n);
    expect(medianAwayFromZero([1n, 2n])).toBe(2n);
    expect(medianAwayFromZero([-2n, -1n])).toBe(-2n);
    expect(medianAwayFromZero([-3n, 2n])).toBe(-1n);
    expect(medianAwayFromZero([5n, 0n, 0n, 0n])).toBe(0n);
    expect(() => medianAwayFromZero([])).toThrow(RangeError);
  });

  it("keeps a median between the smallest and largest value, and symmetric under negation", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { minLength: 1 }), (raw) => {
        const values = raw.map(BigInt);
        const m = medianAwayFromZero(values);
        const sorted = [...values].sort((a, b) => (a < b ? -1 : 1));
        expect(m >= (sorted[0] as bigint) && m <= (sorted.at(-1) as bigint)).toBe(true);
        expect(medianAwayFromZero(values.map((v) => -v))).toBe(-m);
      }),
    );
  });

  it("averages toward zero", () => {
    expect(meanTowardZero([10n, 0n, 0n])).toBe(3n);
    expect(meanTowardZero([-10n, 0n, 0n])).toBe(-3n);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { minLength: 1 }), (raw) => {
        const values = raw.map(BigInt);
        const mean = meanTowardZero(values);
        const sum = values.reduce((a, b) => a + b, 0n);
        const n = BigInt(values.length);
        // |sum - mean × n| < n, and the remainder has the sign of the sum.
        const rest = sum - mean * n;
        expect(rest < n && rest > -n).toBe(true);
        expect(rest === 0n || rest > 0n === sum > 0n).toBe(true);
      }),
    );
  });

  it("pads stored premiums with zeros to the rounds or the minimum, whichever is more", () => {
    expect(padWithZeros([5n], 2, 4)).toEqual([5n, 0n, 0n, 0n]);
    expect(padWithZeros([5n, 6n], 70, 60)).toHaveLength(70);
    expect(padWithZeros([], 0, 15)).toEqual(Array(15).fill(0n));
  });

  it("clamps the rate to 6 × (IMF − MMF) and votes to 60 × (IMF − MMF)", () => {
    expect(maxAbsClampPpm(LARGE_CAP, 6_000_000)).toBe(120_000n);
    expect(maxAbsClampPpm(LARGE_CAP, 60_000_000)).toBe(1_200_000n);
    expect(maxAbsClampPpm({ initialMarginPpm: 1_000_000, maintenanceFractionPpm: 200_000 }, 6_000_000)).toBe(
      4_800_000n,
    );
    expect(clampAbs(200_000n, 120_000n)).toBe(120_000n);
    expect(clampAbs(-200_000n, 120_000n)).toBe(-120_000n);
    expect(clampAbs(5n, 120_000n)).toBe(5n);
  });

  it("moves the index by an 8-hour rate over the tick, truncated toward zero", () => {
    // BTC at $65,000: 100 ppm for an hour is 3600 × 100 × 6.5e9 / 1e9 / 28,800 = 81.25.
    expect(fundingIndexDelta(100n, 3600n, -10, 6_500_000_000n, -5)).toBe(81n);
    expect(fundingIndexDelta(-100n, 3600n, -10, 6_500_000_000n, -5)).toBe(-81n);
    expect(fundingIndexDelta(0n, 3600n, -10, 6_500_000_000n, -5)).toBe(0n);
    // A positive price exponent multiplies.
    expect(fundingIndexDelta(8n, 3600n, 0, 1n, 0)).toBe(1_000_000n);
  });
});
