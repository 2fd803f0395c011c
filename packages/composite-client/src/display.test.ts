import { Exact } from "@perpx/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  accountDisplay,
  formatDecimal,
  formatPrice,
  formatRatio,
  formatSize,
  formatUsd,
  RATIO_DECIMALS,
} from "./display.js";

const btc = {
  atomicResolution: -10,
  quantumConversionExponent: -9,
  stepBaseQuantums: 1_000_000n,
  subticksPerTick: 100_000,
};
const eth = {
  atomicResolution: -9,
  quantumConversionExponent: -9,
  stepBaseQuantums: 1_000_000n,
  subticksPerTick: 100_000,
};

/** `coefficient × 10^-scale` as a plain decimal string. */
function decimalText(coefficient: bigint, scale: number): string {
  const negative = coefficient < 0n;
  const digits = (negative ? -coefficient : coefficient).toString().padStart(scale + 1, "0");
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** A reference rounding on integers: `coefficient × 10^-scale` to `decimals` places, half away from zero. */
function reference(coefficient: bigint, scale: number, decimals: number): string {
  if (decimals >= scale) return decimalText(coefficient * 10n ** BigInt(decimals - scale), decimals);
  const unit = 10n ** BigInt(scale - decimals);
  const magnitude = coefficient < 0n ? -coefficient : coefficient;
  let q = magnitude / unit;
  if ((magnitude % unit) * 2n >= unit) q += 1n;
  return decimalText(coefficient < 0n && q !== 0n ? -q : q, decimals);
}

const decimals = fc.integer({ min: 0, max: 8 });
const amount = fc.record({
  coefficient: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
  scale: fc.integer({ min: 0, max: 20 }),
});

describe("formatDecimal (property)", () => {
  it("rounds half away from zero to exactly `decimals` places, as integer arithmetic does", () => {
    fc.assert(
      fc.property(amount, decimals, ({ coefficient, scale }, d) => {
        const shown = formatDecimal(decimalText(coefficient, scale), d);
        expect(shown).toBe(reference(coefficient, scale, d));
        expect(shown).toMatch(d === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${d}}$`));
      }),
      { numRuns: 2_000 },
    );
  });

  it("is within half a unit of the last place, never shows a negative zero, and is idempotent", () => {
    fc.assert(
      fc.property(amount, decimals, ({ coefficient, scale }, d) => {
        const value = decimalText(coefficient, scale);
        const shown = formatDecimal(value, d);
        const error = new Exact(shown).minus(value).abs();
        expect(error.lessThanOrEqualTo(`0.${"0".repeat(d)}5`)).toBe(true);
        expect(shown).not.toMatch(/^-0(\.0*)?$/);
        expect(formatDecimal(shown, d)).toBe(shown);
      }),
      { numRuns: 1_000 },
    );
  });

  it("keeps order: a smaller value never shows larger", () => {
    fc.assert(
      fc.property(amount, amount, decimals, (a, b, d) => {
        const x = decimalText(a.coefficient, a.scale);
        const y = decimalText(b.coefficient, b.scale);
        const [lo, hi] = new Exact(x).lessThanOrEqualTo(y) ? [x, y] : [y, x];
        expect(new Exact(formatDecimal(lo, d)).lessThanOrEqualTo(formatDecimal(hi, d))).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe("display formats", () => {
  it("rounds the issue's figures: equity to cents, leverage to a fixed few decimals", () => {
    expect(formatUsd("999.6540729")).toBe("999.65");
    expect(formatUsd("1000")).toBe("1000.00");
    expect(formatUsd("0.125")).toBe("0.13");
    expect(formatUsd("-0.125")).toBe("-0.13");
    expect(formatUsd("-0.004")).toBe("0.00");
    expect(formatRatio("0.130250421988449648")).toBe("0.1303");
    expect(RATIO_DECIMALS).toBe(4);
  });

  it("rounds sizes to the market's step and prices to its tick", () => {
    expect(formatSize("0.01", btc)).toBe("0.0100");
    expect(formatSize("0.012345", btc)).toBe("0.0123");
    expect(formatPrice("30000.5", btc)).toBe("30001");
    expect(formatPrice("2999.96", eth)).toBe("3000.0");
  });

  it("rounds an account's figures and leaves absent ones absent", () => {
    const shown = accountDisplay(
      {
        usdc: "-30.004",
        equity: "999.6540729",
        freeCollateral: undefined,
        marginUsage: "0.0625",
        leverage: "0.130250421988449648",
        positions: [
          {
            market: "BTC-USD",
            side: "LONG",
            size: "0.01",
            oraclePrice: "30000.4999",
            value: "300.004999",
            entryPrice: "29990.5",
            unrealizedPnl: "0.099999",
            liquidationPrice: undefined,
          },
        ],
      },
      () => btc,
    );
    expect(shown).toEqual({
      usdc: "-30.00",
      equity: "999.65",
      freeCollateral: undefined,
      marginUsage: "0.0625",
      leverage: "0.1303",
      positions: [
        {
          market: "BTC-USD",
          side: "LONG",
          size: "0.0100",
          oraclePrice: "30000",
          value: "300.00",
          entryPrice: "29991",
          unrealizedPnl: "0.10",
          liquidationPrice: undefined,
        },
      ],
    });
  });
});
