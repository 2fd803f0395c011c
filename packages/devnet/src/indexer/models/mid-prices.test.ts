/**
 * The mid price samples as the reference's roundtable task and ender cache keep them: a sample per
 * market every 10 s of block time, a 60 s window pruned only when a sample is added, and the median
 * of the oldest ten (an even count averages the two middle ones).
 */
import { describe, expect, it } from "vitest";
import { MID_PRICE_SAMPLE_INTERVAL_MS, MidPricesModel } from "./mid-prices.js";

const T0 = 1_700_000_000_000;

/** Runs blocks at `T0 + offsets[i]` seconds with the best-bid-plus-best-ask sums given. */
function run(steps: ReadonlyArray<[seconds: number, sum: bigint | undefined]>): MidPricesModel {
  const model = new MidPricesModel();
  for (const [seconds, sum] of steps) model.block(T0 + seconds * 1000, [7], () => sum);
  return model;
}

describe("mid price samples", () => {
  it("a market without samples has no median; one sample gives its mid (four times it)", () => {
    expect(run([[0, undefined]]).median(7)).toBeUndefined();
    // bid 99 + ask 101: mid 100, kept as 400.
    expect(run([[0, 200n]]).median(7)).toBe(400n);
  });

  it("samples only once the interval has passed since the last sample", () => {
    expect(MID_PRICE_SAMPLE_INTERVAL_MS).toBe(10_000);
    const model = run([
      [0, 200n],
      [9.999, 300n],
    ]);
    expect(model.median(7)).toBe(400n);
    model.block(T0 + 10_000, [7], () => 300n);
    // Two samples, 200 and 300 (twice the mids): the median is their mean, 125.
    expect(model.median(7)).toBe(500n);
  });

  it("takes the median of the window and drops samples 60 s old when a new one comes", () => {
    const model = run([
      [0, 200n],
      [10, 220n],
      [20, 1000n],
    ]);
    expect(model.median(7)).toBe(440n); // 100, 110, 500 -> 110
    model.block(T0 + 60_000, [7], () => 1000n);
    // The sample of t=0 is 60 s old and goes; 1000 seen again only moves its time: 110 and 500.
    expect(model.median(7)).toBe(1220n);
  });

  it("keeps a one-sided market's old samples (nothing is added, so nothing is pruned)", () => {
    const model = run([
      [0, 200n],
      [100, undefined],
      [200, undefined],
    ]);
    expect(model.median(7)).toBe(400n);
  });
});
