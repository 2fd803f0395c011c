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
    // whole quote quantums, 23 significant digits: every one kept (decimal.js keeps 20)
    const usdc = "12345678901234567.123456";
    const summary = marginSummary({
      usdc,
      positions: [
        {
          market: "BTC-USD",
          size: TINY,
          entryPrice: "0",
          oraclePrice: "1",
          initialMarginFraction: "0",
          maintenanceMarginFraction: "0",
        },
        {
          market: "ETH-USD",
          size: "0.000001",
          entryPrice: "0",
          oraclePrice: "1",
          initialMarginFraction: "0",
          maintenanceMarginFraction: "0",
        },
      ],
    });
    // a value below a quote quantum counts 0, as the chain counts it; the PnL keeps every digit
    expect(summary.equity).toBe("12345678901234567.123457");
    expect(summary.freeCollateral).toBe("12345678901234567.123457");
    expect(summary.positions[0]?.value).toBe("0");
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
