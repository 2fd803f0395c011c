import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeI256, encodeI256 } from "./dtypes.js";
import {
  effectiveInitialMarginPpm,
  fundingSettlementPpm,
  isValidTransition,
  marginRequirements,
  marginRequirementsOfNotional,
  netNotional,
} from "./margin.js";

const BTC = { atomicResolution: -10, exponent: -5 };
const pricing = fc.record({
  atomicResolution: fc.integer({ min: -12, max: 0 }),
  exponent: fc.integer({ min: -10, max: 2 }),
  price: fc.bigInt({ min: 1n, max: 10n ** 14n }),
});
const fractions = fc.record({
  initialMarginPpm: fc.integer({ min: 0, max: 1_000_000 }),
  maintenanceFractionPpm: fc.integer({ min: 0, max: 1_000_000 }),
});
const quantums = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n });

describe("margin math", () => {
  it("prices the reference example exactly: 0.01 BTC at $28,688 is $286.88", () => {
    expect(netNotional(100_000_000n, { ...BTC, price: 2_868_800_000n })).toBe(286_880_000n);
    expect(netNotional(-100_000_000n, { ...BTC, price: 2_868_800_000n })).toBe(-286_880_000n);
    // 1 BTC at $65,000 in the large-cap tier (5% initial, 60% of it maintenance).
    const margins = marginRequirements(
      10_000_000_000n,
      { ...BTC, price: 6_500_000_000n },
      {
        initialMarginPpm: 50_000,
        maintenanceFractionPpm: 600_000,
      },
    );
    expect(margins).toEqual({ initial: 3_250_000_000n, maintenance: 1_950_000_000n });
  });

  it("property: at a non-negative price, the margins of |netNotional| are marginRequirements'", () => {
    const anyPrice = fc.record({
      atomicResolution: fc.integer({ min: -12, max: 0 }),
      exponent: fc.integer({ min: -10, max: 2 }),
      price: fc.bigInt({ min: 0n, max: 10n ** 14n }),
    });
    const imf = fc.option(fc.bigInt({ min: 0n, max: 1_000_000n }), { nil: undefined });
    fc.assert(
      fc.property(quantums, anyPrice, fractions, imf, (q, p, f, i) => {
        const net = netNotional(q, p);
        const absolute = net < 0n ? -net : net;
        expect(marginRequirementsOfNotional(absolute, f, i)).toEqual(marginRequirements(q, p, f, i));
      }),
    );
  });

  it("property: initial >= maintenance >= 0, and both are the same for a long and a short", () => {
    fc.assert(
      fc.property(quantums, pricing, fractions, (q, p, f) => {
        const long = marginRequirements(q, p, f);
        expect(long.initial >= long.maintenance).toBe(true);
        expect(long.maintenance >= 0n).toBe(true);
        expect(marginRequirements(-q, p, f)).toEqual(long);
      }),
    );
  });

  it("rounds as the chain: the notional truncated toward zero, then two ceilings for the maintenance margin", () => {
    // 1 base quantum = 1 quote quantum at this pricing; a 10 quantum price step gives fractions.
    const unit = { atomicResolution: -10, price: 1n, exponent: 4 };
    const tier = { initialMarginPpm: 10_000, maintenanceFractionPpm: 600_000 };
    // n = 110: initial ⌈1.1⌉ = 2; maintenance ⌈2 × 0.6⌉ = 2 (one ceiling of 110 × 0.6% would be 1).
    expect(marginRequirements(110n, unit, tier)).toEqual({ initial: 2n, maintenance: 2n });
    // 0.15 quote quantums per base quantum: -10 quantums are -1.5, truncated to -1 (not floored to -2).
    const tenth = { atomicResolution: -10, price: 15n, exponent: 2 };
    expect(netNotional(-10n, tenth)).toBe(-1n);
    expect(netNotional(10n, tenth)).toBe(1n);
    // 1,099 quantums are 164.85 quote quantums: the margins start from the truncated 164.
    expect(marginRequirements(1_099n, tenth, tier)).toEqual({ initial: 2n, maintenance: 2n });
    expect(
      marginRequirements(1_099n, tenth, { initialMarginPpm: 1_000_000, maintenanceFractionPpm: 1_000_000 }),
    ).toEqual({
      initial: 164n,
      maintenance: 164n,
    });
  });

  it("property: margins grow with size and stay within one quote quantum above the exact notional's", () => {
    fc.assert(
      fc.property(quantums, fc.bigInt({ min: 1n, max: 1000n }), pricing, fractions, (q, k, p, f) => {
        const one = marginRequirements(q, p, f);
        const many = marginRequirements(q * k, p, f);
        expect(many.initial >= one.initial && many.maintenance >= one.maintenance).toBe(true);
        // The exact |notional| as num / den: the truncated notional is at most one quantum below it.
        const shift = p.exponent + p.atomicResolution + 6;
        const abs = q < 0n ? -q : q;
        const num = shift >= 0 ? abs * p.price * 10n ** BigInt(shift) : abs * p.price;
        const den = shift >= 0 ? 1n : 10n ** BigInt(-shift);
        const imf = BigInt(f.initialMarginPpm);
        expect(one.initial * 1_000_000n * den >= (num - den) * imf).toBe(true);
        expect(one.initial * 1_000_000n * den < num * imf + 1_000_000n * den).toBe(true);
      }),
    );
  });

  it("property: a rising funding index makes longs pay and shorts receive", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (size, from, rise) => {
          expect(fundingSettlementPpm(size, from, from + rise) <= 0n).toBe(true);
          expect(fundingSettlementPpm(-size, from, from + rise) >= 0n).toBe(true);
          expect(fundingSettlementPpm(size, from, from)).toBe(0n);
        },
      ),
    );
    // 1 BTC (1e10 quantums) with the index up by 1000: pays 1e10 × 1000 millionths = $10.
    expect(fundingSettlementPpm(10_000_000_000n, 0n, 1000n)).toBe(-10_000_000n * 1_000_000n);
  });

  it("allows a transition that meets initial margin, or that reduces risk without worsening the ratio", () => {
    const healthy = { netCollateral: 100n, initial: 50n, maintenance: 30n };
    expect(isValidTransition(healthy, { netCollateral: 50n, initial: 50n, maintenance: 30n })).toEqual({
      ok: true,
    });
    expect(isValidTransition(healthy, { netCollateral: 49n, initial: 50n, maintenance: 30n }).ok).toBe(false);
    const under = { netCollateral: 40n, initial: 50n, maintenance: 30n };
    expect(isValidTransition(under, { netCollateral: 20n, initial: 25n, maintenance: 15n })).toEqual({
      ok: true,
    });
    expect(isValidTransition(under, { netCollateral: 10n, initial: 25n, maintenance: 15n }).ok).toBe(false);
    expect(isValidTransition(under, { netCollateral: -1n, initial: 0n, maintenance: 0n }).ok).toBe(false);
  });
});

describe("integer encodings", () => {
  it("property: the 32-byte stored form round-trips", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(1n << 255n), max: (1n << 255n) - 1n }), (v) => {
        const stored = encodeI256(v);
        expect(stored.length).toBe(32);
        expect(decodeI256(stored)).toBe(v);
      }),
    );
  });
});

describe("effective initial margin fraction", () => {
  const caps = { openInterestLowerCap: 1_000_000n, openInterestUpperCap: 5_000_000n };
  it("scales linearly with open interest between the caps, and takes a higher leverage choice", () => {
    expect(effectiveInitialMarginPpm(50_000, caps, 1_000_000n, 0)).toBe(50_000n);
    expect(effectiveInitialMarginPpm(50_000, caps, 3_000_000n, 0)).toBe(525_000n);
    expect(effectiveInitialMarginPpm(50_000, caps, 5_000_000n, 0)).toBe(1_000_000n);
    expect(effectiveInitialMarginPpm(50_000, caps, 1_000_001n, 0)).toBe(50_000n);
    expect(effectiveInitialMarginPpm(50_000, caps, 1_000_000n, 200_000)).toBe(200_000n);
    expect(effectiveInitialMarginPpm(50_000, caps, 3_000_000n, 200_000)).toBe(525_000n);
    const off = { openInterestLowerCap: 0n, openInterestUpperCap: 0n };
    expect(effectiveInitialMarginPpm(50_000, off, 10n ** 18n, 0)).toBe(50_000n);
  });

  it("never goes below the tier's fraction nor above 100% (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (imf, lower, span, oi, custom) => {
          const ppm = effectiveInitialMarginPpm(
            imf,
            { openInterestLowerCap: lower, openInterestUpperCap: lower + span },
            oi,
            custom,
          );
          return ppm >= BigInt(imf) && ppm >= BigInt(custom) && ppm <= 1_000_000n;
        },
      ),
    );
  });
});
