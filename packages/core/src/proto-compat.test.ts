/** The conversions take the generated protobuf messages of @perpx/proto as they are. */
import type { clob, perpetuals, prices } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import {
  type ClobPairParams,
  type MarketPrice,
  marketPriceToPrice,
  oraclePriceToSubticks,
  priceToSubticks,
  sizeToQuantums,
} from "./quantums.js";

const clobPair = {
  $typeName: "perpx.clob.v1.ClobPair",
  id: 0,
  metadata: { case: undefined },
  stepBaseQuantums: 1_000_000n,
  subticksPerTick: 100_000,
  quantumConversionExponent: -9,
  status: 1,
} satisfies clob.ClobPair;

const perpetualParams = {
  $typeName: "perpx.perpetuals.v1.PerpetualParams",
  id: 0,
  ticker: "BTC-USD",
  marketId: 0,
  atomicResolution: -10,
  defaultFundingPpm: 0,
  liquidityTier: 0,
  marketType: 1,
} satisfies Partial<perpetuals.PerpetualParams>;

const marketPrice = {
  $typeName: "perpx.prices.v1.MarketPrice",
  id: 0,
  exponent: -5,
  price: 2_868_819_524n,
} satisfies Partial<prices.MarketPrice>;

describe("generated messages as inputs", () => {
  it("a ClobPair spread with its perpetual's atomicResolution is ClobPairParams", () => {
    const params: ClobPairParams = { ...clobPair, atomicResolution: perpetualParams.atomicResolution };
    expect(priceToSubticks("28688", params)).toBe(2_868_800_000n);
    expect(sizeToQuantums("0.01", params)).toBe(100_000_000n);
  });

  it("a MarketPrice is a MarketPrice", () => {
    const input: MarketPrice = marketPrice as prices.MarketPrice;
    expect(marketPriceToPrice(input)).toBe("28688.19524");
    expect(oraclePriceToSubticks(input, { ...clobPair, atomicResolution: -10 })).toBe(2_868_819_524n);
  });
});
