import { InvalidArgumentError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import { priceToSubticks, sizeToQuantums } from "./quantums.js";

describe("a clob pair's parameters are checked once per object and values", () => {
  it("a market object changed in place converts with its new parameters", () => {
    const market = {
      atomicResolution: -10,
      quantumConversionExponent: -9,
      stepBaseQuantums: 1_000_000n as bigint | string,
      subticksPerTick: 100_000,
    };
    expect(sizeToQuantums("0.01", market)).toBe(100_000_000n);
    expect(priceToSubticks("28688", market)).toBe(2_868_800_000n);
    market.atomicResolution = -9;
    market.subticksPerTick = 1_000_000;
    expect(sizeToQuantums("0.01", market)).toBe(10_000_000n);
    expect(priceToSubticks("28688", market)).toBe(28_688_000_000n);
    market.stepBaseQuantums = "0";
    expect(() => sizeToQuantums("0.01", market)).toThrow(InvalidArgumentError);
  });

  it("an off-grid amount still names the minimum after many conversions of the same market", () => {
    const market = {
      atomicResolution: -10,
      quantumConversionExponent: -9,
      stepBaseQuantums: 1_000_000n,
      subticksPerTick: 100_000,
    };
    for (let i = 1; i <= 100; i++) sizeToQuantums(`0.${String(i).padStart(4, "0")}`, market);
    expect(() => sizeToQuantums("0.00015", market)).toThrow(/not a multiple of the step 0\.0001/);
  });
});
