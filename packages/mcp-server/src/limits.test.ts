import { Exact } from "@perpx/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, effectiveLimits, resolveLimits, type TradingLimits } from "./limits.js";

/** Amounts with up to 6 decimal places, some equal but differently written ("5" and "5.000000"). */
const amount = fc.tuple(fc.integer({ min: 0, max: 1_000_000_000 }), fc.boolean()).map(([units, padded]) => {
  const value = Exact.fromUnits(BigInt(units), 3);
  return padded ? value.toFixed(6, "trunc") : value.toFixed();
});
const partial = fc.record(
  {
    allowedMarkets: fc.option(fc.subarray(["BTC-USD", "ETH-USD", "SOL-USD"]), { nil: undefined }),
    priceBandBps: fc.integer({ min: 0, max: 10_000 }),
    maxOrderNotional: amount,
    maxPositionNotional: amount,
    maxLeverage: amount,
    maxOpenOrders: fc.integer({ min: 0, max: 1_000 }),
    maxDailyLoss: amount,
    confirmAboveNotional: amount,
    defaultSlippageBps: fc.integer({ min: 0, max: 1_000 }),
    maxSlippageBps: fc.integer({ min: 0, max: 1_000 }),
    maxWritesPerMinute: fc.integer({ min: 0, max: 1_000 }),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<Partial<TradingLimits>>;

describe("limits", () => {
  it("a credential's own limits never loosen the server's", () => {
    fc.assert(
      fc.property(partial, partial, (server, own) => {
        const base = resolveLimits(server);
        const limits = effectiveLimits(base, own);
        for (const key of [
          "maxOrderNotional",
          "maxPositionNotional",
          "maxLeverage",
          "maxDailyLoss",
          "confirmAboveNotional",
        ] as const) {
          expect(new Exact(limits[key]).lessThanOrEqualTo(base[key])).toBe(true);
        }
        for (const key of [
          "priceBandBps",
          "maxOpenOrders",
          "defaultSlippageBps",
          "maxSlippageBps",
          "maxWritesPerMinute",
        ] as const) {
          expect(limits[key]).toBeLessThanOrEqual(base[key]);
        }
        if (base.allowedMarkets !== undefined) {
          for (const market of limits.allowedMarkets ?? []) expect(base.allowedMarkets).toContain(market);
          expect(limits.allowedMarkets).toBeDefined();
        }
      }),
    );
  });

  it("refuses a limit that is not a non-negative number, naming it", () => {
    expect(() => resolveLimits({ maxLeverage: "-1" })).toThrow(/limits\.maxLeverage/);
    expect(() => resolveLimits({ maxOpenOrders: 1.5 })).toThrow(/limits\.maxOpenOrders/);
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
  });
});
