/**
 * The catalog queries and the account messages (leverage, affiliate referral, bridge withdrawal)
 * against a devnet, over gRPC and RPC.
 */
import { describe, expect, it } from "vitest";
import { BroadcastTxError, getLeverage, updateLeverage } from "../src/index.js";
import { catalogQueries } from "../src/queries.js";
import { initiateWithdrawal, registerAffiliate } from "../src/tx.js";
import { useDevnet } from "./support.js";

const {
  getAccountplusParams,
  getAsset,
  getAssets,
  getCollateralPoolAddress,
  getLiquidationsConfig,
  getLiquidityTiers,
  getMarketFeeDiscount,
  getMarketFeeDiscounts,
  getMarketParam,
  getMarketParams,
  getNextIds,
  getPendingSendPackets,
  getPerpetualsParams,
  getStakingTiers,
  getUserStakingTier,
  getWithdrawalsBlockedInfo,
} = catalogQueries;

const net = useDevnet();
const TRANSPORTS = ["grpc", "rpc"] as const;
const NOBLE = "noble1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy";

describe.each(TRANSPORTS)("catalog queries over %s", (transport) => {
  it("assets, market params, liquidity tiers, module params and the next ids", async () => {
    const c = net.client;
    expect((await getAsset(c, { id: 0, transport }))?.denom).toBe("uusdc");
    expect(await getAsset(c, { id: 4_000_000, transport })).toBeUndefined();
    expect((await getAssets(c, { transport })).map((a) => a.id)).toContain(0);
    const markets = await getMarketParams(c, { transport });
    expect(markets.length).toBeGreaterThan(0);
    expect((await getMarketParam(c, { id: markets[0]!.id, transport }))?.pair).toBe(markets[0]!.pair);
    expect(await getMarketParam(c, { id: 4_000_000, transport })).toBeUndefined();
    const perpetuals = await c.getPerpetuals({ transport });
    const tiers = await getLiquidityTiers(c, { transport });
    expect(tiers.map((t) => t.id)).toContain(perpetuals[0]!.params!.liquidityTier);
    expect((await getPerpetualsParams(c, { transport })).fundingRateClampFactorPpm).toBeGreaterThan(0);
    expect(typeof (await getAccountplusParams(c, { transport })).isSmartAccountActive).toBe("boolean");
    expect(await getLiquidationsConfig(c, { transport })).toBeDefined();
    const next = await getNextIds(c, { transport });
    expect(next.marketId).toBeGreaterThan(Math.max(...markets.map((m) => m.id)));
    expect(next.perpetualId).toBeGreaterThan(Math.max(...perpetuals.map((p) => p.params!.id)));
    const pairs = await c.getClobPairs({ transport });
    expect(next.clobPairId).toBeGreaterThan(Math.max(...pairs.map((p) => p.id)));
  });

  it("fee discounts, staking tiers, collateral pools and the withdrawal gate", async () => {
    const c = net.client;
    const discounts = await getMarketFeeDiscounts(c, { transport });
    expect(Array.isArray(discounts)).toBe(true);
    const first = discounts[0];
    if (first)
      expect((await getMarketFeeDiscount(c, { clobPairId: first.clobPairId, transport }))?.clobPairId).toBe(
        first.clobPairId,
      );
    expect(Array.isArray(await getStakingTiers(c, { transport }))).toBe(true);
    const staking = await getUserStakingTier(c, { address: net.wallets[0]!.address, transport });
    expect(typeof staking.discountPpm).toBe("number");
    expect(await getCollateralPoolAddress(c, { perpetualId: 0, transport })).toMatch(/^perpx1/);
    const gate = await getWithdrawalsBlockedInfo(c, { perpetualId: 0, transport });
    expect(typeof gate.withdrawalsAndTransfersUnblockedAtBlock).toBe("number");
  });
});

describe("account messages", () => {
  it("updateLeverage sets a subaccount's margin fraction per pair, read back by getLeverage", async () => {
    const owner = net.wallets[1]!;
    const subaccount = { owner: owner.address, number: 0 };
    const result = await updateLeverage(net.client, {
      signer: owner,
      subaccount,
      leverage: [{ clobPairId: 0, imfPpm: 200_000 }],
    });
    expect(result.tx?.code).toBe(0);
    expect(result.fee.amount).toEqual([]);
    for (const transport of TRANSPORTS) {
      expect(await getLeverage(net.client, { ...subaccount, transport })).toEqual([
        { clobPairId: 0, imfPpm: 200_000 },
      ]);
    }
  });

  it("registerAffiliate records the referral once; a second one is the affiliates module's refusal", async () => {
    const [referee, affiliate] = [net.wallets[2]!, net.wallets[0]!];
    const result = await registerAffiliate(net.client, {
      signer: referee,
      referee: referee.address,
      affiliate: affiliate.address,
    });
    expect(result.tx?.code).toBe(0);
    expect(await net.client.getReferredBy({ address: referee.address })).toBe(affiliate.address);
    const again = await registerAffiliate(net.client, {
      signer: referee,
      referee: referee.address,
      affiliate: net.wallets[3]!.address,
    }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(BroadcastTxError);
    expect([(again as BroadcastTxError).codespace, (again as BroadcastTxError).abciCode]).toEqual([
      "affiliates",
      1,
    ]);
  });

  it("initiateWithdrawal queues a bridge withdrawal to an EVM address", async () => {
    const sender = net.wallets[3]!;
    const { ethChainId, denom } = (await net.client.getBridgeEventParams())!;
    const recipient = "0x52908400098527886E0F7030069857D2E4169EE7";
    const result = await initiateWithdrawal(net.client, {
      signer: sender,
      sender: sender.address,
      recipient,
      denom,
      amount: 2_000_000n,
      ethChainId,
    });
    expect(result.tx?.code).toBe(0);
    const queued = await net.client.getAggregatedWithdrawals({});
    const mine = queued.find((w) => w.withdrawal?.sender === sender.address);
    expect(mine?.withdrawal?.recipient.toLowerCase()).toBe(recipient.toLowerCase());
    expect(mine?.withdrawal?.coin?.amount).toBe("2000000");
  });

  it("getPendingSendPackets lists an ICS-20 packet until it is acknowledged", async () => {
    const relayer = async (path: string, body: Record<string, unknown>) => {
      const response = await fetch(`${net.devnet.endpoints.devnetControl}/devnet/ibc/${path}`, {
        method: "POST",
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
    };
    // The devnet's relayer holds the packet until the test relays it.
    await relayer("relayer", { auto: false });
    const alice = net.wallets[0]!;
    const channel = (await net.client.getIbcChannels()).find((c) => c.state === "STATE_OPEN")!;
    const result = await net.client.ibcTransfer({
      signer: alice,
      sender: alice.address,
      receiver: NOBLE,
      sourceChannel: channel.channelId,
      token: { denom: "uusdc", amount: 1_000n },
      timeoutTimestampNs: BigInt(Date.now() + 600_000) * 1_000_000n,
    });
    const sequence = BigInt(
      result.events
        .find((e) => e.type === "send_packet")!
        .attributes.find((a) => a.key === "packet_sequence")!.value,
    );
    for (const transport of TRANSPORTS) {
      const pending = await getPendingSendPackets(net.client, { transport });
      expect(pending.some((p) => p.channelId === channel.channelId && p.sequence === sequence)).toBe(true);
    }
    await relayer("relay", { channel: channel.channelId, sequence: sequence.toString() });
    await relayer("relayer", { auto: true });
    for (const transport of TRANSPORTS) {
      const pending = await getPendingSendPackets(net.client, { transport });
      expect(pending.some((p) => p.channelId === channel.channelId && p.sequence === sequence)).toBe(false);
    }
  });
});
