import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { prices } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chainState } from "../../../../test/support/chain-state.js";
import { probedChain } from "../../../../test/support/probe-chain.js";
import { priceFromDecimal, priceToDecimal, splitmix64 } from "./prices.js";

const allPrices = (app: { query(path: string, data: Uint8Array): { value: Uint8Array } }) =>
  fromBinary(
    prices.QueryAllMarketPricesResponseSchema,
    app.query(
      "/perpx.prices.v1.Query/AllMarketPrices",
      toBinary(prices.QueryAllMarketPricesRequestSchema, create(prices.QueryAllMarketPricesRequestSchema)),
    ).value,
  ).marketPrices.map((p) => p.price);

const blockTimes = (count: number) =>
  Array.from({ length: count }, (_, i) => new Date(Date.UTC(2026, 0, 1, 0, 0, i + 1)));

describe("prices", () => {
  it("has BTC-USD, ETH-USD and SOL-USD at genesis with realistic exponents", () => {
    const { app, run } = probedChain();
    const params = run((ctx, k) => k.prices.allMarketParams(ctx));
    expect(params.map((p) => [p.id, p.pair, p.exponent])).toEqual([
      [0, "BTC-USD", -5],
      [1, "ETH-USD", -6],
      [2, "SOL-USD", -8],
    ]);
    // The first block already walked once: the reference is the genesis price.
    expect(run((ctx, k) => k.prices.referencePrice(ctx, 0))).toBe(6_500_000_000n);
    const btc = run((ctx, k) => k.prices.oraclePrice(ctx, 0));
    expect(btc.exponent).toBe(-5);
    expect(btc.price >= 6_496_750_000n && btc.price <= 6_503_250_000n).toBe(true);
    expect(app.query("/perpx.prices.v1.Query/MarketPrice", new Uint8Array([8, 9])).code).toBe(22);
  });

  it("walks deterministically: the same seed and blocks give the same prices, also across a restart", () => {
    const a = probedChain();
    const b = probedChain();
    for (const time of blockTimes(10)) {
      a.app.produceBlock(time);
      b.app.produceBlock(time);
    }
    expect(allPrices(a.app)).toEqual(allPrices(b.app));
    expect(allPrices(a.app)).not.toEqual([6_500_000_000n, 3_200_000_000n, 15_000_000_000n]);
    const resumed = probedChain({ state: chainState(a.app) });
    for (const time of blockTimes(20).slice(10)) {
      a.app.produceBlock(time);
      resumed.app.produceBlock(time);
    }
    expect(allPrices(resumed.app)).toEqual(allPrices(a.app));
  });

  it("property: splitmix64 is a pure function of its state", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (seed) => {
        expect(splitmix64(seed)).toEqual(splitmix64(seed));
        expect(splitmix64(seed).value).not.toBe(splitmix64(seed ^ 1n).value);
      }),
    );
  });

  it("stays within the band around the reference, and stops when the walk is off", () => {
    const { run } = probedChain();
    run((ctx, k) => {
      const { bandPpm, stepPpm } = k.prices.oracleState(ctx);
      expect([stepPpm, bandPpm]).toEqual([500, 50_000]);
      for (let i = 0; i < 3000; i++) {
        k.prices.walk(ctx);
        const btc = k.prices.oraclePrice(ctx, 0).price;
        expect(btc >= 6_175_000_000n && btc <= 6_825_000_000n).toBe(true);
      }
      k.prices.setWalk(ctx, false);
      const frozen = k.prices.oraclePrice(ctx, 1).price;
      k.prices.walk(ctx);
      expect(k.prices.oraclePrice(ctx, 1).price).toBe(frozen);
    });
  });

  it("sets a price through control (by pair or id) and re-centers the band on it", () => {
    const { app, run } = probedChain();
    expect(app.control.setOraclePrice("BTC-USD", "70000.12345")).toEqual({
      marketId: 0,
      pair: "BTC-USD",
      price: "7000012345",
      exponent: -5,
    });
    expect(run((ctx, k) => k.prices.referencePrice(ctx, 0))).toBe(7_000_012_345n);
    app.control.setOracleWalk(false);
    app.produceBlock(new Date("2026-01-01T00:00:05Z"));
    expect(allPrices(app)[0]).toBe(7_000_012_345n);
    app.control.setOraclePrice(2, "151.5");
    expect(allPrices(app)[2]).toBe(15_150_000_000n);
    expect(() => app.control.setOraclePrice("BTC-USD", "1.000001")).toThrow(/more decimals/);
    expect(() => app.control.setOraclePrice(9, "1")).toThrow(/does not exist/);
  });

  it("converts decimal prices exactly", () => {
    expect(priceFromDecimal("65000", -5)).toBe(6_500_000_000n);
    expect(priceFromDecimal("0.5", 0 - 1)).toBe(5n);
    expect(() => priceFromDecimal("-1", -5)).toThrow();
    expect(() => priceFromDecimal("0", -5)).toThrow();
    expect(priceToDecimal(6_500_050_000n, -5)).toBe("65000.5");
    expect(priceToDecimal(5n, -8)).toBe("0.00000005");
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 18n }),
        fc.integer({ min: -12, max: 0 }),
        (mantissa, exponent) => {
          expect(priceFromDecimal(priceToDecimal(mantissa, exponent), exponent)).toBe(mantissa);
        },
      ),
    );
  });
});
