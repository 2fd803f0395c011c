import { Exact } from "@perpx/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marketWorstPrice, orderOfInput, sizeForNotional, worstPrice } from "./placeInput.js";
import { ToolFailure } from "./result.js";

/** Exact strings with up to `places` decimals, from one unit of the last place up. */
const decimalOf = (places: number, max: bigint) =>
  fc.bigInt({ min: 1n, max }).map((units) => Exact.fromUnits(units, places).toFixed());
const step = fc.integer({ min: 0, max: 8 }).map((places) => Exact.fromUnits(1n, places).toFixed());

describe("sizeForNotional (property)", () => {
  it("answers the most whole steps whose notional fits: one step more would not", () => {
    fc.assert(
      fc.property(decimalOf(6, 10n ** 12n), decimalOf(6, 10n ** 12n), step, (notional, price, stepSize) => {
        let size: string;
        try {
          size = sizeForNotional(notional, price, stepSize);
        } catch (error) {
          expect(error).toBeInstanceOf(ToolFailure);
          expect((error as ToolFailure).toolCode).toBe("QUANTIZATION");
          expect(new Exact(stepSize).times(price).greaterThan(notional)).toBe(true);
          return;
        }
        const sized = new Exact(size);
        expect(sized.dividedBy(stepSize, { scale: 0, rounding: "trunc" }).times(stepSize).equals(sized)).toBe(
          true,
        );
        expect(sized.times(price).lessThanOrEqualTo(notional)).toBe(true);
        expect(sized.plus(stepSize).times(price).greaterThan(notional)).toBe(true);
      }),
    );
  });

  it("is exact where floats are not", () => {
    // 0.3 / 0.1 is 2.9999999999999996 in floats: three steps fit exactly.
    expect(sizeForNotional("0.3", "1", "0.1")).toBe("0.3");
    expect(sizeForNotional("0.29", "1", "0.1")).toBe("0.2");
  });
});

describe("worstPrice (property)", () => {
  it("moves the oracle exactly slippageBps against the taker", () => {
    fc.assert(
      fc.property(decimalOf(6, 10n ** 12n), fc.integer({ min: 0, max: 10_000 }), (oracle, bps) => {
        const up = new Exact(worstPrice("BUY", oracle, bps));
        const down = new Exact(worstPrice("SELL", oracle, bps));
        expect(up.minus(oracle).times(10_000).equals(new Exact(oracle).times(bps))).toBe(true);
        expect(new Exact(oracle).minus(down).times(10_000).equals(new Exact(oracle).times(bps))).toBe(true);
      }),
    );
  });
});

describe("marketWorstPrice", () => {
  const btc = {
    atomicResolution: -10,
    quantumConversionExponent: -9,
    stepBaseQuantums: 1_000_000n,
    subticksPerTick: 100_000,
  };

  it("moves the oracle by the slippage onto the tick inside the bound", () => {
    fc.assert(
      fc.property(
        decimalOf(6, 10n ** 11n),
        fc.integer({ min: 0, max: 500 }),
        fc.boolean(),
        (oracle, bps, buy) => {
          const side = buy ? "BUY" : "SELL";
          const bound = new Exact(worstPrice(side, oracle, bps));
          let price: Exact;
          try {
            price = new Exact(marketWorstPrice(side, oracle, bps, btc));
          } catch (error) {
            expect((error as ToolFailure).toolCode).toBe("QUANTIZATION");
            expect(buy && bound.lessThan(1)).toBe(true);
            return;
          }
          // On the tick of 1 USD, inside the bound, less than one tick from it.
          expect(price.dividedBy(1, { scale: 0, rounding: "trunc" }).equals(price)).toBe(true);
          expect(buy ? price.lessThanOrEqualTo(bound) : price.greaterThanOrEqualTo(bound)).toBe(true);
          expect(price.minus(bound).abs().lessThan(1)).toBe(true);
        },
      ),
    );
  });

  it("is what a MARKET order carries and is sent with, and a SELL by notional is sized at the oracle", () => {
    const market = { oracle: "65000.5", stepSize: "0.0001", slippageBps: 50, clobPair: btc };
    const sell = orderOfInput(
      { ticker: "BTC-USD", side: "SELL", type: "MARKET", notionalUsd: "650" },
      market,
    );
    expect([sell.price, sell.order.price, sell.order.slippage]).toEqual(["64676", "64676", undefined]);
    // 650 at the oracle (the bids it crosses), not at its worst price: 0.01, not 0.0100.
    expect(sell.size).toBe("0.0099");
    const buy = orderOfInput({ ticker: "BTC-USD", side: "BUY", type: "MARKET", notionalUsd: "650" }, market);
    expect([buy.price, buy.order.price, buy.size]).toEqual(["65325", "65325", "0.0099"]);
  });
});
