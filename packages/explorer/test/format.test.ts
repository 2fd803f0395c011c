/** Amounts on the page are formatted with exact decimals, never through a JS number. */
import { describe, expect, it } from "vitest";
import { percent } from "../src/app/format.js";

describe("percent", () => {
  it("shows a funding rate as a percentage, rounded half away from zero at 6 decimals", () => {
    expect(percent("0.0000125")).toBe("0.00125%");
    expect(percent("-0.0001")).toBe("-0.01%");
    expect(percent("0")).toBe("0%");
    // halves that a double holds a hair below: 0.000001235 × 100 is 0.00012349999... as a double
    expect(percent("0.000001235")).toBe("0.000124%");
    expect(percent("-0.000000125")).toBe("-0.000013%");
    // digits past a double's 17
    expect(percent("123456789.123456789123")).toBe("12345678912.345679%");
  });

  it("shows what is not a decimal as it came", () => {
    expect(percent("n/a")).toBe("n/a");
  });
});
