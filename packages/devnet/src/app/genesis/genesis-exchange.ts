/**
 * Genesis of the exchange modules: assets, markets and their oracle, perpetuals and liquidity
 * tiers, fee tiers. The markets are those of `genesis-markets.ts` (the reference chain's BTC-USD,
 * ETH-USD and SOL-USD, then generated ones); the liquidity tiers are the reference genesis's.
 */
import type { assets, feetiers, perpetuals } from "@perpx/proto";
import type { DevnetProfile } from "../contract.js";
import { decodeU64, utf8 } from "../lib/codec.js";
import { sha256 } from "../lib/sha256.js";
import { wireCreate } from "../lib/wire-codec.js";
import * as wire from "../lib/wire-tables.js";
import type { PerpetualsGenesis } from "../modules/perpetuals/perpetuals.js";
import type { PricesGenesis } from "../modules/prices/prices.js";
import { assetRecords } from "./genesis.js";
import { type MarketSpec, marketIdOf } from "./genesis-markets.js";

/** The assets: USDC (id 0) and the native token (id 1). */
export function assetsGenesis(): { assets: assets.Asset[] } {
  return { assets: assetRecords().map((r) => r.value as assets.Asset) };
}

/** The oracle's default seed of a profile (the first 8 bytes of SHA-256 of a label). */
export function defaultOracleSeed(profile: DevnetProfile): bigint {
  return decodeU64(sha256(utf8(`perpx ${profile} oracle`)));
}

/** Markets, prices and the oracle walk (±0.05% per block at most, within ±5% of the reference). */
export function pricesGenesis(profile: DevnetProfile, markets: readonly MarketSpec[]): PricesGenesis {
  return {
    markets: markets.map((m, index) => ({
      param: wireCreate(wire.perpx_prices_v1_MarketParam, {
        id: marketIdOf(m, index),
        pair: m.pair,
        exponent: m.exponent,
        minExchanges: 3,
        minPriceChangePpm: m.minPriceChangePpm,
        exchangeConfigJson: JSON.stringify({
          exchanges: ["Binance", "Coinbase", "Kraken"].map((exchangeName) => ({
            exchangeName,
            ticker: m.pair
              .replace("-", exchangeName === "Binance" ? "" : "-")
              .replace("USD", exchangeName === "Binance" ? "USDT" : "USD"),
          })),
        }),
      }),
      price: m.price,
    })),
    oracle: { seed: defaultOracleSeed(profile), walk: true, stepPpm: 500, bandPpm: 50_000 },
  };
}

/**
 * Perpetuals, the liquidity tiers of the reference genesis (`sample_pregenesis.json`: Large-Cap 2%
 * initial margin (50x), Small-Cap 10%, Long-Tail 20%, Safety 100%, Isolated 5%, Mid-Cap 5%, FX 1%;
 * open-interest caps in quote quantums, none for Large-Cap) and params.
 */
export function perpetualsGenesis(markets: readonly MarketSpec[]): PerpetualsGenesis {
  return {
    perpetuals: markets.map((m, index) =>
      wireCreate(wire.perpx_perpetuals_v1_PerpetualParams, {
        id: marketIdOf(m, index),
        ticker: m.pair,
        marketId: marketIdOf(m, index),
        atomicResolution: m.atomicResolution,
        defaultFundingPpm: m.defaultFundingPpm,
        liquidityTier: m.liquidityTier,
        marketType: m.marketType,
      }),
    ),
    liquidityTiers: [
      {
        id: 0,
        name: "Large-Cap",
        initialMarginPpm: 20_000,
        maintenanceFractionPpm: 600_000,
        impactNotional: 10_000_000_000n,
        openInterestLowerCap: 0n,
        openInterestUpperCap: 0n,
      },
      {
        id: 1,
        name: "Small-Cap",
        initialMarginPpm: 100_000,
        maintenanceFractionPpm: 500_000,
        impactNotional: 5_000_000_000n,
        openInterestLowerCap: 20_000_000_000_000n,
        openInterestUpperCap: 50_000_000_000_000n,
      },
      {
        id: 2,
        name: "Long-Tail",
        initialMarginPpm: 200_000,
        maintenanceFractionPpm: 500_000,
        impactNotional: 2_500_000_000n,
        openInterestLowerCap: 5_000_000_000_000n,
        openInterestUpperCap: 10_000_000_000_000n,
      },
      {
        id: 3,
        name: "Safety",
        initialMarginPpm: 1_000_000,
        maintenanceFractionPpm: 200_000,
        impactNotional: 2_500_000_000n,
        openInterestLowerCap: 2_000_000_000_000n,
        openInterestUpperCap: 5_000_000_000_000n,
      },
      {
        id: 4,
        name: "Isolated",
        initialMarginPpm: 50_000,
        maintenanceFractionPpm: 600_000,
        impactNotional: 2_500_000_000n,
        openInterestLowerCap: 500_000_000_000n,
        openInterestUpperCap: 1_000_000_000_000n,
      },
      {
        id: 5,
        name: "Mid-Cap",
        initialMarginPpm: 50_000,
        maintenanceFractionPpm: 600_000,
        impactNotional: 5_000_000_000n,
        openInterestLowerCap: 40_000_000_000_000n,
        openInterestUpperCap: 100_000_000_000_000n,
      },
      {
        id: 6,
        name: "FX",
        initialMarginPpm: 10_000,
        maintenanceFractionPpm: 500_000,
        impactNotional: 2_500_000_000n,
        openInterestLowerCap: 500_000_000_000n,
        openInterestUpperCap: 1_000_000_000_000n,
      },
    ].map((t) => wireCreate<perpetuals.LiquidityTier>(wire.perpx_perpetuals_v1_LiquidityTier, t)),
    params: wireCreate(wire.perpx_perpetuals_v1_Params, {
      fundingRateClampFactorPpm: 6_000_000,
      premiumVoteClampFactorPpm: 60_000_000,
      minNumVotesPerSample: 15,
    }),
  };
}

/**
 * Fee tiers: the real chain's 9 default (promotional) tiers. A maker rebate of 110 ppm throughout;
 * the taker fee steps from 500 ppm down to 250 ppm with 30-day volume (1M, 5M, 25M, 125M USDC),
 * and tiers 6 to 9 also need 0.5% of the chain's 30-day volume and, from tier 7, 1%, 2% and 4% of
 * it as maker.
 */
export function feeTiersGenesis(): { params: feetiers.PerpetualFeeParams } {
  const tier = (name: string, usd: bigint, taker: number, totalSharePpm = 0, makerSharePpm = 0) =>
    wireCreate(wire.perpx_feetiers_v1_PerpetualFeeTier, {
      name,
      absoluteVolumeRequirement: usd * 1_000_000n,
      totalVolumeShareRequirementPpm: totalSharePpm,
      makerVolumeShareRequirementPpm: makerSharePpm,
      makerFeePpm: -110,
      takerFeePpm: taker,
    });
  return {
    params: wireCreate(wire.perpx_feetiers_v1_PerpetualFeeParams, {
      tiers: [
        tier("1", 0n, 500),
        tier("2", 1_000_000n, 450),
        tier("3", 5_000_000n, 400),
        tier("4", 25_000_000n, 350),
        tier("5", 125_000_000n, 300),
        tier("6", 125_000_000n, 250, 5_000),
        tier("7", 125_000_000n, 250, 5_000, 10_000),
        tier("8", 125_000_000n, 250, 5_000, 20_000),
        tier("9", 125_000_000n, 250, 5_000, 40_000),
      ],
    }),
  };
}
