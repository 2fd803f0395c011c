import { isInvalidArgumentError } from "@perpx/errors";
import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { type InvalidAmountError, type InvalidAmountReason, isInvalidAmountError } from "./errors.js";
import {
  baseUnitsToNative,
  type ClobPairParams,
  decimalToUnits,
  marketPriceToPrice,
  nativeToBaseUnits,
  notionalQuoteQuantums,
  oraclePriceToSubticks,
  priceToMarketPrice,
  priceToSubticks,
  quantumsToSize,
  quoteQuantumsToUsdc,
  sizeToQuantums,
  stepSize,
  subticksToPrice,
  tickSize,
  unitsToDecimal,
  usdcToQuoteQuantums,
} from "./quantums.js";

/** BTC-USD of the reference genesis (chain-protocol.md section 1.5). */
const BTC: ClobPairParams = {
  atomicResolution: -10,
  quantumConversionExponent: -9,
  stepBaseQuantums: 1_000_000n,
  subticksPerTick: 100_000,
};
/** ETH-USD of the reference genesis. */
const ETH: ClobPairParams = {
  atomicResolution: -9,
  quantumConversionExponent: -9,
  stepBaseQuantums: 1_000_000n,
  subticksPerTick: 100_000,
};

function amountError(fn: () => unknown): InvalidAmountError {
  try {
    fn();
  } catch (error) {
    if (isInvalidAmountError(error)) return error;
    throw error;
  }
  throw new Error("expected InvalidAmountError");
}

describe("the worked example (BTC-USD)", () => {
  it("$28,688 is 2,868,800,000 subticks and back", () => {
    expect(priceToSubticks("28688", BTC)).toBe(2_868_800_000n);
    expect(subticksToPrice(2_868_800_000n, BTC)).toBe("28688");
  });

  it("0.01 BTC is 1e8 quantums and back; 1 BTC is 1e10", () => {
    expect(sizeToQuantums("0.01", BTC)).toBe(100_000_000n);
    expect(quantumsToSize(100_000_000n, BTC)).toBe("0.01");
    expect(sizeToQuantums("1", BTC)).toBe(10_000_000_000n);
  });

  it("the step is 0.0001 BTC and one tick is $1", () => {
    expect(stepSize(BTC)).toBe("0.0001");
    expect(tickSize(BTC)).toBe("1");
    expect(sizeToQuantums("0.0001", BTC)).toBe(1_000_000n);
    expect(priceToSubticks("1", BTC)).toBe(100_000n);
  });

  it("0.01 BTC at $28,688 is 286,880,000 quote quantums = $286.88", () => {
    const quote = notionalQuoteQuantums({ subticks: 2_868_800_000n, quantums: 100_000_000n }, BTC);
    expect(quote).toBe(286_880_000n);
    expect(quoteQuantumsToUsdc(quote)).toBe("286.88");
  });

  it("the oracle price 2,868,819,524 at exponent -5 is $28,688.19524 and as many subticks", () => {
    const marketPrice = { price: 2_868_819_524n, exponent: -5 };
    expect(marketPriceToPrice(marketPrice)).toBe("28688.19524");
    expect(priceToMarketPrice("28688.19524", -5)).toBe(2_868_819_524n);
    expect(oraclePriceToSubticks(marketPrice, BTC)).toBe(2_868_819_524n);
  });
});

describe("ETH-USD (atomic resolution -9)", () => {
  it("converts sizes and prices", () => {
    expect(sizeToQuantums("0.001", ETH)).toBe(1_000_000n);
    expect(stepSize(ETH)).toBe("0.001");
    expect(tickSize(ETH)).toBe("0.1");
    // subticks = price × 10^(-9 + 9 + 6)
    expect(priceToSubticks("1850.3", ETH)).toBe(1_850_300_000n);
    expect(subticksToPrice(1_850_300_000n, ETH)).toBe("1850.3");
    expect(amountError(() => priceToSubticks("1850.35", ETH)).nearest).toEqual(["1850.3", "1850.4"]);
    expect(oraclePriceToSubticks({ price: 1_850_312_345n, exponent: -6 }, ETH)).toBe(1_850_312_345n);
  });
});

describe("sizeToQuantums", () => {
  it("takes a Decimal exactly, whatever notation built it", () => {
    expect(sizeToQuantums(new Decimal("0.01"), BTC)).toBe(100_000_000n);
    expect(sizeToQuantums(new Decimal("1e-4"), BTC)).toBe(1_000_000n);
    expect(sizeToQuantums(new Decimal("0.0100000"), BTC)).toBe(100_000_000n);
    expect(sizeToQuantums("0.0100000", BTC)).toBe(100_000_000n);
    expect(amountError(() => sizeToQuantums(new Decimal("1e-1001"), BTC)).reason).toBe("out-of-range");
  });

  it.each([
    " 1",
    "1\n",
    "+1",
    ".5",
    "5.",
    "1e5",
    "1E-3",
    "1e-2",
    " .5 ",
    "+0.01",
    "-.5",
    "--1",
    "1.2.3",
    "٣",
  ])("refuses the non-canonical decimal string %j, naming it", (value) => {
    const error = amountError(() => sizeToQuantums(value, BTC));
    expect(error.reason).toBe("not-a-decimal");
    expect(error.kind).toBe("size");
    expect(error.value).toBe(JSON.stringify(value));
  });

  it("refuses an off-step size by default, naming the value and the nearest valid sizes", () => {
    const error = amountError(() => sizeToQuantums("0.00015", BTC));
    expect(error.code).toBe("INVALID_AMOUNT");
    expect(error.kind).toBe("size");
    expect(error.reason).toBe("off-grid");
    expect(error.value).toBe("0.00015");
    expect(error.nearest).toEqual(["0.0001", "0.0002"]);
    expect(error.message).toContain("0.00015");
    expect(error.message).toContain("0.0001 and 0.0002");
  });

  it("refuses a size below the step, zero or negative in the default mode", () => {
    const below = amountError(() => sizeToQuantums("0.00005", BTC));
    expect(below.reason).toBe("below-minimum");
    expect(below.nearest).toEqual(["0.0001"]);
    expect(below.message).toContain("0.0001");
    expect(amountError(() => sizeToQuantums("0", BTC)).reason).toBe("not-positive");
    expect(amountError(() => sizeToQuantums("-0.01", BTC)).reason).toBe("not-positive");
    expect(amountError(() => sizeToQuantums("-0", BTC)).reason).toBe("not-positive");
  });

  it('rounds down only when asked, and never raises a too-small size to the minimum under "down"', () => {
    expect(sizeToQuantums("0.00019", BTC, { rounding: "down" })).toBe(1_000_000n);
    expect(sizeToQuantums("0.0002", BTC, { rounding: "down" })).toBe(2_000_000n);
    const tooSmall = amountError(() => sizeToQuantums("0.00009", BTC, { rounding: "down" }));
    expect(tooSmall.reason).toBe("below-minimum");
    expect(tooSmall.nearest).toEqual(["0.0001"]);
  });

  it('rounds up only when asked ("up" takes a tiny size to one step, as asked)', () => {
    expect(sizeToQuantums("0.00011", BTC, { rounding: "up" })).toBe(2_000_000n);
    expect(sizeToQuantums("0.00000000001", BTC, { rounding: "up" })).toBe(1_000_000n);
    expect(amountError(() => sizeToQuantums("0", BTC, { rounding: "up" })).reason).toBe("not-positive");
  });

  it('refuses "nearest" and unknown modes for sizes', () => {
    let caught: unknown;
    try {
      sizeToQuantums("1", BTC, { rounding: "nearest" as "down" });
    } catch (error) {
      caught = error;
    }
    expect(isInvalidArgumentError(caught)).toBe(true);
  });

  it("refuses sizes above uint64", () => {
    expect(amountError(() => sizeToQuantums("10000000000", BTC)).reason).toBe("out-of-range");
    expect(sizeToQuantums("1844674407", BTC)).toBe(18_446_744_070_000_000_000n);
  });

  it.each<[string, unknown, InvalidAmountReason]>([
    ["a JS number", 0.01, "not-a-decimal"],
    ["a bigint", 1n, "not-a-decimal"],
    ["garbage", "abc", "not-a-decimal"],
    ["empty", "", "not-a-decimal"],
    ["NaN", "NaN", "not-a-decimal"],
    ["Infinity", "Infinity", "not-a-decimal"],
    ["a Decimal NaN", new Decimal(Number.NaN), "not-a-decimal"],
    ["a Decimal Infinity", new Decimal(Number.POSITIVE_INFINITY), "not-a-decimal"],
    ["a thousands separator", "1,000", "not-a-decimal"],
    ["hex", "0x10", "not-a-decimal"],
    ["a huge string", "1".repeat(1001), "out-of-range"],
    ["a huge Decimal", new Decimal("1e100000"), "out-of-range"],
  ])("refuses %s", (_, value, reason) => {
    expect(amountError(() => sizeToQuantums(value as string, BTC)).reason).toBe(reason);
  });
});

describe("priceToSubticks", () => {
  it("refuses an off-tick price by default, naming the nearest valid prices", () => {
    const error = amountError(() => priceToSubticks("28688.5", BTC));
    expect(error.kind).toBe("price");
    expect(error.reason).toBe("off-grid");
    expect(error.nearest).toEqual(["28688", "28689"]);
  });

  it("refuses a price below one tick, zero or negative", () => {
    const below = amountError(() => priceToSubticks("0.5", BTC));
    expect(below.reason).toBe("below-minimum");
    expect(below.nearest).toEqual(["1"]);
    expect(amountError(() => priceToSubticks("0", BTC)).reason).toBe("not-positive");
    expect(amountError(() => priceToSubticks("-28688", BTC)).reason).toBe("not-positive");
  });

  it("rounds in the requested direction", () => {
    expect(priceToSubticks("28688.5", BTC, { rounding: "down" })).toBe(2_868_800_000n);
    expect(priceToSubticks("28688.5", BTC, { rounding: "up" })).toBe(2_868_900_000n);
    expect(priceToSubticks("28688.49999", BTC, { rounding: "nearest" })).toBe(2_868_800_000n);
    expect(priceToSubticks("28688.5", BTC, { rounding: "nearest" })).toBe(2_868_900_000n);
    expect(priceToSubticks("28688.51", BTC, { rounding: "nearest" })).toBe(2_868_900_000n);
    expect(priceToSubticks("0.2", BTC, { rounding: "up" })).toBe(100_000n);
  });

  it("refuses a price that rounds to zero", () => {
    expect(amountError(() => priceToSubticks("0.4", BTC, { rounding: "nearest" })).reason).toBe(
      "below-minimum",
    );
    expect(amountError(() => priceToSubticks("0.9", BTC, { rounding: "down" })).reason).toBe("below-minimum");
  });
});

describe("parameters", () => {
  it("accept strings and numbers for the integer fields (indexer JSON) and a spread generated message", () => {
    const fromIndexer = {
      atomicResolution: -10,
      quantumConversionExponent: -9,
      stepBaseQuantums: "1000000",
      subticksPerTick: "100000",
    };
    expect(sizeToQuantums("0.01", fromIndexer)).toBe(100_000_000n);
    const generated = { $typeName: "perpx.clob.v1.ClobPair", id: 0, status: 1, ...BTC };
    expect(priceToSubticks("28688", generated)).toBe(2_868_800_000n);
  });

  it.each<[string, Partial<Record<keyof ClobPairParams, unknown>>]>([
    ["clobPair.stepBaseQuantums", { stepBaseQuantums: 0n }],
    ["clobPair.stepBaseQuantums", { stepBaseQuantums: -1 }],
    ["clobPair.stepBaseQuantums", { stepBaseQuantums: 1.5 }],
    ["clobPair.subticksPerTick", { subticksPerTick: 0 }],
    ["clobPair.subticksPerTick", { subticksPerTick: 2n ** 32n }],
    ["clobPair.atomicResolution", { atomicResolution: 0.5 }],
    ["clobPair.atomicResolution", { atomicResolution: "-10" }],
    ["clobPair.quantumConversionExponent", { quantumConversionExponent: 1000 }],
  ])("refuse an invalid %s", (argument, override) => {
    let caught: unknown;
    try {
      sizeToQuantums("1", { ...BTC, ...override } as ClobPairParams);
    } catch (error) {
      caught = error;
    }
    expect(isInvalidArgumentError(caught)).toBe(true);
    expect((caught as { argument: string }).argument).toBe(argument);
  });
});

describe("back conversions", () => {
  it("are exact, signed and accept integer strings", () => {
    expect(quantumsToSize(-250_000_000n, BTC)).toBe("-0.025");
    expect(quantumsToSize("0", BTC)).toBe("0");
    expect(quantumsToSize(1n, BTC)).toBe("0.0000000001");
    expect(subticksToPrice("1", BTC)).toBe("0.00001");
    expect(subticksToPrice(123_456_789_012_345n, BTC)).toBe("1234567890.12345");
  });

  it("refuse non-integers", () => {
    for (const bad of ["1.5", "abc", 1.5, Number.MAX_SAFE_INTEGER + 1]) {
      let caught: unknown;
      try {
        quantumsToSize(bad, BTC);
      } catch (error) {
        caught = error;
      }
      expect(isInvalidArgumentError(caught)).toBe(true);
    }
  });

  it("work with positive exponents", () => {
    const coarse = {
      atomicResolution: 2,
      quantumConversionExponent: 3,
      stepBaseQuantums: 1,
      subticksPerTick: 1,
    };
    expect(quantumsToSize(5n, coarse)).toBe("500");
    expect(sizeToQuantums("500", coarse)).toBe(5n);
    expect(amountError(() => sizeToQuantums("50", coarse)).nearest).toEqual(["100"]);
    // subticks = price × 10^(2 - 3 + 6) = price × 10^5
    expect(priceToSubticks("0.00001", coarse)).toBe(1n);
  });
});

describe("notionalQuoteQuantums", () => {
  it("rounds down like the chain", () => {
    // 3 subticks × 7 quantums × 10^-1 = 2.1 → 2
    expect(notionalQuoteQuantums({ subticks: 3n, quantums: 7n }, { quantumConversionExponent: -1 })).toBe(2n);
    expect(notionalQuoteQuantums({ subticks: 3n, quantums: 7n }, { quantumConversionExponent: 2 })).toBe(
      2100n,
    );
  });

  it("refuses negative inputs", () => {
    expect(() => notionalQuoteQuantums({ subticks: -1n, quantums: 1n }, BTC)).toThrow(/subticks/);
    expect(() => notionalQuoteQuantums({ subticks: 1n, quantums: -1n }, BTC)).toThrow(/quantums/);
  });
});

describe("oracle prices", () => {
  it("convert to subticks exactly by default, rounding when asked", () => {
    // exponent -8 on BTC: subticks = price × 10^(-8 + 9 - 10 + 6) = price / 1000
    const fine = { price: 2_868_819_524_123n, exponent: -8 };
    expect(amountError(() => oraclePriceToSubticks(fine, BTC)).reason).toBe("off-grid");
    expect(oraclePriceToSubticks(fine, BTC, { rounding: "down" })).toBe(2_868_819_524n);
    expect(oraclePriceToSubticks(fine, BTC, { rounding: "up" })).toBe(2_868_819_525n);
    expect(oraclePriceToSubticks(fine, BTC, { rounding: "nearest" })).toBe(2_868_819_524n);
  });

  it("refuse a zero (never updated) price", () => {
    expect(amountError(() => oraclePriceToSubticks({ price: 0n, exponent: -5 }, BTC)).reason).toBe(
      "not-positive",
    );
  });

  it("convert human prices to the oracle integer", () => {
    expect(amountError(() => priceToMarketPrice("28688.195245", -5)).nearest).toEqual([
      "28688.19524",
      "28688.19525",
    ]);
    expect(priceToMarketPrice("28688.195245", -5, { rounding: "nearest" })).toBe(2_868_819_525n);
  });
});

describe("amounts", () => {
  it("convert USDC to quote quantums and back (6 decimals)", () => {
    expect(usdcToQuoteQuantums("286.88")).toBe(286_880_000n);
    expect(usdcToQuoteQuantums("0.000001")).toBe(1n);
    expect(quoteQuantumsToUsdc(286_880_000n)).toBe("286.88");
    expect(quoteQuantumsToUsdc(-1n)).toBe("-0.000001");
    const error = amountError(() => usdcToQuoteQuantums("1.0000005"));
    expect(error.kind).toBe("amount");
    expect(error.nearest).toEqual(["1", "1.000001"]);
    expect(usdcToQuoteQuantums("1.0000005", { rounding: "down" })).toBe(1_000_000n);
    expect(usdcToQuoteQuantums("1.0000005", { rounding: "up" })).toBe(1_000_001n);
    expect(usdcToQuoteQuantums("1.0000005", { rounding: "nearest" })).toBe(1_000_001n);
  });

  it("convert native PERPX to aperpx and back (18 decimals)", () => {
    expect(nativeToBaseUnits("1.5")).toBe(1_500_000_000_000_000_000n);
    expect(nativeToBaseUnits("0.000000000000000001")).toBe(1n);
    expect(baseUnitsToNative(1_500_000_000_000_000_000n)).toBe("1.5");
    expect(amountError(() => nativeToBaseUnits("0.0000000000000000001")).reason).toBe("off-grid");
  });

  it("are signed, with down and up toward -∞ and +∞ and ties away from zero", () => {
    expect(decimalToUnits("-1.5", 0, { rounding: "down" })).toBe(-2n);
    expect(decimalToUnits("-1.5", 0, { rounding: "up" })).toBe(-1n);
    expect(decimalToUnits("-1.5", 0, { rounding: "nearest" })).toBe(-2n);
    expect(decimalToUnits("1.5", 0, { rounding: "nearest" })).toBe(2n);
    expect(decimalToUnits("-1.4", 0, { rounding: "nearest" })).toBe(-1n);
    expect(decimalToUnits("0", 6)).toBe(0n);
    expect(unitsToDecimal(-1_500n, 3)).toBe("-1.5");
    expect(unitsToDecimal(0n, 18)).toBe("0");
  });

  it("refuse bad decimals", () => {
    for (const decimals of [-1, 1.5, 101]) {
      expect(() => decimalToUnits("1", decimals)).toThrow(/decimals/);
    }
  });
});
