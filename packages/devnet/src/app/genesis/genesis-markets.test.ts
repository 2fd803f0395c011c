import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_MARKETS, devnetMarkets, LIQUIDITY_TIER, MAX_MARKETS } from "./genesis-markets.js";

/** price_usd = price × 10^exponent, as a float (enough for magnitudes). */
const usd = (m: { price: bigint; exponent: number }) => Number(m.price) * 10 ** m.exponent;

describe("devnetMarkets", () => {
  it("keeps the three default markets first and unchanged", () => {
    const markets = devnetMarkets(250, 7n);
    expect(markets.slice(0, 3)).toEqual(DEFAULT_MARKETS);
    expect(markets.map((m) => m.pair).slice(0, 3)).toEqual(["BTC-USD", "ETH-USD", "SOL-USD"]);
    expect(devnetMarkets(3, 7n)).toEqual(DEFAULT_MARKETS);
  });

  it("is the same for the same seed and differs for another", () => {
    expect(devnetMarkets(250, 7n)).toEqual(devnetMarkets(250, 7n));
    expect(devnetMarkets(250, 8n).map((m) => m.pair)).not.toEqual(devnetMarkets(250, 7n).map((m) => m.pair));
    // A longer list extends a shorter one.
    expect(devnetMarkets(250, 7n).slice(0, 100)).toEqual(devnetMarkets(100, 7n));
  });

  it("fills the liquidity tiers as the real list does: small-cap, long-tail, then isolated", () => {
    const markets = devnetMarkets(250, 1n);
    const count = (tier: number) => markets.filter((m) => m.liquidityTier === tier).length;
    expect(count(LIQUIDITY_TIER.largeCap)).toBe(2);
    expect(count(LIQUIDITY_TIER.smallCap)).toBe(28);
    expect(count(LIQUIDITY_TIER.longTail)).toBe(60);
    expect(count(LIQUIDITY_TIER.isolated)).toBe(160);
    for (const m of markets) {
      expect(m.marketType === 2).toBe(m.liquidityTier === LIQUIDITY_TIER.isolated);
    }
  });

  it("derives resolution, step and tick from the price as the listing does (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.integer({ min: 4, max: 60 }),
        (seed, n) => {
          const markets = devnetMarkets(n, seed);
          expect(markets).toHaveLength(n);
          expect(new Set(markets.map((m) => m.pair)).size).toBe(n);
          for (const m of markets.slice(3)) {
            expect(m.pair).toMatch(/^[A-Z]{3,5}-USD$/);
            // Ten significant digits.
            expect(m.price >= 1_000_000_000n && m.price < 10_000_000_000n).toBe(true);
            const magnitude = m.exponent + 9;
            expect(m.atomicResolution).toBe(-6 - magnitude);
            expect(usd(m)).toBeGreaterThanOrEqual(10 ** magnitude * 0.999_999);
            expect(usd(m)).toBeLessThan(10 ** (magnitude + 1));
            expect(m.stepBaseQuantums).toBe(1_000_000n);
            expect(m.subticksPerTick).toBe(1_000_000);
            expect(m.quantumConversionExponent).toBe(-9);
            // One step is worth 1 to 10 USD; one tick 0.01% to 0.1% of the price.
            const stepUsd = Number(m.stepBaseQuantums) * 10 ** m.atomicResolution * usd(m);
            expect(stepUsd).toBeGreaterThanOrEqual(0.999_999);
            expect(stepUsd).toBeLessThan(10);
            const tickUsd = m.subticksPerTick * 10 ** (m.quantumConversionExponent - m.atomicResolution - 6);
            expect(tickUsd / usd(m)).toBeGreaterThan(0.000_099_999);
            expect(tickUsd / usd(m)).toBeLessThanOrEqual(0.001);
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  it("refuses a count outside 3..500", () => {
    expect(() => devnetMarkets(2, 1n)).toThrow("markets must be an integer from 3 to 500, got 2");
    expect(() => devnetMarkets(MAX_MARKETS + 1, 1n)).toThrow(RangeError);
    expect(() => devnetMarkets(3.5, 1n)).toThrow(RangeError);
  });
});
