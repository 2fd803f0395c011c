import { isInvalidAmountError, isInvalidOrderError, priceToSubticks, subticksToPrice } from "@perpx/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { btc, planContext as context } from "../test/fixtures/btc-market.js";
import { ClientIds } from "./clientIds.js";
import { orderKind, planOrder, slippagePpm, worstSubticks } from "./orderPlan.js";

describe("planning an order", () => {
  it("chooses the kind from the type, the time in force and goodTil", () => {
    expect(orderKind({ type: "LIMIT" })).toBe("long-term");
    expect(orderKind({ type: "LIMIT", timeInForce: "POST_ONLY" })).toBe("long-term");
    expect(orderKind({ type: "LIMIT", timeInForce: "IOC" })).toBe("short-term");
    expect(orderKind({ type: "LIMIT", timeInForce: "FILL_OR_KILL" })).toBe("short-term");
    expect(orderKind({ type: "LIMIT", goodTil: { blocks: 5 } })).toBe("short-term");
    expect(orderKind({ type: "MARKET" })).toBe("short-term");
    for (const type of ["STOP_LIMIT", "STOP_MARKET", "TAKE_PROFIT", "TAKE_PROFIT_MARKET"] as const) {
      expect(orderKind({ type })).toBe("conditional");
    }
  });

  it("converts a limit order exactly, with its expiry from the clock or the height", () => {
    const long = planOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" }, context);
    expect(long).toMatchObject({ kind: "long-term", quantums: 10_000_000n, clientId: 7, clobPairId: 0 });
    expect(long.kind === "long-term" && long.goodTilBlockTime).toBe(1_700_000_000 + 28 * 24 * 3600);
    const short = planOrder(
      {
        market: "BTC-USD",
        side: "SELL",
        size: "0.002",
        price: "30000",
        goodTil: { blocks: 40 },
        clientId: 9,
      },
      context,
    );
    expect(short).toMatchObject({
      kind: "short-term",
      goodTilBlock: 1_040,
      clientId: 9,
      quantums: 20_000_000n,
    });
  });

  it("refuses off-grid sizes and prices naming the nearest valid ones, unless rounding is asked for", () => {
    const offStep = (() => {
      try {
        return planOrder({ market: "BTC-USD", side: "BUY", size: "0.00015", price: "30000" }, context);
      } catch (error) {
        return error;
      }
    })();
    expect(isInvalidAmountError(offStep) && offStep.nearest).toEqual(["0.0001", "0.0002"]);
    const rounded = planOrder(
      { market: "BTC-USD", side: "BUY", size: "0.00015", price: "30000.5", rounding: "down" },
      context,
    );
    expect(rounded.quantums).toBe(1_000_000n);
    expect(subticksToPrice(rounded.subticks, btc)).toBe("30000");
  });

  it("refuses goodTil outside the window and orders without a price", () => {
    const refuse = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return isInvalidOrderError(error);
      }
      return false;
    };
    const base = { market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" } as const;
    expect(refuse(() => planOrder({ ...base, goodTil: { blocks: 41 } }, context))).toBe(true);
    expect(refuse(() => planOrder({ ...base, goodTil: { blocks: 0 } }, context))).toBe(true);
    expect(refuse(() => planOrder({ ...base, type: "MARKET", goodTil: { seconds: 60 } }, context))).toBe(
      true,
    );
    expect(refuse(() => planOrder({ ...base, type: "STOP_LIMIT" }, context))).toBe(true);
    expect(refuse(() => planOrder({ ...base, triggerPrice: "1" }, context))).toBe(true);
    expect(
      refuse(() => planOrder({ market: "BTC-USD", side: "BUY", size: "1", type: "MARKET" }, context)),
    ).toBe(true);
    expect(refuse(() => planOrder({ ...base, side: "HOLD" as "BUY" }, context))).toBe(true);
  });

  it("bounds a MARKET order by slippage from the oracle, and a STOP_MARKET from its trigger", () => {
    const buy = planOrder(
      { market: "BTC-USD", side: "BUY", type: "MARKET", size: "0.001", slippage: "0.5%" },
      context,
    );
    expect(subticksToPrice(buy.subticks, btc)).toBe("60300");
    expect(buy).toMatchObject({ kind: "short-term", timeInForce: "IOC", goodTilBlock: 1_020 });
    const stop = planOrder(
      {
        market: "BTC-USD",
        side: "SELL",
        type: "STOP_MARKET",
        size: "0.001",
        triggerPrice: "50000",
        slippage: "1%",
      },
      context,
    );
    expect(stop).toMatchObject({ kind: "conditional", conditionType: "STOP_LOSS", timeInForce: "IOC" });
    expect(subticksToPrice(stop.subticks, btc)).toBe("49500");
    const tp = planOrder(
      {
        market: "BTC-USD",
        side: "SELL",
        type: "TAKE_PROFIT",
        size: "0.001",
        triggerPrice: "70000",
        price: "69000",
      },
      context,
    );
    expect(tp).toMatchObject({ kind: "conditional", conditionType: "TAKE_PROFIT" });
  });

  it("parses slippage as a percentage", () => {
    expect(slippagePpm("0.5%")).toBe(5_000n);
    expect(slippagePpm("100%")).toBe(1_000_000n);
    for (const bad of ["0.5", "-1%", "101%", "abc"]) expect(() => slippagePpm(bad)).toThrow(/slippage/);
  });

  it("keeps the worst price on the tick and inside the bound (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 1_000_000n }),
        fc.constantFrom("BUY" as const, "SELL" as const),
        (reference, ppm, side) => {
          const bound = reference * (1_000_000n + ppm);
          if (side === "BUY" && bound < btc.subticksPerTick * 1_000_000n) {
            expect(() => worstSubticks({ side, referenceSubticks: reference, ppm, market: btc })).toThrow(
              /slippage/,
            );
            return;
          }
          const worst = worstSubticks({ side, referenceSubticks: reference, ppm, market: btc });
          expect(worst % btc.subticksPerTick).toBe(0n);
          expect(worst).toBeGreaterThan(0n);
          // inside the bound: a buy pays at most reference × (1 + s), a sell gets at least reference × (1 − s)
          if (side === "BUY") expect(worst * 1_000_000n <= reference * (1_000_000n + ppm)).toBe(true);
          else if (reference * (1_000_000n - ppm) >= btc.subticksPerTick * 1_000_000n)
            expect(worst * 1_000_000n >= reference * (1_000_000n - ppm)).toBe(true);
        },
      ),
    );
    expect(priceToSubticks("60300", btc)).toBe(
      worstSubticks({
        side: "BUY",
        referenceSubticks: priceToSubticks("60000", btc),
        ppm: 5_000n,
        market: btc,
      }),
    );
  });
});

describe("client ids", () => {
  it("count up from the clock in milliseconds mod 2^32, per key, wrapping at 2^32", () => {
    const ids = new ClientIds(() => 1_700_000_000_999);
    const seed = 1_700_000_000_999 % 2 ** 32;
    expect([ids.next("a"), ids.next("a"), ids.next("b")]).toEqual([seed, seed + 1, seed]);
    // A process restarted 5 ms later starts past the 4 ids the first one used.
    const restarted = new ClientIds(() => 1_700_000_001_004);
    expect(restarted.next("a")).toBeGreaterThan(seed + 3);
    const wrap = new ClientIds(() => 2 ** 32 - 1);
    expect([wrap.next("k"), wrap.next("k")]).toEqual([2 ** 32 - 1, 0]);
  });
});
