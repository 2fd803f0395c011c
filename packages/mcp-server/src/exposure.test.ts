import { Exact } from "@perpx/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AccountExposure, checkExposure, type InFlightExposure } from "./exposure.js";
import { resolveLimits } from "./limits.js";
import { ToolFailure } from "./tools/result.js";

const flat: AccountExposure = { position: "0", otherNotional: "0", equity: "900", loss: "0", openOrders: [] };
const buy = {
  ticker: "BTC-USD",
  side: "BUY" as const,
  size: "0.006",
  price: "65325",
  oracle: "65000",
  reduceOnly: false,
};
const inFlight = (o: Partial<InFlightExposure> = {}): InFlightExposure => ({
  ...buy,
  mayRest: false,
  lossBudget: "0",
  ...o,
});

/** The refusal of an order, or undefined when it passes. */
function refusal(...args: Parameters<typeof checkExposure>): ToolFailure | undefined {
  try {
    checkExposure(...args);
    return undefined;
  } catch (error) {
    if (error instanceof ToolFailure) return error;
    throw error;
  }
}

describe("checkExposure", () => {
  const limits = resolveLimits({ maxPositionNotional: "1000" });

  it("counts an order held in flight and already listed open once (its release comes after the answer)", () => {
    const resting = { ...buy, price: "63000", clientId: 7 };
    const listed: AccountExposure = { ...flat, openOrders: [resting] };
    // 0.006 held (and listed) + 0.006 more at 65000: 780 USD, under 1000; counted twice it would be 1170.
    expect(refusal(buy, listed, [inFlight({ ...resting, mayRest: true })], limits)).toBeUndefined();
    const open = resolveLimits({ maxOpenOrders: 2 });
    expect(refusal(buy, listed, [inFlight({ ...resting, mayRest: true })], open)).toBeUndefined();
    // Another order in flight still counts.
    expect(
      refusal(buy, listed, [inFlight({ ...resting, clientId: 8, mayRest: true })], limits)?.facts,
    ).toMatchObject({
      limit: "maxPositionNotional",
    });
  });

  it("counts the orders in flight on the order's side: two 390 USD buys pass, the third is refused naming the limit", () => {
    expect(refusal(buy, flat, [inFlight()], limits)).toBeUndefined();
    const third = refusal(buy, flat, [inFlight(), inFlight()], limits);
    expect(third?.toolCode).toBe("RISK_LIMIT");
    expect(third?.facts.limit).toBe("maxPositionNotional");
    expect(third?.shortMessage).toMatch(
      /could reach 1170 USD .*0\.012 more on the BUY side.* maxPositionNotional 1000 USD/,
    );
  });

  it("lets an order that reduces the worst case through, and a reduce-only one always", () => {
    const long: AccountExposure = { ...flat, position: "0.015" };
    const sell = { ...buy, side: "SELL" as const };
    expect(refusal(sell, long, [inFlight({ side: "SELL" })], limits)).toBeUndefined();
    // Five sells in flight take the position to -0.015: one more grows the short past the limit.
    const sells = [0, 1, 2, 3, 4].map(() => inFlight({ side: "SELL" }));
    expect(refusal(sell, long, sells, limits)?.facts.limit).toBe("maxPositionNotional");
    expect(refusal({ ...sell, reduceOnly: true }, long, sells, limits)).toBeUndefined();
    // Buys in flight do not count against a sell, nor reduce-only buys against a buy.
    expect(refusal(sell, flat, [inFlight(), inFlight(), inFlight()], limits)).toBeUndefined();
    expect(
      refusal(buy, flat, [inFlight({ reduceOnly: true }), inFlight({ reduceOnly: true })], limits),
    ).toBeUndefined();
  });

  it("counts resting orders like orders in flight", () => {
    const resting: AccountExposure = { ...flat, openOrders: [buy, buy] };
    expect(refusal(buy, resting, [], limits)?.facts.limit).toBe("maxPositionNotional");
  });

  it("refuses by leverage, open orders and the daily-loss budget, naming each", () => {
    const eth = inFlight({ ticker: "ETH-USD", size: "1", price: "3000" });
    expect(refusal(buy, flat, [eth], resolveLimits({ maxLeverage: "3" }))?.facts.limit).toBe("maxLeverage");
    expect(
      refusal(buy, flat, [inFlight({ mayRest: true })], resolveLimits({ maxOpenOrders: 1 }))?.facts.limit,
    ).toBe("maxOpenOrders");
    expect(
      refusal(buy, flat, [inFlight({ mayRest: false })], resolveLimits({ maxOpenOrders: 1 })),
    ).toBeUndefined();
    // 1.95 USD of slippage for this order, 5 at risk in flight, 993 lost today: 999.95 passes, 1000.95 does not.
    const losing = { ...flat, loss: "993" };
    expect(refusal(buy, losing, [inFlight({ lossBudget: "5" })], resolveLimits())).toBeUndefined();
    const over = refusal(buy, { ...flat, loss: "994" }, [inFlight({ lossBudget: "5" })], resolveLimits());
    expect(over?.facts.limit).toBe("maxDailyLoss");
    expect(over?.shortMessage).toMatch(
      /1000\.95 USD .*994 so far, 5 at risk in flight, 1\.95 for this order/,
    );
    expect(
      refusal({ ...buy, reduceOnly: true }, { ...flat, loss: "994" }, [], resolveLimits()),
    ).toBeUndefined();
  });

  it("(property) however orders in flight are admitted one by one, their worst case stays within the limit", () => {
    const steps = fc.array(
      fc.tuple(fc.constantFrom("BUY" as const, "SELL" as const), fc.integer({ min: 1, max: 20 })),
      {
        maxLength: 40,
      },
    );
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 10 }), steps, (start, orders) => {
        const account = { ...flat, position: Exact.fromUnits(BigInt(start), 3).toFixed() };
        const held: InFlightExposure[] = [];
        for (const [side, thousandths] of orders) {
          const order = { ...buy, side, size: Exact.fromUnits(BigInt(thousandths), 3).toFixed() };
          if (refusal(order, account, held, limits) === undefined) held.push(inFlight(order));
        }
        // If every buy (or every sell) in flight fills, the position is within the limit, or no worse than at the start.
        for (const side of ["BUY", "SELL"] as const) {
          const worst = held
            .filter((h) => h.side === side)
            .reduce((n, h) => n.plus(h.size), new Exact(0))
            .times(side === "BUY" ? 1 : -1)
            .plus(account.position);
          const bound = Exact.max(
            new Exact(limits.maxPositionNotional),
            new Exact(account.position).abs().times(buy.oracle),
          );
          expect(worst.abs().times(buy.oracle).lessThanOrEqualTo(bound)).toBe(true);
        }
      }),
    );
  });
});

describe("checkExposure's figures", () => {
  it("never show a position at or below the limit it is refused for being above (rounded up, not to nearest)", () => {
    // 0.01 at an oracle of 100000.000000000001 is 1000.00000000000001 USD, over a limit of 1000.
    const order = { ...buy, size: "0.01", price: "100000", oracle: "100000.000000000001" };
    const error = refusal(
      order,
      { ...flat, equity: "1000000" },
      [],
      resolveLimits({ maxPositionNotional: "1000" }),
    );
    expect(error?.facts).toMatchObject({
      limit: "maxPositionNotional",
      worstPositionNotional: "1000.00000001",
    });
    expect(error?.shortMessage).toMatch(/could reach 1000\.00000001 USD .*maxPositionNotional 1000 USD/);
  });
});
