import { describe, expect, it } from "vitest";
import { mulPpmFloor } from "../subaccounts/dtypes.js";
import { rewardTokens, rewardWeights, splitRewards } from "./formula.js";

const NO_SHARES = { takerOrderRouter: 0n, makerOrderRouter: 0n, netProtocolRevenuePpm: 0 };
/** A $650 fill at the first fee tier (taker 500 ppm, maker -110 ppm). */
const FILL = { takerFee: 325_000n, makerFee: -71_500n, fillQuote: 650_000_000n, takerVolume30d: 0n };

describe("x/rewards formula", () => {
  it("rounds ppm products toward -infinity, as Go's big.Int.Div", () => {
    expect(mulPpmFloor(1_234_567n, 110n)).toBe(135n);
    expect(mulPpmFloor(1_234_567n, -110n)).toBe(-136n);
    expect(mulPpmFloor(-1n, 1n)).toBe(-1n);
  });

  it("weighs the taker's fee net of the largest rebate and affiliate share, and a maker's positive fee", () => {
    expect(rewardWeights(FILL, NO_SHARES, -110)).toEqual({ taker: 91_000n, maker: -71_500n });
    // No rebate to take off when the lowest maker fee is positive; a positive maker fee weighs.
    expect(rewardWeights({ ...FILL, makerFee: 65_000n }, NO_SHARES, 100)).toEqual({
      taker: 162_500n,
      maker: 65_000n,
    });
  });

  it("drops the affiliate cut from $50M of 30-day taker volume", () => {
    const whale = { ...FILL, takerVolume30d: 50_000_000_000_000n };
    expect(rewardWeights(whale, NO_SHARES, -110).taker).toBe(253_500n);
    expect(rewardWeights({ ...whale, takerVolume30d: 49_999_999_999_999n }, NO_SHARES, -110).taker).toBe(
      91_000n,
    );
  });

  it("takes the order routers' shares off each side, then keeps the share left after net-revenue shares", () => {
    const shares = { takerOrderRouter: 1_000n, makerOrderRouter: 5_000n, netProtocolRevenuePpm: 100_000 };
    expect(rewardWeights({ ...FILL, makerFee: 65_000n }, shares, 100)).toEqual({
      taker: 145_350n,
      maker: 54_000n,
    });
  });

  it("converts weight to reward tokens at the oracle price, down to a whole unit", () => {
    const aperpx = {
      feeMultiplierPpm: 990_000,
      denomExponent: -18,
      price: 3_200_000_000n,
      priceExponent: -6,
    };
    // 91,000 × 0.99 quote quantums = $0.09009, at $3,200: 0.0000281531... tokens.
    expect(rewardTokens(91_000n, aperpx)).toBe(28_153_125_000_000n);
    const uusdc = {
      feeMultiplierPpm: 1_000_000,
      denomExponent: -6,
      price: 3_200_000_000n,
      priceExponent: -6,
    };
    expect(rewardTokens(91_000n, uusdc)).toBe(28n);
    // A positive exponent divides: a price of 3 × 10^20 dollars per whole unit.
    expect(
      rewardTokens(10n ** 30n, {
        feeMultiplierPpm: 1_000_000,
        denomExponent: 0,
        price: 3n,
        priceExponent: 20,
      }),
    ).toBe(3333n);
    expect(rewardTokens(91_000n, { ...aperpx, price: 0n })).toBe(0n);
    expect(rewardTokens(91_000n, { ...aperpx, feeMultiplierPpm: 0 })).toBe(0n);
  });

  it("splits pro rata, rounding each share down and leaving out zeros", () => {
    expect(
      splitRewards(7n, [
        { address: "a", weight: 1n },
        { address: "b", weight: 2n },
        { address: "c", weight: 0n },
      ]),
    ).toEqual([
      { address: "a", amount: 2n },
      { address: "b", amount: 4n },
    ]);
    expect(splitRewards(0n, [{ address: "a", weight: 1n }])).toEqual([]);
  });
});
