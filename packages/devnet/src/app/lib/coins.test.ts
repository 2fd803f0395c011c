import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkMinGasPrices,
  coinsToString,
  decCoinToString,
  isAnyGte,
  parseDecCoins,
  requiredFees,
  validateCoins,
} from "./coins.js";

const PRICES = parseDecCoins("0.025uusdc,25000000000aperpx");

describe("minimum gas prices", () => {
  it("parses and prints as the SDK does", () => {
    expect(PRICES).toEqual([
      { denom: "uusdc", numerator: 25n, scale: 3 },
      { denom: "aperpx", numerator: 25000000000n, scale: 0 },
    ]);
    expect(PRICES.map(decCoinToString)).toEqual([
      "0.025000000000000000uusdc",
      "25000000000.000000000000000000aperpx",
    ]);
    expect(requiredFees(PRICES, 200_000n)).toEqual([
      { denom: "aperpx", amount: 5_000_000_000_000_000n },
      { denom: "uusdc", amount: 5000n },
    ]);
  });

  it("rounds the requirement up", () => {
    expect(requiredFees(PRICES, 1n)).toContainEqual({ denom: "uusdc", amount: 1n });
    expect(requiredFees(PRICES, 41n)).toContainEqual({ denom: "uusdc", amount: 2n });
  });

  it("reports the shortfall in the SDK's words", () => {
    expect(checkMinGasPrices([], 100n, PRICES)).toBe(
      "insufficient fees; got:  required: 2500000000000aperpx,3uusdc",
    );
    expect(checkMinGasPrices([], 0n, PRICES)).toBeUndefined();
  });

  it("property: accepted iff some denom pays gas × price rounded up", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 28n }),
        fc.boolean(),
        (gas, usdc, native, extra) => {
          const fee = [
            ...(native > 0n ? [{ denom: "aperpx", amount: native }] : []),
            ...(extra ? [{ denom: "ibc/ABC", amount: 10n ** 30n }] : []),
            ...(usdc > 0n ? [{ denom: "uusdc", amount: usdc }] : []),
          ];
          const needUsdc = (gas * 25n + 999n) / 1000n;
          const needNative = gas * 25_000_000_000n;
          const pays = gas === 0n || (usdc > 0n && usdc >= needUsdc) || (native > 0n && native >= needNative);
          expect(checkMinGasPrices(fee, gas, PRICES) === undefined).toBe(pays);
        },
      ),
    );
  });

  it("property: paying more never turns an accepted fee into a rejected one", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        (gas, more) => {
          const exact = requiredFees(PRICES, gas).filter((c) => c.denom === "uusdc");
          expect(isAnyGte(exact, requiredFees(PRICES, gas))).toBe(true);
          const bigger = exact.map((c) => ({ ...c, amount: c.amount + more }));
          expect(checkMinGasPrices(bigger, gas, PRICES)).toBeUndefined();
        },
      ),
    );
  });
});

describe("coins", () => {
  it("validates like sdk.Coins.Validate", () => {
    expect(validateCoins([])).toBeUndefined();
    expect(
      validateCoins([
        { denom: "aperpx", amount: 1n },
        { denom: "uusdc", amount: 2n },
      ]),
    ).toBeUndefined();
    expect(validateCoins([{ denom: "uusdc", amount: 0n }])).toMatch(/not positive/);
    expect(
      validateCoins([
        { denom: "uusdc", amount: 1n },
        { denom: "aperpx", amount: 1n },
      ]),
    ).toMatch(/not sorted/);
    expect(
      validateCoins([
        { denom: "uusdc", amount: 1n },
        { denom: "uusdc", amount: 1n },
      ]),
    ).toMatch(/duplicate/);
    expect(validateCoins([{ denom: "1bad", amount: 1n }])).toMatch(/invalid denom/);
    expect(
      coinsToString([
        { denom: "aperpx", amount: 1n },
        { denom: "uusdc", amount: 2n },
      ]),
    ).toBe("1aperpx,2uusdc");
  });
});
