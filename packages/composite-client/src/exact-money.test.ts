/**
 * Issue 20, point 5: every amount the client computes keeps every digit. The example,
 * `1234567890123.123456789 + 0.000000001`, has 22 significant digits: decimal.js at its default 20
 * rounded it to `1234567890123.1234568`.
 */
import { describe, expect, it } from "vitest";
import { marginSummary } from "./margin.js";
import { fillTotals } from "./orderOutcome.js";

const BIG = "1234567890123.123456789";
const TINY = "0.000000001";
const SUM = "1234567890123.12345679";

describe("exact money in the composite client", () => {
  it("computes equity, free collateral and PnL without rounding", () => {
    const summary = marginSummary({
      usdc: BIG,
      positions: [
        {
          market: "BTC-USD",
          size: TINY,
          entryPrice: "0",
          oraclePrice: "1",
          initialMarginFraction: "0",
          maintenanceMarginFraction: "0",
        },
      ],
    });
    expect(summary.equity).toBe(SUM);
    expect(summary.freeCollateral).toBe(SUM);
    expect(summary.positions[0]?.unrealizedPnl).toBe(TINY);
  });

  it("sums fills and fees without rounding", () => {
    const totals = fillTotals([
      { size: BIG, price: "1", fee: BIG },
      { size: TINY, price: "1", fee: TINY },
    ]);
    expect(totals).toEqual({ filledSize: SUM, averagePrice: "1", fees: SUM });
  });
});
