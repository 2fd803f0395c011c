import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { isInvalidAddressError, isInvalidArgumentError } from "@perpx/core";
import { clob, cosmosBank, decodeSerializableInt, perpetuals, schemaOf } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bankMultiSendMsg } from "../../messages/multiSend.js";
import { updateAffiliateOverridesMsg } from "./affiliates.js";
import { completeBridgeMsg, updateBridgeProposeParamsMsg } from "./bridge.js";
import { createClobPairMsg, updateBlockRateLimitConfigMsg, updateLiquidationsConfigMsg } from "./clob.js";
import { setMarketFeeDiscountParamsMsg, setStakingTiersMsg, updatePerpetualFeeParamsMsg } from "./fees.js";
import { durationOf, moduleAccountAddress, ppm, timestampOf } from "./fields.js";
import { deleteWrapRuleMsg, setWrapRuleMsg } from "./funds.js";
import { createOracleMarketMsg, createPerpetualMsg, setLiquidityTierMsg } from "./markets.js";
import { setAssetChainDailyLimitMsg, setLimitParamsMsg } from "./ratelimit.js";

const A = moduleAccountAddress("sample-a");
const B = moduleAccountAddress("sample-b");
const GOV = moduleAccountAddress("gov");

/** The error a builder throws, checked to be an `InvalidArgumentError` naming `argument`. */
function refusal(build: () => unknown, argument: string): void {
  let error: unknown;
  try {
    build();
  } catch (e) {
    error = e;
  }
  expect(isInvalidArgumentError(error), String(error)).toBe(true);
  expect((error as { argument: string }).argument).toBe(argument);
}

const perpetual = {
  id: 5,
  ticker: "SOL-USD",
  marketId: 5,
  atomicResolution: -7,
  defaultFundingPpm: 0,
  liquidityTier: 1,
};
const tier = {
  id: 3,
  name: "Small",
  initialMarginPpm: 200_000,
  maintenanceFractionPpm: 500_000,
  impactNotional: 1n,
  openInterestLowerCap: 0n,
  openInterestUpperCap: 0n,
};
const liquidations = {
  maxLiquidationFeePpm: 15_000,
  maxPositionPortionLiquidatedPpm: 1_000_000,
  minPositionNotionalLiquidated: 0n,
  maxNotionalLiquidated: 1n,
  maxQuantumsInsuranceLost: 1n,
  bankruptcyAdjustmentPpm: 1_000_000,
  spreadToMaintenanceMarginRatioPpm: 1,
};

describe("moduleAccountAddress", () => {
  it("is the SDK's module address (sha256 of the name, 20 bytes) in bech32", () => {
    // The Cosmos Hub's gov module account is cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn.
    expect(moduleAccountAddress("gov", "cosmos")).toBe("cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn");
    expect(GOV).toMatch(/^perpx1/);
  });
});

describe("governance builders", () => {
  it("sign as the gov module account unless told otherwise, and take an address in either form", () => {
    expect(createPerpetualMsg({ params: perpetual }).value.authority).toBe(GOV);
    expect(createPerpetualMsg({ authority: A, params: perpetual }).value.authority).toBe(A);
    let error: unknown;
    try {
      createPerpetualMsg({ authority: "perpx1nope", params: perpetual });
    } catch (e) {
      error = e;
    }
    expect(isInvalidAddressError(error)).toBe(true);
  });

  it("encode what they are given (protobuf round trip)", () => {
    const msg = createPerpetualMsg({ params: { ...perpetual, marketType: "isolated" } });
    const decoded = fromBinary(
      perpetuals.MsgCreatePerpetualSchema,
      toBinary(perpetuals.MsgCreatePerpetualSchema, msg.value),
    );
    expect(decoded.params).toMatchObject({
      ...perpetual,
      marketType: perpetuals.PerpetualMarketType.ISOLATED,
    });
    const pair = createClobPairMsg({
      clobPair: {
        id: 1,
        perpetualId: 1,
        stepBaseQuantums: 10n,
        subticksPerTick: 100,
        quantumConversionExponent: -9,
        status: "initializing",
      },
    });
    expect(pair.value.clobPair?.metadata).toEqual({
      case: "perpetualClobMetadata",
      value: expect.objectContaining({ perpetualId: 1 }),
    });
    expect(pair.value.clobPair?.status).toBe(clob.ClobPair_Status.INITIALIZING);
    const staking = setStakingTiersMsg({
      stakingTiers: [{ feeTierName: "1", levels: [{ minStakedBaseTokens: 10n ** 30n, feeDiscountPpm: 1 }] }],
    });
    expect(decodeSerializableInt(staking.value.stakingTiers[0]!.levels[0]!.minStakedBaseTokens)).toBe(
      10n ** 30n,
    );
    for (const m of [pair, staking, setLimitParamsMsg({ denom: "u", limiters: [] })]) {
      const schema = schemaOf(m.typeUrl);
      expect(toBinary(schema, fromBinary(schema, toBinary(schema, m.value)))).toEqual(
        toBinary(schema, m.value),
      );
    }
  });

  it("refuse out-of-range and malformed fields, naming them, before anything is built", () => {
    refusal(
      () => createPerpetualMsg({ params: { ...perpetual, atomicResolution: 1 } }),
      "params.atomicResolution",
    );
    refusal(
      () => createPerpetualMsg({ params: { ...perpetual, defaultFundingPpm: -1_000_001 } }),
      "params.defaultFundingPpm",
    );
    refusal(() => createPerpetualMsg({ params: { ...perpetual, id: 2 ** 32 } }), "params.id");
    refusal(
      () => createPerpetualMsg({ params: { ...perpetual, marketType: "spot" as never } }),
      "params.marketType",
    );
    refusal(() => createPerpetualMsg(null as never), "createPerpetualMsg parameters");
    refusal(
      () => setLiquidityTierMsg({ tier: { ...tier, initialMarginPpm: 1_000_001 } }),
      "tier.initialMarginPpm",
    );
    refusal(() => setLiquidityTierMsg({ tier: { ...tier, impactNotional: 0n } }), "tier.impactNotional");
    refusal(
      () => setLiquidityTierMsg({ tier: { ...tier, openInterestLowerCap: 2n, openInterestUpperCap: 1n } }),
      "tier.openInterestLowerCap",
    );
    refusal(
      () => setLiquidityTierMsg({ tier: { ...tier, openInterestUpperCap: 1n << 64n } }),
      "tier.openInterestUpperCap",
    );
    const market = { id: 1, pair: "SOL-USD", exponent: -8, minExchanges: 1, minPriceChangePpm: 1 };
    refusal(() => createOracleMarketMsg({ market: { ...market, pair: "sol-usd" } }), "market.pair");
    refusal(
      () => createOracleMarketMsg({ market: { ...market, minPriceChangePpm: 10_000 } }),
      "market.minPriceChangePpm",
    );
    refusal(
      () => createOracleMarketMsg({ market: { ...market, exchangeConfigJson: "{" } }),
      "market.exchangeConfigJson",
    );
    refusal(
      () =>
        createClobPairMsg({
          clobPair: {
            id: 1,
            perpetualId: 1,
            stepBaseQuantums: 0n,
            subticksPerTick: 1,
            quantumConversionExponent: 0,
            status: "initializing",
          },
        }),
      "clobPair.stepBaseQuantums",
    );
    refusal(
      () => updateBlockRateLimitConfigMsg({ maxStatefulOrdersPerNBlocks: [{ numBlocks: 0, limit: 1 }] }),
      "maxStatefulOrdersPerNBlocks[0].numBlocks",
    );
    refusal(
      () => updateLiquidationsConfigMsg({ ...liquidations, bankruptcyAdjustmentPpm: 999_999 }),
      "bankruptcyAdjustmentPpm",
    );
    refusal(
      () => updateLiquidationsConfigMsg({ ...liquidations, maxNotionalLiquidated: 0n }),
      "maxNotionalLiquidated",
    );
    const feeTier = {
      name: "1",
      absoluteVolumeRequirement: 0n,
      totalVolumeShareRequirementPpm: 0,
      makerVolumeShareRequirementPpm: 0,
      makerFeePpm: -200,
      takerFeePpm: 100,
    };
    refusal(() => updatePerpetualFeeParamsMsg({ tiers: [] }), "tiers");
    refusal(() => updatePerpetualFeeParamsMsg({ tiers: [feeTier] }), "tiers[0].makerFeePpm");
    refusal(
      () =>
        updatePerpetualFeeParamsMsg({
          tiers: [{ ...feeTier, makerFeePpm: 0, absoluteVolumeRequirement: 1n }],
        }),
      "tiers[0].absoluteVolumeRequirement",
    );
    const day = new Date("2026-12-01T00:00:00Z");
    refusal(
      () =>
        setMarketFeeDiscountParamsMsg({
          discounts: [{ clobPairId: 0, startTime: day, endTime: day, chargePpm: 1 }],
        }),
      "discounts[0].endTime",
    );
    refusal(
      () =>
        setStakingTiersMsg({
          stakingTiers: [
            {
              feeTierName: "1",
              levels: [
                { minStakedBaseTokens: 2n, feeDiscountPpm: 1 },
                { minStakedBaseTokens: 2n, feeDiscountPpm: 2 },
              ],
            },
          ],
        }),
      "stakingTiers[0].levels[1].minStakedBaseTokens",
    );
    refusal(
      () =>
        updateBridgeProposeParamsMsg({
          maxBridgesPerBlock: 1,
          proposeDelaySeconds: -1,
          skipRatePpm: 0,
          skipIfBlockDelayedBySeconds: 0,
        }),
      "proposeDelaySeconds",
    );
    const event = {
      id: 1,
      coin: { denom: "aperpx", amount: 1n },
      address: A,
      ethBlockHeight: 1n,
      ethChainId: 1n,
      tokenAddress: `0x${"1".repeat(40)}`,
      ethTxHash: `0x${"a".repeat(64)}`,
    };
    refusal(() => completeBridgeMsg({ event: { ...event, tokenAddress: "0x12" } }), "event.tokenAddress");
    refusal(
      () => completeBridgeMsg({ event: { ...event, coin: { denom: "aperpx", amount: 1n << 256n } } }),
      "event.coin.amount",
    );
    refusal(
      () =>
        setLimitParamsMsg({
          denom: "u",
          limiters: [{ periodSeconds: 0, baselineMinimum: 0n, baselineTvlPpm: 0 }],
        }),
      "limiters[0].periodSeconds",
    );
    refusal(() => setAssetChainDailyLimitMsg({ chainId: 1n, assetId: 0, dailyLimit: -1n }), "dailyLimit");
    refusal(
      () => setWrapRuleMsg({ rule: { channelId: "chan", sourceDenom: "u", localDenom: "u" } }),
      "rule.channelId",
    );
    refusal(
      () => setWrapRuleMsg({ rule: { channelId: "channel-0", sourceDenom: "u", localDenom: "ibc/AB" } }),
      "rule.localDenom",
    );
    refusal(() => deleteWrapRuleMsg({ channelId: "channel-0", sourceDenom: "" }), "sourceDenom");
    refusal(() => updateAffiliateOverridesMsg({ addresses: "x" as never }), "addresses");
  });

  it("accept a ppm exactly from 0 to 1,000,000 (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: -3_000_000, max: 3_000_000 }), (value) => {
        let ok = true;
        try {
          ppm(value, "x");
        } catch (error) {
          expect(isInvalidArgumentError(error)).toBe(true);
          ok = false;
        }
        expect(ok).toBe(value >= 0 && value <= 1_000_000);
      }),
    );
  });

  it("write times and durations exactly (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: -8_640_000_000_000, max: 8_640_000_000_000 }), (ms) => {
        const t = timestampOf(new Date(ms), "t");
        expect(t.nanos).toBeGreaterThanOrEqual(0);
        expect(t.nanos).toBeLessThan(1_000_000_000);
        expect(t.seconds * 1000n + BigInt(t.nanos / 1_000_000)).toBe(BigInt(ms));
      }),
    );
    fc.assert(
      fc.property(fc.nat(), (s) => {
        expect(durationOf(s, "d").seconds).toBe(BigInt(s));
      }),
    );
    refusal(() => timestampOf(new Date(Number.NaN), "t"), "t");
  });
});

describe("bankMultiSendMsg", () => {
  it("pays the sum of its outputs from one input, coins sorted", () => {
    const msg = bankMultiSendMsg({
      from: A,
      outputs: [
        {
          to: B,
          amount: [
            { denom: "uusdc", amount: 2n },
            { denom: "aperpx", amount: 1n },
          ],
        },
        { to: A, amount: [{ denom: "uusdc", amount: 3n }] },
      ],
    });
    expect(msg.typeUrl).toBe("/cosmos.bank.v1beta1.MsgMultiSend");
    expect(msg.value.inputs).toEqual([
      expect.objectContaining({
        address: A,
        coins: [
          expect.objectContaining({ denom: "aperpx", amount: "1" }),
          expect.objectContaining({ denom: "uusdc", amount: "5" }),
        ],
      }),
    ]);
    expect(
      fromBinary(cosmosBank.MsgMultiSendSchema, toBinary(cosmosBank.MsgMultiSendSchema, msg.value)).outputs,
    ).toHaveLength(2);
    refusal(() => bankMultiSendMsg({ from: A, outputs: [] }), "outputs");
    refusal(() => bankMultiSendMsg({ from: A, outputs: [{ to: B, amount: [] }] }), "outputs[0].amount");
    refusal(
      () => bankMultiSendMsg({ from: A, outputs: [{ to: B, amount: [{ denom: "u", amount: 0n }] }] }),
      "outputs[0].amount[0].amount",
    );
  });
});
