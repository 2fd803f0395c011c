import { Exact } from "@perpx/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CheckResult, type OrderFacts, positionAfter, runOrderChecks } from "./checks.js";
import { resolveLimits, type TradingLimits } from "./limits.js";
import { ToolFailure } from "./tools/result.js";

const facts: OrderFacts = {
  ticker: "BTC-USD",
  side: "BUY",
  size: "0.01",
  price: "65000",
  oracle: "65000",
  marketStatus: "ACTIVE",
  reduceOnly: false,
  position: "0",
  otherNotional: "0",
  equity: "10000",
  freeCollateral: "10000",
  initialMarginFraction: "0.05",
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

function refusal(changes: Partial<OrderFacts>, within: TradingLimits = limits): string {
  const passed: CheckResult[] = [];
  try {
    runOrderChecks({ ...facts, ...changes }, within, passed);
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
      "free_collateral",
      "max_open_orders",
      "daily_loss_breaker",
      "reduce_only",
    ]);
  });

  it("stops at the first failing check with its code", () => {
    expect(refusal({ ticker: "ETH-USD", price: "1" })).toBe("MARKET_NOT_ALLOWED after 0");
    expect(refusal({ marketStatus: "CANCEL_ONLY" })).toBe("MARKET_NOT_ACTIVE after 1");
    expect(refusal({ price: "80000" })).toBe("PRICE_BAND after 2");
    expect(refusal({ size: "0.02" })).toBe("RISK_LIMIT after 3");
    expect(refusal({ position: "0.025" })).toBe("RISK_LIMIT after 4");
    expect(refusal({ equity: "300" })).toBe("RISK_LIMIT after 5");
    expect(refusal({ equity: "0" })).toBe("INSUFFICIENT_COLLATERAL after 5");
    expect(refusal({ freeCollateral: "32.49" })).toBe("INSUFFICIENT_COLLATERAL after 6");
    expect(refusal({ freeCollateral: undefined })).toBe("passed 10");
    expect(refusal({ openOrders: 3 })).toBe("RISK_LIMIT after 7");
    expect(refusal({ breakerTripped: true })).toBe("CIRCUIT_BREAKER after 8");
    expect(refusal({ reduceOnly: true })).toBe("REDUCE_ONLY after 9");
  });

  it("lets reduce-only orders through the breaker, the position, leverage and collateral limits, but never past the position", () => {
    const reducing = {
      side: "SELL" as const,
      reduceOnly: true,
      breakerTripped: true,
      position: "0.05",
      equity: "100",
      freeCollateral: "0",
    };
    expect(refusal(reducing)).toBe("passed 10");
    expect(refusal({ ...reducing, position: "0.01", size: "0.012" })).toBe("REDUCE_ONLY after 9");
    expect(
      refusal({
        ...reducing,
        side: "BUY",
        size: "0.001",
        position: "0.02",
        equity: "10000",
        freeCollateral: "10000",
      }),
    ).toBe("REDUCE_ONLY after 9");
  });

  it("compares exactly where floats round: 0.1 + 0.2 of position is 0.3, not above it", () => {
    // In floats 0.1 + 0.2 > 0.3 and 3 * 0.1 * 1000 > 300: both orders are exactly at their limit.
    const within = resolveLimits({ maxPositionNotional: "300", maxOrderNotional: "300", maxLeverage: "100" });
    expect(
      refusal({ size: "0.2", position: "0.1", price: "1000", oracle: "1000", ticker: "BTC-USD" }, within),
    ).toBe("passed 10");
    expect(refusal({ size: "0.3", price: "1000", oracle: "1000" }, within)).toBe("passed 10");
  });
});

/** Exact strings with up to 6 places, from 10^-6 to 10^6. */
const positive = fc
  .bigInt({ min: 1n, max: 1_000_000_000_000n })
  .map((units) => Exact.fromUnits(units, 6).toFixed());
/** One quantum of the generated amounts. */
const QUANTUM = "0.000001";

/** Facts that pass every check except the one a property sets exactly at its limit. */
const open: OrderFacts = { ...facts, equity: "1000000000", freeCollateral: "1000000000000" };
const loose = resolveLimits({
  priceBandBps: 10_000,
  maxOrderNotional: "1000000000000000",
  maxPositionNotional: "1000000000000000",
  maxLeverage: "1000000",
  maxOpenOrders: 1_000,
});

describe("runOrderChecks at its boundaries (property)", () => {
  it("max order notional: exactly at the limit passes, one quantum over fails", () => {
    fc.assert(
      fc.property(positive, positive, (size, price) => {
        const notional = new Exact(size).times(price).toFixed();
        const within = { ...loose, maxOrderNotional: notional };
        const at = { ...open, size, price, oracle: price };
        expect(refusal(at, within)).toBe("passed 10");
        const over = { ...at, size: new Exact(size).plus(QUANTUM).toFixed() };
        expect(refusal(over, within)).toBe("RISK_LIMIT after 3");
      }),
    );
  });

  it("max order notional counts a SELL under the oracle at the oracle, a BUY at its price: the most either may trade at", () => {
    // Oracle 65000, limit 1000: 0.0155 is 1007.5 at the oracle; a SELL at 64000 (992 at its price)
    // crosses the bids up to the oracle, a BUY at 64000 never pays above it.
    const within = resolveLimits({ ...limits, maxOrderNotional: "1000" });
    const order = { size: "0.0155", price: "64000", oracle: "65000" };
    expect(refusal({ ...order, side: "SELL", position: "0.02" }, within)).toBe("RISK_LIMIT after 3");
    expect(refusal({ ...order, side: "BUY" }, within)).toBe("passed 10");
    // A SELL above the oracle counts at its own price.
    expect(
      refusal({ ...order, side: "SELL", price: "65000", size: "0.0153", position: "0.02" }, within),
    ).toBe("passed 10");
    fc.assert(
      fc.property(positive, positive, positive, (size, price, oracle) => {
        // Within the widest price band a limit can state (so that band never decides).
        const band = new Exact(oracle).times(Number.MAX_SAFE_INTEGER);
        fc.pre(new Exact(price).minus(oracle).abs().times(10_000).lessThanOrEqualTo(band));
        const top = Exact.max(price, oracle);
        const at = { ...open, side: "SELL" as const, size, price, oracle, position: size };
        const within = {
          ...loose,
          priceBandBps: Number.MAX_SAFE_INTEGER,
          maxOrderNotional: top.times(size).toFixed(),
        };
        expect(refusal(at, within)).toBe("passed 10");
        const over = { ...at, size: new Exact(size).plus(QUANTUM).toFixed() };
        expect(refusal(over, within)).toBe("RISK_LIMIT after 3");
      }),
    );
  });

  it("max position notional: exactly at the limit passes, one quantum over fails", () => {
    fc.assert(
      fc.property(positive, positive, positive, (position, size, oracle) => {
        const limit = new Exact(position).plus(size).times(oracle).toFixed();
        const within = { ...loose, maxPositionNotional: limit };
        const at = { ...open, position, size, price: oracle, oracle };
        expect(refusal(at, within)).toBe("passed 10");
        const over = { ...at, size: new Exact(size).plus(QUANTUM).toFixed() };
        expect(refusal(over, within)).toBe("RISK_LIMIT after 4");
      }),
    );
  });

  it("max leverage: exactly at the limit passes, one quantum of exposure over fails", () => {
    fc.assert(
      fc.property(positive, positive, positive, positive, (size, oracle, other, equity) => {
        const exposure = new Exact(size).times(oracle).plus(other);
        const maxLeverage = exposure.dividedBy(equity, { scale: 30, rounding: "trunc" });
        // Only leverages the limit can state exactly (a decimal string): exposure = leverage * equity.
        fc.pre(maxLeverage.times(equity).equals(exposure));
        const within = { ...loose, maxLeverage: maxLeverage.toFixed() };
        const at = { ...open, size, price: oracle, oracle, otherNotional: other, equity };
        expect(refusal(at, within)).toBe("passed 10");
        const over = { ...at, otherNotional: new Exact(other).plus(QUANTUM).toFixed() };
        expect(refusal(over, within)).toBe("RISK_LIMIT after 5");
      }),
    );
  });

  it("price band: exactly at the band passes, one quantum further fails", () => {
    fc.assert(
      fc.property(positive, fc.integer({ min: 1, max: 9_999 }), fc.boolean(), (oracle, bps, above) => {
        const offset = new Exact(oracle).times(bps).times("0.0001");
        fc.pre(offset.times(10_000).equals(new Exact(oracle).times(bps)));
        const edge = above ? new Exact(oracle).plus(offset) : new Exact(oracle).minus(offset);
        const within = { ...loose, priceBandBps: bps };
        const at = { ...open, oracle, price: edge.toFixed(), size: QUANTUM };
        expect(refusal(at, within)).toBe("passed 10");
        const further = above ? edge.plus(QUANTUM) : edge.minus(QUANTUM);
        fc.pre(further.greaterThan(0));
        expect(refusal({ ...at, price: further.toFixed() }, within)).toBe("PRICE_BAND after 2");
      }),
    );
  });

  it("free collateral: an initial margin exactly the free collateral passes, one quantum more fails", () => {
    fc.assert(
      fc.property(positive, positive, (size, price) => {
        const required = new Exact(size).times(price).times("0.05").toFixed();
        const at = { ...open, size, price, oracle: price, freeCollateral: required };
        expect(refusal(at, loose)).toBe("passed 10");
        const short = new Exact(required).minus(QUANTUM);
        fc.pre(short.greaterThanOrEqualTo(0));
        expect(refusal({ ...at, freeCollateral: short.toFixed() }, loose)).toBe(
          "INSUFFICIENT_COLLATERAL after 6",
        );
      }),
    );
  });

  it("positionAfter adds or takes the size exactly, and grows only when the size is larger after", () => {
    fc.assert(
      fc.property(positive, positive, fc.boolean(), fc.boolean(), (position, size, short, buy) => {
        const signed = short ? `-${position}` : position;
        const { after, grows } = positionAfter({ side: buy ? "BUY" : "SELL", size, position: signed });
        const expected = buy ? new Exact(signed).plus(size) : new Exact(signed).minus(size);
        expect(after).toBe(expected.toFixed());
        expect(grows).toBe(expected.abs().greaterThan(position));
      }),
    );
  });
});

describe("the figures of a refusal", () => {
  /** The refusal of `changes` (it must be one). */
  function failure(changes: Partial<OrderFacts>, within: TradingLimits = limits): ToolFailure {
    try {
      runOrderChecks({ ...facts, ...changes }, within, []);
    } catch (error) {
      if (error instanceof ToolFailure) return error;
      throw error;
    }
    throw new Error("not refused");
  }

  it("never show an amount at or below the limit it is refused for being above (rounded up, not to nearest)", () => {
    // A MARKET buy's worst price (oracle moved by bps) has more decimals than the 8 a message shows.
    const price = "65000.000000000001";
    const notional = failure(
      { size: "0.01", price, oracle: "65000" },
      { ...limits, maxOrderNotional: "650" },
    );
    expect(notional.message).toContain(
      "the order's notional 650.00000001 USD is above the limit maxOrderNotional 650 USD",
    );
    const position = failure(
      { size: "0.01", price: "65000", oracle: price },
      {
        ...limits,
        maxOrderNotional: "1000000",
        maxPositionNotional: "650",
      },
    );
    expect(position.message).toContain(
      "would be 650.00000001 USD, above the limit maxPositionNotional 650 USD",
    );
    // 0.01 × 65000.0000325 over an equity of 325 is a leverage of 2.000000001.
    const leverage = failure(
      { size: "0.01", oracle: "65000.0000325", equity: "325" },
      {
        ...limits,
        maxOrderNotional: "1000000",
        maxPositionNotional: "1000000",
      },
    );
    expect(leverage.message).toContain("leverage would be 2.00000001x, above the limit maxLeverage 2x");
    // 10 bps and a billionth of the oracle away: shown as 10.00000001 bps, not as the band's 10.
    const band = failure({ price: "65065.000000065", oracle: "65000" }, { ...limits, priceBandBps: 10 });
    expect(band.message).toContain("is 10.00000001 bps from the oracle 65000; at most 10 bps");
  });

  it("name the free collateral an order needs rounded up, so that much is enough", () => {
    // 0.01 × 65000.000000000001 × 0.05 = 32.50000000000000005: 32.5 would not be enough.
    const error = failure({ price: "65000.000000000001", oracle: "65000", freeCollateral: "32.5" });
    expect(error.toolCode).toBe("INSUFFICIENT_COLLATERAL");
    expect(error.message).toContain("needs 32.50000001 USDC");
  });
});
