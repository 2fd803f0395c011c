import { describe, expect, it } from "vitest";
import { type CheckResult, type OrderFacts, runOrderChecks } from "./checks.js";
import { resolveLimits } from "./limits.js";
import { ToolFailure } from "./tools/result.js";

const facts: OrderFacts = {
  ticker: "BTC-USD",
  side: "BUY",
  size: 0.01,
  price: 65_000,
  oracle: 65_000,
  marketStatus: "ACTIVE",
  reduceOnly: false,
  position: 0,
  otherNotional: 0,
  equity: 10_000,
  openOrders: 0,
  breakerTripped: false,
};
const limits = resolveLimits({
  allowedMarkets: ["BTC-USD"],
  maxOrderNotional: "1000",
  maxPositionNotional: "2000",
  maxLeverage: "2",
  maxOpenOrders: 3,
});

function refusal(changes: Partial<OrderFacts>): string {
  const passed: CheckResult[] = [];
  try {
    runOrderChecks({ ...facts, ...changes }, limits, passed);
  } catch (error) {
    if (error instanceof ToolFailure) return `${error.toolCode} after ${passed.length}`;
    throw error;
  }
  return `passed ${passed.length}`;
}

describe("runOrderChecks", () => {
  it("passes a sound order through every check, in order", () => {
    const passed: CheckResult[] = [];
    runOrderChecks(facts, limits, passed);
    expect(passed.map((c) => c.check)).toEqual([
      "market_allowlist",
      "market_status",
      "price_band",
      "max_order_notional",
      "max_position_notional",
      "max_leverage",
      "max_open_orders",
      "daily_loss_breaker",
      "reduce_only",
    ]);
  });

  it("stops at the first failing check with its code", () => {
    expect(refusal({ ticker: "ETH-USD", price: 1 })).toBe("MARKET_NOT_ALLOWED after 0");
    expect(refusal({ marketStatus: "CANCEL_ONLY" })).toBe("MARKET_NOT_ACTIVE after 1");
    expect(refusal({ price: 80_000 })).toBe("PRICE_BAND after 2");
    expect(refusal({ size: 0.02 })).toBe("RISK_LIMIT after 3");
    expect(refusal({ position: 0.025 })).toBe("RISK_LIMIT after 4");
    expect(refusal({ equity: 300 })).toBe("RISK_LIMIT after 5");
    expect(refusal({ equity: 0 })).toBe("INSUFFICIENT_COLLATERAL after 5");
    expect(refusal({ openOrders: 3 })).toBe("RISK_LIMIT after 6");
    expect(refusal({ breakerTripped: true })).toBe("CIRCUIT_BREAKER after 7");
    expect(refusal({ reduceOnly: true })).toBe("REDUCE_ONLY after 8");
  });

  it("lets reduce-only orders through the breaker, the position and the leverage limits, but never past the position", () => {
    const reducing = {
      side: "SELL" as const,
      reduceOnly: true,
      breakerTripped: true,
      position: 0.05,
      equity: 100,
    };
    expect(refusal(reducing)).toBe("passed 9");
    expect(refusal({ ...reducing, position: 0.01, size: 0.012 })).toBe("REDUCE_ONLY after 8");
    expect(refusal({ ...reducing, side: "BUY", size: 0.001, position: 0.02, equity: 10_000 })).toBe(
      "REDUCE_ONLY after 8",
    );
  });
});
