import { describe, expect, it } from "vitest";
import { impactPrice, premiumPpm } from "./premium.js";

const level = (subticks: bigint, remaining: bigint) => ({ subticks, remaining });
const INDEX = { num: 6_500_000_000n, den: 1n }; // $65,000 at quantum conversion exponent -9

describe("premium votes from impact prices", () => {
  it("averages the fill of the impact notional over the levels, base rounded up", () => {
    // Quantum conversion exponent -1: 500 base at 100 is 5,000 quote quantums, 1,000 at 90 is 9,000.
    const bids = [level(100n, 500n), level(90n, 1_000n)];
    const price = impactPrice(bids, 7_000n, -1);
    // 500 base at 100 (5,000), then 2,000 / 9,000 of 1,000 base = 222.2 → 723 base in all.
    expect(price).toEqual({ num: 70_000n, den: 723n });
    expect(impactPrice(bids, 20_000n, -1)).toBeUndefined();
    expect(impactPrice(bids, 0n, -1)).toEqual({ num: 100n, den: 1n });
    expect(impactPrice([], 0n, -1)).toBeUndefined();
  });

  it("votes impact bid / index − 1 when the index is under the best bid", () => {
    const bids = () => [level(6_565_000_000n, 2_000_000_000n)];
    const asks = () => [level(6_570_000_000n, 2_000_000_000n)];
    expect(premiumPpm(bids, asks, INDEX, 10_000_000_000n, -9, 1_200_000n)).toBe(9_999n);
    // Best price when the impact notional is zero: exactly 1%.
    expect(premiumPpm(bids, asks, INDEX, 0n, -9, 1_200_000n)).toBe(10_000n);
    // Clamped to the vote clamp.
    expect(premiumPpm(bids, asks, INDEX, 0n, -9, 5_000n)).toBe(5_000n);
  });

  it("votes impact ask / index − 1 (negative) when the index is over the best ask", () => {
    const bids = () => [level(6_400_000_000n, 2_000_000_000n)];
    const asks = () => [level(6_435_000_000n, 2_000_000_000n)];
    expect(premiumPpm(bids, asks, INDEX, 0n, -9, 1_200_000n)).toBe(-10_000n);
  });

  it("votes 0 inside the spread, on an empty book and without enough liquidity", () => {
    const bids = () => [level(6_490_000_000n, 2_000_000_000n)];
    const asks = () => [level(6_510_000_000n, 2_000_000_000n)];
    expect(premiumPpm(bids, asks, INDEX, 0n, -9, 1_200_000n)).toBe(0n);
    expect(
      premiumPpm(
        () => [],
        () => [],
        INDEX,
        0n,
        -9,
        1_200_000n,
      ),
    ).toBe(0n);
    const thin = () => [level(6_565_000_000n, 1_000n)];
    expect(premiumPpm(thin, () => [], INDEX, 10_000_000_000n, -9, 1_200_000n)).toBe(0n);
    expect(premiumPpm(bids, asks, { num: 0n, den: 1n }, 0n, -9, 1_200_000n)).toBe(0n);
  });
});
