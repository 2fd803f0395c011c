import { isInvalidArgumentError } from "@perpx/errors";
import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { Exact } from "./exact.js";
import type { ExactRounding } from "./exact-math.js";
import { priceToSubticks, sizeToQuantums } from "./quantums.js";

/** The error a call throws. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("did not throw");
}

describe("Exact", () => {
  it("keeps every digit of the issue's sum, where decimal.js at its default precision rounds", () => {
    const sum = new Exact("1234567890123.123456789").plus("0.000000001");
    expect(sum.toString()).toBe("1234567890123.12345679");
    expect(new Decimal("1234567890123.123456789").plus("0.000000001").toFixed()).toBe(
      "1234567890123.1234568",
    );
  });

  it("takes decimal.js values through their plain text, and refuses NaN and infinities", () => {
    expect(new Exact(new Decimal("1e-30")).toString()).toBe(`0.${"0".repeat(29)}1`);
    expect(new Exact(new Decimal("-12345678901234567890.5")).toString()).toBe("-12345678901234567890.5");
    for (const bad of [new Decimal(Number.NaN), new Decimal(Number.POSITIVE_INFINITY)]) {
      const error = thrown(() => new Exact(bad, "price"));
      expect(isInvalidArgumentError(error) && error.argument).toBe("price");
    }
  });

  it("refuses what is not a decimal, naming the field", () => {
    for (const bad of [
      "",
      " 1",
      "1 ",
      "1e",
      "e5",
      "1.2.3",
      "0x10",
      "--1",
      "1e1001",
      "NaN",
      "Infinity",
      0.1,
      2 ** 53,
    ]) {
      const error = thrown(() => new Exact(bad as string, "size"));
      expect(isInvalidArgumentError(error) && error.argument, String(bad)).toBe("size");
    }
    for (const bad of [null, undefined, {}, [], true, Symbol("x"), Object.create(null)]) {
      const error = thrown(() => new Exact(bad as unknown as string, "amount"));
      expect(isInvalidArgumentError(error) && error.argument).toBe("amount");
    }
  });

  it("divides and rounds only with an explicit precision, and never by zero", () => {
    const cases: Array<[() => unknown, string]> = [
      [() => new Exact(1).dividedBy(0, { scale: 2, rounding: "floor" }), "divisor"],
      [() => new Exact(1).dividedBy(3, undefined as never), "precision"],
      [() => new Exact(1).dividedBy(3, { scale: -1, rounding: "floor" }), "scale"],
      [() => new Exact(1).dividedBy(3, { scale: 1.5, rounding: "floor" }), "scale"],
      [() => new Exact(1).dividedBy(3, { significantDigits: 0, rounding: "floor" }), "significantDigits"],
      [() => new Exact(1).dividedBy(3, { scale: 2, rounding: "up" as ExactRounding }), "rounding"],
      [() => new Exact(1).toFixed(2, undefined as never), "rounding"],
      [() => new Exact(1).toDecimalPlaces(1001, "floor"), "decimals"],
    ];
    for (const [run, field] of cases) {
      const error = thrown(run);
      expect(isInvalidArgumentError(error) && error.argument).toBe(field);
    }
    expect(new Exact(0).dividedBy("7", { significantDigits: 3, rounding: "ceil" }).toString()).toBe("0");
    expect(new Exact("9.99").dividedBy(1, { significantDigits: 2, rounding: "halfExpand" }).toString()).toBe(
      "10",
    );
  });

  it("never turns into a JS number, and writes itself as plain text", () => {
    const half = new Exact("0.5");
    expect(isInvalidArgumentError(thrown(() => Number(half)))).toBe(true);
    expect(isInvalidArgumentError(thrown(() => (half as unknown as number) < 1))).toBe(true);
    expect(`${half}`).toBe("0.5");
    expect(String(new Exact("1e30"))).toBe(`1${"0".repeat(30)}`);
    expect(new Exact("-0.000").toString()).toBe("0");
    expect(new Exact("+.5").toString()).toBe("0.5");
  });

  it("refuses a Decimal whose exponent is beyond ±1000, as it refuses such a written exponent", () => {
    // toFixed() of 1e9000000000000000 would write every digit: out of memory, the process aborts
    for (const huge of ["1e-5000", "-1e5000", "1e100000000", "1e9000000000000000"]) {
      const error = thrown(() => new Exact(new Decimal(huge), "price"));
      expect(isInvalidArgumentError(error) && error.argument, huge).toBe("price");
      expect((error as Error).message).toContain("exponent beyond ±1000");
    }
    expect(new Exact(new Decimal("9.5e1000")).toString()).toBe(`95${"0".repeat(999)}`);
    expect(new Exact(new Decimal("-2.5e-1000")).scale).toBe(1001);
  });

  it("drops 300,000 trailing zeros in one step, not one division per zero", () => {
    // one bigint division per zero was quadratic: about 20 s for each of these (minutes for a
    // megabyte of zeros, text a hostile indexer can send); now a few milliseconds
    const zeros = "0".repeat(300_000);
    expect(new Exact(`1.${zeros}`).toString()).toBe("1");
    expect(new Exact(`-20.5${zeros}`).toString()).toBe("-20.5");
    expect(new Exact(`0.${zeros}1${zeros}`).scale).toBe(300_001);
    const wide = new Exact(`3${zeros}`).times(`0.${"0".repeat(299_999)}1`);
    expect(wide.toString()).toBe("3");
    expect(wide.scale).toBe(0);
  });

  it("refuses, from untyped JavaScript, max()/min() of nothing and any non-value, naming it", () => {
    const untyped = Exact as unknown as {
      max(...values: unknown[]): Exact;
      min(...values: unknown[]): Exact;
    };
    for (const pick of [untyped.max, untyped.min]) {
      const none = thrown(() => pick.call(Exact));
      expect(isInvalidArgumentError(none) && none.argument).toBe("values");
      expect(String(none)).toMatch(/at least one value/);
      for (const bad of [undefined, null, Number.NaN, Number.POSITIVE_INFINITY, 0.5, {}, Symbol("x")]) {
        const error = thrown(() => pick.call(Exact, "1", bad));
        expect(isInvalidArgumentError(error) && error.argument).toBe("values[1]");
      }
    }
  });

  it("refuses a boxed JS number, whose toFixed() would round 0.5 to 1, like the primitive", () => {
    for (const boxed of [new Number(0.5), new Number(2.5), new Number(Number.NaN)]) {
      const error = thrown(() => new Exact(boxed as unknown as string, "size"));
      expect(isInvalidArgumentError(error) && error.argument).toBe("size");
    }
    // what has both methods of a DecimalLike is still read
    expect(new Exact({ isFinite: () => true, toFixed: () => "0.5" }).toString()).toBe("0.5");
  });

  it("reads an Exact of another copy of the module through its plain text", () => {
    const foreign = { isFinite: () => true, toFixed: () => "65000.25", coefficient: 1n, scale: 0 };
    expect(new Exact(foreign).toString()).toBe("65000.25");
  });

  it("is a DecimalInput: the price and size conversions take it", () => {
    const btc = {
      atomicResolution: -10,
      quantumConversionExponent: -9,
      stepBaseQuantums: 1_000_000n,
      subticksPerTick: 100_000,
    };
    const price = new Exact("57377").dividedBy(2, { scale: 0, rounding: "floor" });
    expect(priceToSubticks(price, btc)).toBe(2_868_800_000n);
    expect(sizeToQuantums(new Exact("0.01"), btc)).toBe(100_000_000n);
  });
});
