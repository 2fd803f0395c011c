/**
 * Property tests of the conversions against an independent reference (decimal.js at high precision):
 * on-grid values round-trip exactly; off-grid values throw in "exact" mode and land on the grid, in
 * the requested direction, within one step, in the rounding modes.
 */
import { Decimal } from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatExact } from "./decimal.js";
import { isInvalidAmountError } from "./errors.js";
import {
  type ClobPairParams,
  decimalToUnits,
  priceToSubticks,
  quantumsToSize,
  sizeToQuantums,
  subticksToPrice,
  unitsToDecimal,
} from "./quantums.js";

const D = Decimal.clone({ precision: 400, toExpNeg: -1000, toExpPos: 1000 });
const U64_MAX = (1n << 64n) - 1n;
const RUNS = { numRuns: 500 };

const clobPair: fc.Arbitrary<ClobPairParams> = fc.record({
  atomicResolution: fc.integer({ min: -18, max: 2 }),
  quantumConversionExponent: fc.integer({ min: -18, max: 2 }),
  stepBaseQuantums: fc.bigInt({ min: 1n, max: 10n ** 12n }),
  subticksPerTick: fc.bigInt({ min: 1n, max: (1n << 32n) - 1n }),
});

/** A positive decimal with up to 30 significant digits and an exponent from -40 to 10, as a canonical string. */
const positiveDecimal = fc
  .record({
    coefficient: fc.bigInt({ min: 1n, max: 10n ** 30n }),
    exponent: fc.integer({ min: -40, max: 10 }),
  })
  .map(({ coefficient, exponent }) => formatExact(coefficient, exponent));

const sizeShift = (p: ClobPairParams) => -p.atomicResolution;
const priceShift = (p: ClobPairParams) => p.atomicResolution - p.quantumConversionExponent + 6;

/**
 * A positive decimal within one step of a small multiple of the step (or on it), with up to three
 * digits finer than a base unit: `(k·step·10^x + j) × 10^(−shift − x)`.
 */
function nearGrid(shift: number, step: bigint): fc.Arbitrary<string> {
  return fc
    .record({
      k: fc.bigInt({ min: 0n, max: 10n ** 6n }),
      x: fc.integer({ min: 0, max: 3 }),
      onGrid: fc.boolean(),
    })
    .chain(({ k, x, onGrid }) => {
      const scaled = step * 10n ** BigInt(x);
      const j = onGrid ? fc.constant(0n) : fc.bigInt({ min: -(scaled - 1n), max: scaled - 1n });
      return j.map((offset) => ({ units: k * scaled + offset, x }));
    })
    .filter(({ units }) => units > 0n)
    .map(({ units, x }) => formatExact(units, -shift - x));
}

/** A clob pair and a size (or price) for it: arbitrary, or near the grid. */
function withValue(kind: "size" | "price"): fc.Arbitrary<[ClobPairParams, string]> {
  return clobPair.chain((p) => {
    const near =
      kind === "size"
        ? nearGrid(sizeShift(p), BigInt(p.stepBaseQuantums))
        : nearGrid(priceShift(p), BigInt(p.subticksPerTick));
    return fc.tuple(
      fc.constant(p),
      fc.oneof({ arbitrary: near, weight: 3 }, { arbitrary: positiveDecimal, weight: 1 }),
    );
  });
}

interface Grid {
  /** the value in base units (rational) */
  units: Decimal;
  step: bigint;
  floor: bigint;
  ceil: bigint;
}

function reference(value: string, shift: number, step: bigint): Grid {
  const units = new D(value).times(new D(10).pow(shift));
  const steps = units.div(step.toString());
  return {
    units,
    step,
    floor: BigInt(steps.floor().toFixed()) * step,
    ceil: BigInt(steps.ceil().toFixed()) * step,
  };
}

function outcome(fn: () => bigint): bigint | { reason: string } {
  try {
    return fn();
  } catch (error) {
    if (isInvalidAmountError(error)) return { reason: error.reason };
    throw error;
  }
}

describe("round trips of on-grid values are exact", () => {
  it("sizes: quantums -> size -> quantums, in every mode", () => {
    fc.assert(
      fc.property(clobPair, fc.bigInt({ min: 1n, max: 10n ** 9n }), (p, k) => {
        const quantums = k * BigInt(p.stepBaseQuantums);
        fc.pre(quantums <= U64_MAX);
        const size = quantumsToSize(quantums, p);
        for (const rounding of ["exact", "down", "up"] as const) {
          expect(sizeToQuantums(size, p, { rounding })).toBe(quantums);
        }
        expect(new D(size).eq(new D(quantums.toString()).times(new D(10).pow(p.atomicResolution)))).toBe(
          true,
        );
      }),
      RUNS,
    );
  });

  it("prices: subticks -> price -> subticks, in every mode", () => {
    fc.assert(
      fc.property(clobPair, fc.bigInt({ min: 1n, max: 10n ** 9n }), (p, k) => {
        const subticks = k * BigInt(p.subticksPerTick);
        fc.pre(subticks <= U64_MAX);
        const price = subticksToPrice(subticks, p);
        for (const rounding of ["exact", "down", "up", "nearest"] as const) {
          expect(priceToSubticks(price, p, { rounding })).toBe(subticks);
        }
      }),
      RUNS,
    );
  });

  it("amounts: units -> decimal -> units", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
        fc.integer({ min: 0, max: 30 }),
        (units, decimals) => {
          expect(decimalToUnits(unitsToDecimal(units, decimals), decimals)).toBe(units);
        },
      ),
      RUNS,
    );
  });
});

describe("arbitrary sizes", () => {
  it('"exact" returns the value when on the grid and throws otherwise', () => {
    fc.assert(
      fc.property(withValue("size"), ([p, size]) => {
        const ref = reference(size, sizeShift(p), BigInt(p.stepBaseQuantums));
        const result = outcome(() => sizeToQuantums(size, p));
        if (ref.floor === 0n) expect(result).toEqual({ reason: "below-minimum" });
        else if (ref.floor > U64_MAX) expect(result).toEqual({ reason: "out-of-range" });
        else if (ref.floor !== ref.ceil) expect(result).toEqual({ reason: "off-grid" });
        else expect(result).toBe(ref.floor);
      }),
      RUNS,
    );
  });

  it('"down" lands on the grid at or below the value, within one step; never below one step', () => {
    fc.assert(
      fc.property(withValue("size"), ([p, size]) => {
        const ref = reference(size, sizeShift(p), BigInt(p.stepBaseQuantums));
        const result = outcome(() => sizeToQuantums(size, p, { rounding: "down" }));
        if (ref.floor === 0n) {
          expect(result).toEqual({ reason: "below-minimum" });
          return;
        }
        if (ref.floor > U64_MAX) {
          expect(result).toEqual({ reason: "out-of-range" });
          return;
        }
        expect(typeof result).toBe("bigint");
        const q = result as bigint;
        expect(q % ref.step).toBe(0n);
        expect(new D(q.toString()).lte(ref.units)).toBe(true);
        expect(ref.units.minus(q.toString()).lt(ref.step.toString())).toBe(true);
      }),
      RUNS,
    );
  });

  it('"up" lands on the grid at or above the value, within one step', () => {
    fc.assert(
      fc.property(withValue("size"), ([p, size]) => {
        const ref = reference(size, sizeShift(p), BigInt(p.stepBaseQuantums));
        const result = outcome(() => sizeToQuantums(size, p, { rounding: "up" }));
        if (ref.ceil > U64_MAX) {
          expect(result).toEqual({ reason: "out-of-range" });
          return;
        }
        expect(typeof result).toBe("bigint");
        const q = result as bigint;
        expect(q).toBe(ref.ceil);
        expect(q % ref.step).toBe(0n);
        expect(q > 0n).toBe(true);
        expect(new D(q.toString()).gte(ref.units)).toBe(true);
        expect(new D(q.toString()).minus(ref.units).lt(ref.step.toString())).toBe(true);
      }),
      RUNS,
    );
  });

  it('the error of "exact" names valid neighbours that bracket the value', () => {
    fc.assert(
      fc.property(withValue("size"), ([p, size]) => {
        try {
          sizeToQuantums(size, p);
        } catch (error) {
          if (!isInvalidAmountError(error) || error.reason !== "off-grid") return;
          // both neighbours, unless the upper one would exceed uint64
          const ref = reference(size, sizeShift(p), BigInt(p.stepBaseQuantums));
          expect(error.nearest).toHaveLength(ref.ceil > U64_MAX ? 1 : 2);
          const [lower, upper] = error.nearest.map((v) => new D(v));
          const value = new D(size);
          expect(lower!.lt(value)).toBe(true);
          if (upper) expect(value.lt(upper)).toBe(true);
          for (const valid of error.nearest) expect(sizeToQuantums(valid, p)).toBeTypeOf("bigint");
        }
      }),
      RUNS,
    );
  });
});

describe("arbitrary prices", () => {
  it("every mode lands on the tick grid in its direction, within one tick (nearest: half a tick)", () => {
    fc.assert(
      fc.property(withValue("price"), ([p, price]) => {
        const tick = BigInt(p.subticksPerTick);
        const ref = reference(price, priceShift(p), tick);
        const exact = outcome(() => priceToSubticks(price, p));
        if (ref.floor === 0n) expect(exact).toEqual({ reason: "below-minimum" });
        else if (ref.floor > U64_MAX) expect(exact).toEqual({ reason: "out-of-range" });
        else if (ref.floor !== ref.ceil) expect(exact).toEqual({ reason: "off-grid" });
        else expect(exact).toBe(ref.floor);

        const down = outcome(() => priceToSubticks(price, p, { rounding: "down" }));
        if (ref.floor === 0n) expect(down).toEqual({ reason: "below-minimum" });
        else if (ref.floor > U64_MAX) expect(down).toEqual({ reason: "out-of-range" });
        else expect(down).toBe(ref.floor);

        const up = outcome(() => priceToSubticks(price, p, { rounding: "up" }));
        expect(up).toEqual(ref.ceil > U64_MAX ? { reason: "out-of-range" } : ref.ceil);

        const nearest = outcome(() => priceToSubticks(price, p, { rounding: "nearest" }));
        if (ref.ceil <= U64_MAX) {
          if (nearest === undefined || typeof nearest !== "bigint") {
            // only when the nearest grid point is 0
            expect(nearest).toEqual({ reason: "below-minimum" });
            expect(ref.floor).toBe(0n);
            expect(ref.units.times(2).lt(tick.toString())).toBe(true);
          } else {
            expect(nearest % tick).toBe(0n);
            expect(nearest === ref.floor || nearest === ref.ceil).toBe(true);
            expect(new D(nearest.toString()).minus(ref.units).abs().times(2).lte(tick.toString())).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });
});

describe("arbitrary amounts", () => {
  it("land on the base unit in the requested direction", () => {
    fc.assert(
      fc.property(
        positiveDecimal,
        fc.boolean(),
        fc.integer({ min: 0, max: 18 }),
        (text, negative, decimals) => {
          const amount = negative ? `-${text}` : text;
          const units = new D(amount).times(new D(10).pow(decimals));
          const down = decimalToUnits(amount, decimals, { rounding: "down" });
          const up = decimalToUnits(amount, decimals, { rounding: "up" });
          expect(down.toString()).toBe(units.floor().toFixed());
          expect(up.toString()).toBe(units.ceil().toFixed());
          const nearest = decimalToUnits(amount, decimals, { rounding: "nearest" });
          expect(nearest.toString()).toBe(units.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed());
          const exact = outcome(() => decimalToUnits(amount, decimals));
          expect(exact).toEqual(units.isInteger() ? down : { reason: "off-grid" });
        },
      ),
      RUNS,
    );
  });
});
