import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ladder } from "./ladder.js";

const BTC = { subticksPerTick: 100_000n, stepBaseQuantums: 1_000_000n, quantumConversionExponent: -9 };

describe("ladder", () => {
  it("quotes BTC-USD around the oracle on the tick and the step", () => {
    const rungs = ladder(
      { ...BTC, oracleSubticks: 6_500_012_345n },
      { levels: 2, halfSpreadBps: 10, levelSpacingBps: 10, levelQuoteQuantums: 5_000_000_000n },
    );
    expect(rungs).toEqual([
      { side: "buy", level: 0, subticks: 6_493_500_000n, quantums: 770_000_000n },
      { side: "buy", level: 1, subticks: 6_487_000_000n, quantums: 770_000_000n },
      { side: "sell", level: 0, subticks: 6_506_600_000n, quantums: 768_000_000n },
      { side: "sell", level: 1, subticks: 6_513_100_000n, quantums: 767_000_000n },
    ]);
  });

  it("keeps every level apart when the tick is wider than the spacing", () => {
    const rungs = ladder(
      {
        oracleSubticks: 1_050n,
        subticksPerTick: 1_000n,
        stepBaseQuantums: 10n,
        quantumConversionExponent: -9,
      },
      { levels: 3, halfSpreadBps: 1, levelSpacingBps: 1, levelQuoteQuantums: 1_000_000n },
    );
    // The bid side reaches zero after one level; the asks climb one tick at a time.
    expect(rungs.map((r) => `${r.side} ${r.subticks}`)).toEqual([
      "buy 1000",
      "sell 2000",
      "sell 3000",
      "sell 4000",
    ]);
  });

  it("holds its invariants for any market and shape", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.integer({ min: -12, max: 2 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 500 }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        (oracle, tick, step, qce, levels, half, spacing, notional) => {
          const rungs = ladder(
            {
              oracleSubticks: oracle,
              subticksPerTick: tick,
              stepBaseQuantums: step,
              quantumConversionExponent: qce,
            },
            { levels, halfSpreadBps: half, levelSpacingBps: spacing, levelQuoteQuantums: notional },
          );
          const bids = rungs.filter((r) => r.side === "buy");
          const asks = rungs.filter((r) => r.side === "sell");
          expect(asks).toHaveLength(levels);
          expect(bids.length).toBeLessThanOrEqual(levels);
          for (const r of rungs) {
            expect(r.subticks % tick).toBe(0n);
            expect(r.subticks > 0n).toBe(true);
            expect(r.quantums % step).toBe(0n);
            expect(r.quantums >= step).toBe(true);
          }
          bids.forEach((b, i) => {
            expect(b.subticks < oracle).toBe(true);
            if (i > 0) expect(b.subticks < (bids[i - 1]?.subticks ?? 0n)).toBe(true);
          });
          asks.forEach((a, i) => {
            expect(a.subticks > oracle).toBe(true);
            if (i > 0) expect(a.subticks > (asks[i - 1]?.subticks ?? 0n)).toBe(true);
          });
        },
      ),
    );
  });
});
