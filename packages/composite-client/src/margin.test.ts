import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marginSummary } from "./margin.js";

describe("margin figures", () => {
  it("computes equity, free collateral, margin usage, leverage and a long's liquidation price", () => {
    expect(
      marginSummary({
        usdc: "-30000",
        positions: [
          {
            market: "BTC-USD",
            size: "1",
            entryPrice: "30000",
            oraclePrice: "32000",
            initialMarginFraction: "0.05",
            maintenanceMarginFraction: "0.03",
          },
        ],
      }),
    ).toEqual({
      equity: "2000",
      freeCollateral: "400",
      marginUsage: "0.8",
      leverage: "16",
      positions: [
        {
          market: "BTC-USD",
          notional: "32000",
          value: "32000",
          unrealizedPnl: "2000",
          liquidationPrice: "30927.8350515463918",
        },
      ],
    });
  });

  it("leaves unknown what it cannot know", () => {
    const summary = marginSummary({
      usdc: "100",
      positions: [
        {
          market: "ETH-USD",
          size: "-1",
          entryPrice: undefined,
          oraclePrice: "50",
          initialMarginFraction: undefined,
          maintenanceMarginFraction: undefined,
        },
      ],
    });
    expect(summary.equity).toBe("50");
    expect([summary.freeCollateral, summary.marginUsage]).toEqual([undefined, undefined]);
    expect(summary.positions[0]).toMatchObject({ unrealizedPnl: undefined, liquidationPrice: undefined });
  });

  it("at the liquidation price, equity equals the maintenance margin", () => {
    const position = fc.record({
      size: fc.integer({ min: -1_000_000, max: 1_000_000 }).filter((n) => n !== 0),
      price: fc.integer({ min: 1, max: 10_000_000 }),
      mmfPpm: fc.integer({ min: 1, max: 500_000 }),
    });
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), position, (usdc, p) => {
        const input = (oraclePrice: string) => ({
          usdc: String(usdc),
          positions: [
            {
              market: "X",
              size: String(p.size / 1000),
              entryPrice: undefined,
              oraclePrice,
              initialMarginFraction: String(p.mmfPpm / 1e6),
              maintenanceMarginFraction: String(p.mmfPpm / 1e6),
            },
          ],
        });
        const liquidation = marginSummary(input(String(p.price / 100))).positions[0]?.liquidationPrice;
        if (liquidation === undefined) return true;
        // At that price the free collateral (here: equity − maintenance) is zero.
        const at = marginSummary(input(liquidation));
        return (
          Math.abs(Number(at.freeCollateral)) <=
          1e-6 * Math.max(1, Math.abs(Number(at.equity)) + Math.abs(usdc))
        );
      }),
    );
  });
});
