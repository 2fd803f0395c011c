import { isInvalidOrderError } from "@perpx/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planContext as context } from "../test/fixtures/btc-market.js";
import { type HumanOrder, planOrder } from "./orderPlan.js";

const base = { market: "BTC-USD", side: "SELL", size: "0.001", price: "60000" } as const;

/** The field an order is refused on, or undefined when it plans. */
function refusedField(order: HumanOrder): string | undefined {
  try {
    planOrder(order, context);
    return undefined;
  } catch (error) {
    if (isInvalidOrderError(error)) return error.field;
    throw error;
  }
}

describe("orders the chain would refuse are refused while planning", () => {
  it("reduce-only only on IOC orders (clob 9003)", () => {
    expect(refusedField({ ...base, reduceOnly: true })).toBe("reduceOnly"); // long-term GTC
    expect(refusedField({ ...base, reduceOnly: true, goodTil: { blocks: 10 } })).toBe("reduceOnly"); // short-term GTC
    expect(refusedField({ ...base, reduceOnly: true, postOnly: true })).toBe("reduceOnly");
    expect(refusedField({ ...base, type: "STOP_LIMIT", triggerPrice: "59000", reduceOnly: true })).toBe(
      "reduceOnly",
    );
    expect(refusedField({ ...base, reduceOnly: true, timeInForce: "IOC" })).toBeUndefined();
    expect(refusedField({ ...base, type: "MARKET", reduceOnly: true })).toBeUndefined();
    expect(
      refusedField({ ...base, type: "STOP_MARKET", triggerPrice: "59000", reduceOnly: true }),
    ).toBeUndefined();
    let message = "";
    try {
      planOrder({ ...base, reduceOnly: true }, context);
    } catch (error) {
      message = String(error);
    }
    expect(message).toContain("9003");
    expect(message).toContain("long-term");
  });

  it("fill-or-kill, post-only beside another time in force, post-only market orders", () => {
    expect(refusedField({ ...base, timeInForce: "FILL_OR_KILL" })).toBe("timeInForce");
    expect(refusedField({ ...base, postOnly: true, timeInForce: "IOC" })).toBe("timeInForce");
    expect(refusedField({ ...base, postOnly: true, timeInForce: "GTC" })).toBe("timeInForce");
    expect(refusedField({ ...base, type: "MARKET", postOnly: true })).toBe("postOnly");
    expect(refusedField({ ...base, postOnly: true, timeInForce: "POST_ONLY" })).toBeUndefined();
    expect(refusedField({ ...base, postOnly: true })).toBeUndefined();
  });

  it("a good-til time within the 95-day window only", () => {
    const days = (n: number) => ({ seconds: n * 86_400 });
    expect(refusedField({ ...base, goodTil: days(95) })).toBeUndefined();
    expect(refusedField({ ...base, goodTil: { seconds: 95 * 86_400 + 1 } })).toBe("goodTil.seconds");
    expect(refusedField({ ...base, type: "TAKE_PROFIT", triggerPrice: "61000", goodTil: days(96) })).toBe(
      "goodTil.seconds",
    );
  });

  it("reduce-only plans exactly when the order goes out IOC", () => {
    const tifs = fc.constantFrom(undefined, "GTC", "IOC", "POST_ONLY" as const);
    const types = fc.constantFrom("LIMIT", "MARKET", "STOP_LIMIT", "STOP_MARKET" as const);
    fc.assert(
      fc.property(tifs, types, fc.boolean(), (timeInForce, type, reduceOnly) => {
        const conditional = type.startsWith("STOP");
        const order: HumanOrder = {
          ...base,
          type,
          reduceOnly,
          ...(timeInForce === undefined ? {} : { timeInForce }),
          ...(conditional ? { triggerPrice: "59000" } : {}),
        };
        let planned: ReturnType<typeof planOrder> | undefined;
        try {
          planned = planOrder(order, context);
        } catch (error) {
          if (!isInvalidOrderError(error)) throw error;
          expect(["reduceOnly", "timeInForce", "goodTil"]).toContain(error.field);
          return;
        }
        if (planned.reduceOnly) expect(planned.timeInForce).toBe("IOC");
      }),
    );
  });
});
