import { describe, expect, it } from "vitest";
import type { FundingEvent } from "../../app/indexer-output/indexer-events.js";
import { MARKET_UPDATER_INTERVAL_MS, NextFundingModel, nextFundingRateOf } from "./next-funding.js";

const event = (phase: FundingEvent["phase"], ratePpm: bigint): FundingEvent => ({
  kind: "funding",
  phase,
  perpetualId: 0,
  ratePpm,
  oracleSubticks: 0n,
  fundingIndex: 0n,
});

describe("the next funding rate (ender's sample cache, roundtable's market updater)", () => {
  it("is the unclamped mean of the samples as 1-hour rates plus the default, at big.js's 20 decimals", () => {
    // 8-hour ppm / 8 / 1e6: 300,000 ppm (far over any clamp) is 0.0375 an hour.
    expect(nextFundingRateOf([300_000n], 0)).toBe("0.0375");
    expect(nextFundingRateOf([-100n, 0n, 0n], 100)).toBe("0.00000833333333333333");
    expect(nextFundingRateOf([2n, 0n, 0n], 0)).toBe("0.00000008333333333333");
    expect(nextFundingRateOf([-1n, 0n, 0n], 0)).toBe("-0.00000004166666666667");
  });

  it("refreshes on the updater's cadence and keeps its value after a tick until the next sample", () => {
    const model = new NextFundingModel();
    const markets = [{ perpetualId: 0, defaultFundingPpm: 100 }];
    expect(model.update(0, markets)).toBe(true);
    expect(model.rate(0)).toBe("0");
    model.apply(event("sample", 800n));
    // Not due yet: the value shown stays.
    expect(model.update(MARKET_UPDATER_INTERVAL_MS - 1, markets)).toBe(false);
    expect(model.rate(0)).toBe("0");
    expect(model.update(MARKET_UPDATER_INTERVAL_MS, markets)).toBe(true);
    expect(model.rate(0)).toBe(nextFundingRateOf([800n], 100));
    model.apply(event("sample", 0n));
    model.apply(event("payment", 200n));
    // The tick emptied the samples: the updater leaves the last value.
    expect(model.update(2 * MARKET_UPDATER_INTERVAL_MS, markets)).toBe(true);
    expect(model.rate(0)).toBe(nextFundingRateOf([800n], 100));
    model.apply(event("sample", -400n));
    model.update(3 * MARKET_UPDATER_INTERVAL_MS, markets);
    expect(model.rate(0)).toBe(nextFundingRateOf([-400n], 100));
  });
});
