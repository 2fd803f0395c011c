/**
 * Every message the devnet routes has a builder: the proto registry's `Msg` types are probed over
 * REST simulation (a type with no handler is "unrecognized"), and each routed one must be built by
 * a sample call of its builder. The governance builders' messages then run through devnet
 * proposals (signed by the gov module account, their default authority) and change what the
 * queries read.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { cosmosTx, msgTypeUrls, schemaOf, toCosmosJson } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import type { TxMessage } from "../src/index.js";
import {
  completeBridgeMsg,
  createClobPairMsg,
  createOracleMarketMsg,
  createPerpetualMsg,
  deleteWrapRuleMsg,
  moduleAccountAddress,
  sendFromAccountToAccountMsg,
  sendFromModuleToAccountMsg,
  setAssetChainDailyLimitMsg,
  setAssetWithdrawalConfigMsg,
  setLimitParamsMsg,
  setLiquidityTierMsg,
  setMarketFeeDiscountParamsMsg,
  setMarketMapperRevenueShareMsg,
  setMarketMapperRevShareDetailsForMarketMsg,
  setOrderRouterRevShareMsg,
  setSmartAccountActiveMsg,
  setStakingTiersMsg,
  setWrapRuleMsg,
  setWrapRulesMsg,
  updateAffiliateOverridesMsg,
  updateAffiliateParametersMsg,
  updateAffiliateTiersMsg,
  updateAffiliateWhitelistMsg,
  updateBlockRateLimitConfigMsg,
  updateBridgeEventParamsMsg,
  updateBridgeProposeParamsMsg,
  updateBridgeSafetyParamsMsg,
  updateClobPairMsg,
  updateEquityTierLimitConfigMsg,
  updateLiquidationsConfigMsg,
  updateMarketParamMsg,
  updatePerpetualFeeParamsMsg,
  updatePerpetualParamsMsg,
  updatePerpetualsModuleParamsMsg,
  updateRewardParamsMsg,
  updateUnconditionalRevShareConfigMsg,
} from "../src/operator.js";
import {
  addAuthenticatorMsg,
  bankMultiSendMsg,
  bankSendMsg,
  batchCancelMsg,
  cancelOrderMsg,
  depositToSubaccountMsg,
  ibcTransferMsg,
  initiateWithdrawalMsg,
  placeOrderMsg,
  registerAffiliateMsg,
  removeAuthenticatorMsg,
  tradingKeyAuthenticator,
  transferMsg,
  updateLeverageMsg,
  withdrawFromSubaccountMsg,
  wrapRedeemMsg,
  wrapWithdrawMsg,
} from "../src/tx.js";
import { useDevnet } from "./support.js";

const net = useDevnet();

/** Messages a block proposer injects; no client ever builds or signs them. */
const PROPOSER_ONLY = new Set([
  "/perpx.bridge.v1.MsgAcknowledgeBridges",
  "/perpx.clob.v1.MsgProposedOperations",
]);

const A = moduleAccountAddress("sample-a");
const B = moduleAccountAddress("sample-b");
const sub = { owner: A, number: 0 };
const ETH = "0x1111111111111111111111111111111111111111";
const TX_HASH = `0x${"ab".repeat(32)}`;
const pair = {
  id: 9,
  perpetualId: 9,
  stepBaseQuantums: 1_000_000n,
  subticksPerTick: 1_000_000,
  quantumConversionExponent: -9,
  status: "initializing" as const,
};

/** One sample call of the builder of every message type a client may send, by type URL. */
const SAMPLES: Record<string, () => TxMessage> = {
  "/cosmos.bank.v1beta1.MsgSend": () =>
    bankSendMsg({ from: A, to: B, amount: [{ denom: "uusdc", amount: 1n }] }),
  "/cosmos.bank.v1beta1.MsgMultiSend": () =>
    bankMultiSendMsg({ from: A, outputs: [{ to: B, amount: [{ denom: "uusdc", amount: 1n }] }] }),
  "/ibc.applications.transfer.v1.MsgTransfer": () =>
    ibcTransferMsg({
      sender: A,
      receiver: "noble1x",
      token: { denom: "uusdc", amount: 1n },
      sourceChannel: "channel-0",
      timeoutTimestampNs: 1n,
    }),
  "/perpx.accountplus.v1.MsgAddAuthenticator": () =>
    addAuthenticatorMsg({ sender: A, authenticator: tradingKeyAuthenticator(new Uint8Array(33).fill(2)) }),
  "/perpx.accountplus.v1.MsgRemoveAuthenticator": () => removeAuthenticatorMsg({ sender: A, id: 1n }),
  "/perpx.accountplus.v1.MsgSetActiveState": () => setSmartAccountActiveMsg({ active: true }),
  "/perpx.affiliates.v1.MsgRegisterAffiliate": () => registerAffiliateMsg({ referee: A, affiliate: B }),
  "/perpx.affiliates.v1.MsgUpdateAffiliateTiers": () =>
    updateAffiliateTiersMsg({ tiers: [{ reqReferredVolumeQuoteQuantums: 0n, takerFeeSharePpm: 50_000 }] }),
  "/perpx.affiliates.v1.MsgUpdateAffiliateWhitelist": () =>
    updateAffiliateWhitelistMsg({ tiers: [{ addresses: [B], takerFeeSharePpm: 250_000 }] }),
  "/perpx.affiliates.v1.MsgUpdateAffiliateParameters": () =>
    updateAffiliateParametersMsg({
      maximum30dAttributableVolumePerReferredUserQuoteQuantums: 10n ** 14n,
      refereeMinimumFeeTierIdx: 1,
      maximum30dAffiliateRevenuePerReferredUserQuoteQuantums: 10n ** 10n,
    }),
  "/perpx.affiliates.v1.MsgUpdateAffiliateOverrides": () => updateAffiliateOverridesMsg({ addresses: [B] }),
  "/perpx.bridge.v1.MsgCompleteBridge": () =>
    completeBridgeMsg({
      event: {
        id: 4_000,
        coin: { denom: "aperpx", amount: 7n },
        address: B,
        ethBlockHeight: 1n,
        ethChainId: 11155111n,
        tokenAddress: ETH,
        ethTxHash: TX_HASH,
      },
    }),
  "/perpx.bridge.v1.MsgInitiateWithdrawal": () =>
    initiateWithdrawalMsg({ sender: A, recipient: ETH, denom: "aperpx", amount: 1n, ethChainId: 11155111n }),
  "/perpx.bridge.v1.MsgUpdateEventParams": () =>
    updateBridgeEventParamsMsg({
      denom: "aperpx",
      ethChainId: 11155111n,
      ethAddress: ETH,
      tokenAddress: ETH,
    }),
  "/perpx.bridge.v1.MsgUpdateProposeParams": () =>
    updateBridgeProposeParamsMsg({
      maxBridgesPerBlock: 10,
      proposeDelaySeconds: 60,
      skipRatePpm: 800_000,
      skipIfBlockDelayedBySeconds: 5,
    }),
  "/perpx.bridge.v1.MsgUpdateSafetyParams": () =>
    updateBridgeSafetyParamsMsg({ isDisabled: false, delayBlocks: 5 }),
  "/perpx.clob.v1.MsgPlaceOrder": () =>
    placeOrderMsg({
      subaccount: sub,
      clientId: 1,
      clobPairId: 0,
      side: "BUY",
      quantums: 1_000_000n,
      subticks: 100_000n,
      kind: "short-term",
      goodTilBlock: 10,
    }),
  "/perpx.clob.v1.MsgCancelOrder": () =>
    cancelOrderMsg({ subaccount: sub, clientId: 1, clobPairId: 0, kind: "short-term", goodTilBlock: 10 }),
  "/perpx.clob.v1.MsgBatchCancel": () =>
    batchCancelMsg({ subaccount: sub, cancels: [{ clobPairId: 0, clientIds: [1] }], goodTilBlock: 10 }),
  "/perpx.clob.v1.MsgUpdateLeverage": () =>
    updateLeverageMsg({ subaccount: sub, leverage: [{ clobPairId: 0, imfPpm: 100_000 }] }),
  "/perpx.clob.v1.MsgCreateClobPair": () => createClobPairMsg({ clobPair: pair }),
  "/perpx.clob.v1.MsgUpdateClobPair": () => updateClobPairMsg({ clobPair: { ...pair, status: "active" } }),
  "/perpx.clob.v1.MsgUpdateEquityTierLimitConfiguration": () =>
    updateEquityTierLimitConfigMsg({
      shortTermOrderEquityTiers: [],
      statefulOrderEquityTiers: [{ usdTncRequired: 20_000_000n, limit: 5 }],
    }),
  "/perpx.clob.v1.MsgUpdateBlockRateLimitConfiguration": () =>
    updateBlockRateLimitConfigMsg({ maxStatefulOrdersPerNBlocks: [{ numBlocks: 1, limit: 2 }] }),
  "/perpx.clob.v1.MsgUpdateLiquidationsConfig": () =>
    updateLiquidationsConfigMsg({
      maxLiquidationFeePpm: 15_000,
      maxPositionPortionLiquidatedPpm: 1_000_000,
      minPositionNotionalLiquidated: 1_000n,
      maxNotionalLiquidated: 10n ** 14n,
      maxQuantumsInsuranceLost: 10n ** 14n,
      bankruptcyAdjustmentPpm: 1_000_000,
      spreadToMaintenanceMarginRatioPpm: 1_500_000,
    }),
  "/perpx.feetiers.v1.MsgUpdatePerpetualFeeParams": () =>
    updatePerpetualFeeParamsMsg({
      tiers: [
        {
          name: "1",
          absoluteVolumeRequirement: 0n,
          totalVolumeShareRequirementPpm: 0,
          makerVolumeShareRequirementPpm: 0,
          makerFeePpm: 100,
          takerFeePpm: 500,
        },
      ],
    }),
  "/perpx.feetiers.v1.MsgSetMarketFeeDiscountParams": () =>
    setMarketFeeDiscountParamsMsg({
      discounts: [{ clobPairId: 0, startTime: new Date(0), endTime: new Date(1_000), chargePpm: 500_000 }],
    }),
  "/perpx.feetiers.v1.MsgSetStakingTiers": () =>
    setStakingTiersMsg({
      stakingTiers: [{ feeTierName: "1", levels: [{ minStakedBaseTokens: 1n, feeDiscountPpm: 1 }] }],
    }),
  "/perpx.perpetuals.v1.MsgCreatePerpetual": () =>
    createPerpetualMsg({
      params: {
        id: 9,
        ticker: "GOVX-USD",
        marketId: 9,
        atomicResolution: -8,
        defaultFundingPpm: 0,
        liquidityTier: 0,
      },
    }),
  "/perpx.perpetuals.v1.MsgSetLiquidityTier": () =>
    setLiquidityTierMsg({
      tier: {
        id: 9,
        name: "Gov",
        initialMarginPpm: 200_000,
        maintenanceFractionPpm: 500_000,
        impactNotional: 1n,
        openInterestLowerCap: 0n,
        openInterestUpperCap: 0n,
      },
    }),
  "/perpx.perpetuals.v1.MsgUpdatePerpetualParams": () =>
    updatePerpetualParamsMsg({
      params: {
        id: 9,
        ticker: "GOVX-USD",
        marketId: 9,
        atomicResolution: -8,
        defaultFundingPpm: 1,
        liquidityTier: 0,
      },
    }),
  "/perpx.perpetuals.v1.MsgUpdateParams": () =>
    updatePerpetualsModuleParamsMsg({
      fundingRateClampFactorPpm: 6_000_000,
      premiumVoteClampFactorPpm: 60_000_000,
      minNumVotesPerSample: 15,
    }),
  "/perpx.prices.v1.MsgCreateOracleMarket": () =>
    createOracleMarketMsg({
      market: { id: 9, pair: "GOVX-USD", exponent: -8, minExchanges: 1, minPriceChangePpm: 1_000 },
    }),
  "/perpx.prices.v1.MsgUpdateMarketParam": () =>
    updateMarketParamMsg({
      market: { id: 9, pair: "GOVX-USD", exponent: -8, minExchanges: 2, minPriceChangePpm: 1_000 },
    }),
  "/perpx.revshare.v1.MsgSetOrderRouterRevShare": () =>
    setOrderRouterRevShareMsg({ address: B, sharePpm: 500_000 }),
  "/perpx.revshare.v1.MsgSetMarketMapperRevenueShare": () =>
    setMarketMapperRevenueShareMsg({ address: B, revenueSharePpm: 100_000, validDays: 30 }),
  "/perpx.revshare.v1.MsgSetMarketMapperRevShareDetailsForMarket": () =>
    setMarketMapperRevShareDetailsForMarketMsg({ marketId: 0, expiresAt: new Date("2030-01-01T00:00:00Z") }),
  "/perpx.revshare.v1.MsgUpdateUnconditionalRevShareConfig": () =>
    updateUnconditionalRevShareConfigMsg({ recipients: [{ address: B, sharePpm: 50_000 }] }),
  "/perpx.rewards.v1.MsgUpdateParams": () =>
    updateRewardParamsMsg({
      treasuryAccount: "rewards_treasury",
      denom: "aperpx",
      denomExponent: -18,
      marketId: 2,
      feeMultiplierPpm: 0,
    }),
  "/perpx.ratelimit.v1.MsgSetLimitParams": () =>
    setLimitParamsMsg({
      denom: "ugov",
      limiters: [{ periodSeconds: 3_600, baselineMinimum: 10n ** 30n, baselineTvlPpm: 10_000 }],
    }),
  "/perpx.ratelimit.v1.MsgSetAssetWithdrawalConfig": () =>
    setAssetWithdrawalConfigMsg({
      assetId: 0,
      largeWithdrawalThreshold: 10n ** 12n,
      timelockBlocks: 100n,
      withdrawalFee: [{ denom: "uusdc", amount: 1n }],
    }),
  "/perpx.ratelimit.v1.MsgSetAssetChainDailyLimit": () =>
    setAssetChainDailyLimitMsg({ chainId: 11155111n, assetId: 0, dailyLimit: 10n ** 13n }),
  "/perpx.sending.v1.MsgCreateTransfer": () =>
    transferMsg({ sender: sub, recipient: { owner: A, number: 1 }, quantums: 1n }),
  "/perpx.sending.v1.MsgDepositToSubaccount": () =>
    depositToSubaccountMsg({ sender: A, recipient: sub, quantums: 1n }),
  "/perpx.sending.v1.MsgWithdrawFromSubaccount": () =>
    withdrawFromSubaccountMsg({ sender: sub, recipient: A, quantums: 1n }),
  "/perpx.sending.v1.MsgSendFromModuleToAccount": () =>
    sendFromModuleToAccountMsg({
      senderModuleName: "transfer",
      recipient: B,
      coin: { denom: "uusdc", amount: 3n },
    }),
  "/perpx.sending.v1.MsgSendFromAccountToAccount": () =>
    sendFromAccountToAccountMsg({
      sender: A,
      recipient: moduleAccountAddress("transfer"),
      coin: { denom: "uusdc", amount: 5n },
    }),
  "/perpx.wrap.v1.MsgWithdraw": () =>
    wrapWithdrawMsg({
      sender: A,
      amount: 1n,
      receiver: "noble1x",
      timeoutSeconds: 60n,
      voucherDenom: `ibc/${"A".repeat(64)}`,
    }),
  "/perpx.wrap.v1.MsgRedeem": () =>
    wrapRedeemMsg({ sender: A, amount: 1n, voucherDenom: `ibc/${"A".repeat(64)}` }),
  "/perpx.wrap.v1.MsgSetWrapRules": () =>
    setWrapRulesMsg({ rules: [{ channelId: "channel-0", sourceDenom: "uusdc", localDenom: "uusdc" }] }),
  "/perpx.wrap.v1.MsgSetWrapRule": () =>
    setWrapRuleMsg({ rule: { channelId: "channel-1", sourceDenom: "ugov", localDenom: "uusdc" } }),
  "/perpx.wrap.v1.MsgDeleteWrapRule": () =>
    deleteWrapRuleMsg({ channelId: "channel-1", sourceDenom: "ugov" }),
};

/** Whether the devnet has a handler for a message type (REST simulation of a one-message tx). */
async function routed(typeUrl: string): Promise<boolean> {
  const body = create(cosmosTx.TxBodySchema, { messages: [{ typeUrl, value: new Uint8Array(0) }] });
  const tx = create(cosmosTx.TxRawSchema, { bodyBytes: toBinary(cosmosTx.TxBodySchema, body) });
  const response = await fetch(`${net.devnet.endpoints.nodeRest}/cosmos/tx/v1beta1/simulate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tx_bytes: Buffer.from(toBinary(cosmosTx.TxRawSchema, tx)).toString("base64") }),
  });
  const answer = (await response.json()) as { message?: string };
  expect(response.status, typeUrl).not.toBe(200);
  return !(answer.message ?? "").includes("unrecognized message type");
}

/** Runs messages as one devnet governance proposal; returns its outcome. */
async function propose(messages: readonly TxMessage[]): Promise<{ status: string; log: string }> {
  const response = await fetch(`${net.devnet.endpoints.devnetControl}/devnet/gov/proposals`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      messages: messages.map((m) => ({
        "@type": m.typeUrl,
        ...(toCosmosJson(schemaOf(m.typeUrl), m.value) as object),
      })),
    }),
  });
  const json = (await response.json()) as { result?: { status: string; log: string }; message?: string };
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json.result!;
}

/** Runs messages as one proposal and expects it to pass (its log otherwise). */
async function passes(messages: readonly TxMessage[]): Promise<void> {
  const outcome = await propose(messages);
  expect(outcome.status, `${messages.map((m) => m.typeUrl).join(", ")}: ${outcome.log}`).toBe("passed");
}

describe("builders", () => {
  it("exist for every message type the devnet routes (walking the proto registry)", async () => {
    for (const [typeUrl, sample] of Object.entries(SAMPLES)) expect(sample().typeUrl).toBe(typeUrl);
    const lacking: string[] = [];
    const routedUrls: string[] = [];
    for (const typeUrl of msgTypeUrls) {
      if (!(await routed(typeUrl))) continue;
      routedUrls.push(typeUrl);
      if (!PROPOSER_ONLY.has(typeUrl) && SAMPLES[typeUrl] === undefined) lacking.push(typeUrl);
    }
    expect(lacking).toEqual([]);
    // The probe tells routed from unrouted: the user messages are routed, a Cosmos upgrade is not.
    expect(routedUrls).toContain("/perpx.clob.v1.MsgPlaceOrder");
    expect(routedUrls).not.toContain("/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade");
    for (const url of PROPOSER_ONLY) expect(routedUrls).toContain(url);
  });
});

describe("governance messages through devnet proposals", () => {
  it("use the gov module account as their authority by default", async () => {
    const response = await fetch(`${net.devnet.endpoints.devnetControl}/devnet/gov/authority`);
    const { authority } = (await response.json()) as { authority: string };
    expect(moduleAccountAddress("gov")).toBe(authority);
    expect(
      setWrapRuleMsg({ rule: { channelId: "channel-1", sourceDenom: "u", localDenom: "u" } }).value.authority,
    ).toBe(authority);
  });

  it("list a market, a liquidity tier and a perpetual, then update them", async () => {
    const next = await net.client.getNextIds();
    const id = next.marketId;
    const perpetualId = next.perpetualId;
    const market = { id, pair: "GOVX-USD", exponent: -8, minExchanges: 1, minPriceChangePpm: 1_000 };
    const tier = {
      id: 77,
      name: "Gov",
      initialMarginPpm: 200_000,
      maintenanceFractionPpm: 500_000,
      impactNotional: 2_500_000_000n,
      openInterestLowerCap: 0n,
      openInterestUpperCap: 10n ** 12n,
    };
    const perpetual = {
      id: perpetualId,
      ticker: "GOVX-USD",
      marketId: id,
      atomicResolution: -8,
      defaultFundingPpm: 0,
      liquidityTier: 77,
    };
    await passes([
      createOracleMarketMsg({ market }),
      setLiquidityTierMsg({ tier }),
      createPerpetualMsg({ params: perpetual }),
    ]);
    await passes([
      updateMarketParamMsg({ market: { ...market, minExchanges: 2 } }),
      updatePerpetualParamsMsg({ params: { ...perpetual, defaultFundingPpm: 100 } }),
    ]);
    expect((await net.client.getMarketParam({ id }))?.minExchanges).toBe(2);
    expect((await net.client.getLiquidityTiers()).find((t) => t.id === 77)?.openInterestUpperCap).toBe(
      10n ** 12n,
    );
    const created = await net.client.getPerpetual({ id: perpetualId });
    expect(created?.params).toMatchObject({ ticker: "GOVX-USD", marketId: id, defaultFundingPpm: 100 });
  });

  it("set module parameters, fee tiers, affiliates, smart accounts, bridge and rate limits", async () => {
    const feeTiers = (await net.client.getFeeTiers()).tiers;
    const messages: TxMessage[] = [
      SAMPLES["/perpx.perpetuals.v1.MsgUpdateParams"]!(),
      updatePerpetualFeeParamsMsg({ tiers: feeTiers.map((t) => ({ ...t, takerFeePpm: t.takerFeePpm + 1 })) }),
      SAMPLES["/perpx.affiliates.v1.MsgUpdateAffiliateTiers"]!(),
      SAMPLES["/perpx.affiliates.v1.MsgUpdateAffiliateWhitelist"]!(),
      SAMPLES["/perpx.affiliates.v1.MsgUpdateAffiliateParameters"]!(),
      SAMPLES["/perpx.affiliates.v1.MsgUpdateAffiliateOverrides"]!(),
      SAMPLES["/perpx.revshare.v1.MsgUpdateUnconditionalRevShareConfig"]!(),
      SAMPLES["/perpx.revshare.v1.MsgSetMarketMapperRevenueShare"]!(),
      SAMPLES["/perpx.revshare.v1.MsgSetMarketMapperRevShareDetailsForMarket"]!(),
      setSmartAccountActiveMsg({ active: false }),
      SAMPLES["/perpx.bridge.v1.MsgUpdateProposeParams"]!(),
      updateBridgeSafetyParamsMsg({ isDisabled: true, delayBlocks: 7 }),
      SAMPLES["/perpx.ratelimit.v1.MsgSetLimitParams"]!(),
      SAMPLES["/perpx.ratelimit.v1.MsgSetAssetWithdrawalConfig"]!(),
      SAMPLES["/perpx.ratelimit.v1.MsgSetAssetChainDailyLimit"]!(),
      SAMPLES["/perpx.rewards.v1.MsgUpdateParams"]!(),
    ];
    for (const message of messages) await passes([message]);
    expect((await net.client.getPerpetualsParams()).minNumVotesPerSample).toBe(15);
    expect((await net.client.getFeeTiers()).tiers.map((t) => t.takerFeePpm)).toEqual(
      feeTiers.map((t) => t.takerFeePpm + 1),
    );
    expect((await net.client.getAffiliateOverrides())?.addresses).toEqual([B]);
    expect((await net.client.getAccountplusParams()).isSmartAccountActive).toBe(false);
    expect(await net.client.getBridgeSafetyParams()).toMatchObject({ isDisabled: true, delayBlocks: 7 });
    expect((await net.client.getLimitParams()).map((p) => p.denom)).toContain("ugov");
    const rewardParams = await fetch(`${net.devnet.endpoints.nodeRest}/perpx/rewards/v1/params`);
    expect(((await rewardParams.json()) as { params: { market_id: number } }).params.market_id).toBe(2);
    await passes([setSmartAccountActiveMsg({ active: true })]);
  });

  it("move funds between accounts and module accounts, complete a deposit, and change wrap rules", async () => {
    const alice = net.wallets[0]!.address;
    const bob = net.wallets[1]!.address;
    const pool = moduleAccountAddress("transfer");
    const balance = async (address: string, denom: string) =>
      BigInt((await net.client.getBalance({ address, denom })).amount);
    const bobUsdc = await balance(bob, "uusdc");
    const bobPerpx = await balance(bob, "aperpx");
    const poolUsdc = await balance(pool, "uusdc");
    await passes([
      sendFromAccountToAccountMsg({ sender: alice, recipient: pool, coin: { denom: "uusdc", amount: 5n } }),
      sendFromModuleToAccountMsg({
        senderModuleName: "transfer",
        recipient: bob,
        coin: { denom: "uusdc", amount: 3n },
      }),
      completeBridgeMsg({
        event: {
          id: 4_000,
          coin: { denom: "aperpx", amount: 7n },
          address: bob,
          ethBlockHeight: 1n,
          ethChainId: 11155111n,
          tokenAddress: ETH,
          ethTxHash: TX_HASH,
        },
      }),
    ]);
    expect(await balance(pool, "uusdc")).toBe(poolUsdc + 2n);
    expect(await balance(bob, "uusdc")).toBe(bobUsdc + 3n);
    expect(await balance(bob, "aperpx")).toBe(bobPerpx + 7n);

    await passes([SAMPLES["/perpx.wrap.v1.MsgSetWrapRule"]!()]);
    expect(await net.client.getWrapRule({ channelId: "channel-1", sourceDenom: "ugov" })).toMatchObject({
      localDenom: "uusdc",
    });
    await passes([SAMPLES["/perpx.wrap.v1.MsgDeleteWrapRule"]!()]);
    expect(await net.client.getWrapRule({ channelId: "channel-1", sourceDenom: "ugov" })).toBeUndefined();
    const rules = await net.client.getWrapRules();
    await passes([setWrapRulesMsg({ rules })]);
    expect(await net.client.getWrapRules()).toEqual(rules);
  });

  it("are refused by the chain when signed by another authority", async () => {
    const outcome = await propose([
      setSmartAccountActiveMsg({ authority: net.wallets[0]!.address, active: false }),
    ]);
    expect(outcome.status).toBe("failed");
    expect(outcome.log).toContain("gov authority");
  });
});

describe("bankMultiSend", () => {
  it("pays several accounts from one in a single transaction", async () => {
    const [alice, bob, carol] = net.wallets as [
      (typeof net.wallets)[0],
      (typeof net.wallets)[0],
      (typeof net.wallets)[0],
    ];
    const balance = async (address: string) =>
      BigInt((await net.client.getBalance({ address, denom: "aperpx" })).amount);
    const before = [await balance(bob.address), await balance(carol.address)];
    const result = await net.client.bankMultiSend({
      signer: alice,
      from: alice.address,
      outputs: [
        { to: bob.address, amount: [{ denom: "aperpx", amount: 11n }] },
        { to: carol.address, amount: [{ denom: "aperpx", amount: 13n }] },
      ],
    });
    expect(result.tx?.code).toBe(0);
    expect([await balance(bob.address), await balance(carol.address)]).toEqual([
      before[0]! + 11n,
      before[1]! + 13n,
    ]);
  });
});
