/** The candle chart's scales: round price ticks with exact labels, and round UTC time ticks. */
import { describe, expect, it } from "vitest";
import { priceTicks, RESOLUTION_MS, timeTicks } from "../src/app/chart-scale.js";

describe("priceTicks", () => {
  it("steps by 1, 2 or 5 times a power of ten, covering the range", () => {
    expect(priceTicks(64_990, 65_110, 5).map((t) => t.label)).toEqual([
      "65000",
      "65020",
      "65040",
      "65060",
      "65080",
      "65100",
    ]);
    expect(priceTicks(0, 1, 5).map((t) => t.label)).toEqual(["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
    expect(priceTicks(100, 1_000, 4).map((t) => t.label)).toEqual(["200", "400", "600", "800", "1000"]);
  });

  it("labels exactly where a double would not (0.1 + 0.2)", () => {
    // one number of decimals along the axis, as the step has
    const labels = priceTicks(0.1, 0.35, 5).map((t) => t.label);
    expect(labels).toEqual(["0.10", "0.15", "0.20", "0.25", "0.30", "0.35"]);
    expect(priceTicks(0.000123, 0.000127, 4).map((t) => t.label)).toEqual([
      "0.000123",
      "0.000124",
      "0.000125",
      "0.000126",
      "0.000127",
    ]);
  });

  it("draws nothing for an empty or inverted range", () => {
    expect(priceTicks(5, 5)).toEqual([]);
    expect(priceTicks(6, 5)).toEqual([]);
    expect(priceTicks(Number.NaN, 5)).toEqual([]);
  });
});

describe("timeTicks", () => {
  const at = (iso: string) => Date.parse(iso);
  it("labels round UTC minutes under a day", () => {
    const ticks = timeTicks(at("2026-11-28T05:01:30Z"), at("2026-11-28T05:31:00Z"), 6);
    expect(ticks.map((t) => t.label)).toEqual(["05:05", "05:10", "05:15", "05:20", "05:25", "05:30"]);
  });

  it("labels days from a day up", () => {
    const ticks = timeTicks(at("2026-11-01T00:00:00Z"), at("2026-11-30T00:00:00Z"), 6);
    expect(ticks.map((t) => t.label)).toEqual(["11-05", "11-12", "11-19", "11-26"]);
  });

  it("knows every resolution's length", () => {
    expect(RESOLUTION_MS["1MIN"] * 60).toBe(RESOLUTION_MS["1HOUR"]);
    expect(RESOLUTION_MS["4HOURS"] * 6).toBe(RESOLUTION_MS["1DAY"]);
  });
});
