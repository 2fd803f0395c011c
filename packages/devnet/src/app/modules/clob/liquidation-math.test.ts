import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marginRequirements, netNotional } from "../subaccounts/margin.js";
import {
  bankruptcyQuoteQuantums,
  fillablePrice,
  fillableSubticks,
  insuranceFundDelta,
  isLiquidatable,
  liquidationSizeDelta,
} from "./liquidation-math.js";

const BTC = { atomicResolution: -10, price: 5_000_000_000n, exponent: -5 }; // $50,000
const TIER = { initialMarginPpm: 50_000, maintenanceFractionPpm: 600_000 }; // MMR 3%
const ONE_BTC = { quantums: 10_000_000_000n, pricing: BTC, fractions: TIER };
const PAIR = { quantumConversionExponent: -9, subticksPerTick: 100_000 };

describe("liquidation math (the reference chain's formulas)", () => {
  it("liquidatable: a maintenance requirement not met", () => {
    expect(isLiquidatable({ netCollateral: 99n, maintenance: 100n })).toBe(true);
    expect(isLiquidatable({ netCollateral: 100n, maintenance: 100n })).toBe(false);
    expect(isLiquidatable({ netCollateral: -5n, maintenance: 0n })).toBe(false);
  });

  it("bankruptcy price, fillable price, insurance fund delta and size by hand", () => {
    const risk = { netCollateral: 1_000_000_000n, maintenance: 1_500_000_000n };
    // Selling 1 BTC at $49,000 leaves zero equity ($1,000 of equity, $1,000 below $50,000).
    expect(bankruptcyQuoteQuantums(risk, ONE_BTC, -10_000_000_000n)).toBe(49_000_000_000n);
    // Half of it keeps the TNC / MMR ratio: -ΔNC 25,000 − floor(1,000 × 750 / 1,500) = 24,500.
    expect(bankruptcyQuoteQuantums(risk, ONE_BTC, -5_000_000_000n)).toBe(24_500_000_000n);
    // TNC 0: abr = 1, the spread is 10% of the $1,500 MMR: $49,850.
    const price = fillablePrice({ netCollateral: 0n, maintenance: 1_500_000_000n }, ONE_BTC, {
      bankruptcyAdjustmentPpm: 1_000_000,
      spreadToMaintenanceMarginRatioPpm: 100_000,
    });
    expect(fillableSubticks(price, true, PAIR)).toBe(4_985_000_000n);
    // Above bankruptcy: a fee capped at 1.5%; below it: the fund pays the difference.
    expect(insuranceFundDelta(risk, ONE_BTC, false, 10_000_000_000n, 49_900_000_000n, 15_000)).toBe(
      748_500_000n,
    );
    expect(insuranceFundDelta(risk, ONE_BTC, false, 10_000_000_000n, 49_100_000_000n, 15_000)).toBe(
      100_000_000n,
    );
    expect(insuranceFundDelta(risk, ONE_BTC, false, 10_000_000_000n, 48_000_000_000n, 15_000)).toBe(
      -1_000_000_000n,
    );
    const limits = {
      minPositionNotionalLiquidated: 1_000n,
      maxPositionPortionLiquidatedPpm: 1_000_000,
      subaccountNotionalLeft: 10n ** 14n,
    };
    expect(liquidationSizeDelta(10_000_000_000n, BTC, 1_000_000n, limits)).toBe(-10_000_000_000n);
    // A quarter of the position per block, and the subaccount's $5,000 left.
    expect(
      liquidationSizeDelta(-10_000_000_000n, BTC, 1_000_000n, {
        ...limits,
        maxPositionPortionLiquidatedPpm: 250_000,
      }),
    ).toBe(2_500_000_000n);
    expect(
      liquidationSizeDelta(10_000_000_000n, BTC, 1_000_000n, {
        ...limits,
        subaccountNotionalLeft: 5_000_000_000n,
      }),
    ).toBe(-1_000_000_000n);
  });

  const position = fc.record({
    quantums: fc.bigInt({ min: 1_000_000n, max: 100_000_000_000n }).chain((q) => fc.constantFrom(q, -q)),
    price: fc.bigInt({ min: 100_000_000n, max: 10_000_000_000n }),
  });

  it("closing a single position whole at the bankruptcy price leaves exactly zero equity", () => {
    fc.assert(
      fc.property(
        position,
        fc.bigInt({ min: -(10n ** 10n), max: 10n ** 10n }),
        ({ quantums, price }, usdc) => {
          const p = { quantums, pricing: { ...BTC, price }, fractions: TIER };
          const nc = netNotional(quantums, p.pricing);
          const mmr = marginRequirements(quantums, p.pricing, TIER).maintenance;
          const risk = { netCollateral: usdc + nc, maintenance: mmr };
          expect(usdc + bankruptcyQuoteQuantums(risk, p, -quantums)).toBe(0n);
        },
      ),
    );
  });

  it("the fund's delta is the fill against bankruptcy, capped by the fee when positive", () => {
    fc.assert(
      fc.property(position, fc.bigInt({ min: 0n, max: 10n ** 12n }), ({ quantums, price }, quote) => {
        const p = { quantums, pricing: { ...BTC, price }, fractions: TIER };
        const nc = netNotional(quantums, p.pricing);
        const mmr = marginRequirements(quantums, p.pricing, TIER).maintenance;
        const risk = { netCollateral: nc / 100n, maintenance: mmr };
        const fill = quantums < 0n ? -quantums : quantums;
        const delta = insuranceFundDelta(risk, p, quantums < 0n, fill, quote, 15_000);
        const beats = (quantums < 0n ? -quote : quote) - bankruptcyQuoteQuantums(risk, p, -quantums);
        if (beats <= 0n) expect(delta).toBe(beats);
        else
          expect(delta).toBe(beats < (quote * 15_000n) / 1_000_000n ? beats : (quote * 15_000n) / 1_000_000n);
      }),
    );
  });

  it("a liquidation's size reduces the position by whole steps, never past zero", () => {
    fc.assert(
      fc.property(position, fc.integer({ min: 1, max: 1_000_000 }), ({ quantums, price }, portion) => {
        const delta = liquidationSizeDelta(quantums, { ...BTC, price }, 1_000_000n, {
          minPositionNotionalLiquidated: 1_000n,
          maxPositionPortionLiquidatedPpm: portion,
          subaccountNotionalLeft: 10n ** 14n,
        });
        expect(delta > 0n).toBe(quantums < 0n);
        const abs = delta < 0n ? -delta : delta;
        expect(abs <= (quantums < 0n ? -quantums : quantums)).toBe(true);
        expect(abs === (quantums < 0n ? -quantums : quantums) || abs % 1_000_000n === 0n).toBe(true);
      }),
    );
  });

  it("the fillable price in subticks is whole ticks, rounded against the liquidated side", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 9n }), // below the uint64 clamp
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        fc.boolean(),
        (num, den, long) => {
          const subticks = fillableSubticks({ num, den }, long, PAIR);
          expect(subticks % 100_000n).toBe(0n);
          expect(subticks >= 100_000n).toBe(true);
          // subticks × 1e-9 vs num / den: up for a long (sell), down (to at least one tick) for a short.
          if (long) expect(subticks * den >= num * 1_000_000_000n).toBe(true);
          else expect(subticks === 100_000n || subticks * den <= num * 1_000_000_000n).toBe(true);
        },
      ),
    );
  });
});
