import { local, testnet } from "@perpx/core";
import { startDevnet } from "@perpx/devnet";
import { clob, decodeSerializableInt, subaccounts } from "@perpx/proto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createNodeClient, isQueryError, subaccountBalances, watchShortTermOrder } from "../src/index.js";
import {
  affiliateAmounts,
  limiterCapacities,
  perpetualAmounts,
  queryActions,
  restQuery,
} from "../src/queries.js";
import { LocalWallet } from "../src/wallets.js";
import { useDevnet } from "./support.js";

const net = useDevnet();

const TRANSPORTS = ["grpc", "rpc"] as const;
const FACT_TRANSPORTS = ["grpc", "rest", "rpc"] as const;

/**
 * The balances of `owner`'s subaccount 0 read over `transport`; over REST through the devnet's
 * generic module route (the node client's subaccount query speaks gRPC and RPC).
 */
async function balancesOver(owner: string, transport: (typeof FACT_TRANSPORTS)[number]) {
  const subaccount =
    transport === "rest"
      ? (
          await restQuery(net.client, {
            path: `/perpx/subaccounts/v1/subaccount/${owner}/0`,
            schema: subaccounts.QuerySubaccountResponseSchema,
            transport,
          })
        ).subaccount
      : await net.client.getSubaccount({ owner, number: 0, transport });
  return subaccountBalances(subaccount);
}

describe("accounts and balances", () => {
  it.each(TRANSPORTS)("reads an account over %s; an unknown one is undefined", async (transport) => {
    const address = net.wallets[0]!.address;
    const account = await net.client.getAccount({ address, transport });
    expect(account?.address).toBe(address);
    expect(account?.accountNumber).toBe(0n);
    expect(account?.typeUrl).toBe("/cosmos.auth.v1beta1.BaseAccount");
    const nobody = "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc";
    expect(await net.client.getAccount({ address: nobody, transport })).toBeUndefined();
    const error = await net.client
      .getAccountSequence({ address: nobody, transport })
      .catch((e: unknown) => e);
    expect(isQueryError(error) && error.notFound).toBe(true);
  });

  it.each(TRANSPORTS)("reads balances over %s", async (transport) => {
    const address = net.wallets[1]!.address;
    const balances = await net.client.getBalances({ address, transport });
    expect(balances.map((b) => b.denom).sort()).toEqual(["aperpx", "uusdc"]);
    const usdc = await net.client.getBalance({ address, denom: "uusdc", transport });
    expect(usdc.amount).toBe(balances.find((b) => b.denom === "uusdc")?.amount);
    expect((await net.client.getBalance({ address, denom: "nothing", transport })).amount).toBe(0n);
  });
});

describe("node facts", () => {
  it.each(FACT_TRANSPORTS)("minimum gas prices over %s", async (transport) => {
    expect(await net.client.getMinimumGasPrices({ transport })).toEqual([
      { denom: "aperpx", amount: "25000000000" },
      { denom: "uusdc", amount: "0.025" },
    ]);
  });

  it.each(FACT_TRANSPORTS)("node info (running version) over %s", async (transport) => {
    const info = await net.client.getNodeInfo({ transport });
    expect(info.appVersion).toBe("v27.5");
    expect(info.network).toBe("perpx-local-1");
    expect(info.cometVersion).toMatch(/^0\.38\./);
    expect(info.nodeId).toMatch(/^[0-9a-f]{40}$/);
  });

  it.each(FACT_TRANSPORTS)("IBC channels over %s", async (transport) => {
    const channels = await net.client.getIbcChannels({ transport });
    expect(channels.length).toBeGreaterThan(0);
    const first = channels[0]!;
    expect(first.channelId).toMatch(/^channel-\d+$/);
    expect(first.state).toBe("STATE_OPEN");
    expect(first.counterparty.channelId).toMatch(/^channel-\d+$/);
    expect(first.portId).toBe("transfer");
  });

  it("genesis and peers (RPC)", async () => {
    const genesis = await net.client.getGenesis();
    expect(genesis.chain_id).toBe("perpx-local-1");
    expect(Object.keys(genesis.app_state)).toContain("bank");
    const peers = await net.client.getPeers();
    for (const peer of peers) {
      expect(peer.id).toMatch(/^[0-9a-f]{40}$/);
      expect(peer.port).toBe(26656);
      expect(peer.address).toBe(`${peer.id}@${peer.remoteIp}:26656`);
    }
  });

  it.each(TRANSPORTS)("latest height and block time over %s", async (transport) => {
    const asked = Date.now();
    const a = await net.client.getLatestBlock({ transport });
    const b = await vi.waitFor(
      async () => {
        const next = await net.client.getLatestBlock({ transport });
        expect(next.height).toBeGreaterThan(a.height);
        return next;
      },
      { timeout: 60_000, interval: 50 },
    );
    expect(b.height).toBeGreaterThan(a.height);
    expect(b.time.getTime()).toBeGreaterThan(a.time.getTime());
    // b was produced after a was the latest block, so between the two reads: its time is wall time.
    expect(b.time.getTime()).toBeGreaterThanOrEqual(asked);
    expect(b.time.getTime()).toBeLessThanOrEqual(Date.now());
    expect(b.chainId).toBe("perpx-local-1");
  });

  it("a local chain has no applied plans", async () => {
    for (const transport of FACT_TRANSPORTS) {
      expect(await net.client.getAppliedPlan({ name: "v27.0", transport })).toBeUndefined();
    }
    const report = await net.client.checkUpgradeHistory({ network: local });
    expect(report).toEqual({ ok: true, upgrades: [], expectedVersion: "v27.5", runningVersion: "v27.5" });
  });

  it("checks a network's upgrade history against the chain", async () => {
    const devnet = await startDevnet({ ports: "free", profile: "testnet", blockTimeMs: 100 });
    try {
      for (const transport of FACT_TRANSPORTS) {
        const client = createNodeClient({
          nodeRpc: devnet.endpoints.nodeRpc,
          nodeRest: devnet.endpoints.nodeRest,
          grpc: devnet.endpoints.grpc,
        }).extend(queryActions);
        expect(await client.getAppliedPlan({ name: "v27.0", transport })).toBe(4_403_000n);
        const report = await client.checkUpgradeHistory({ network: testnet, transport });
        expect(report.ok).toBe(true);
        expect(report.upgrades).toHaveLength(testnet.upgrades.length);
        expect(report.runningVersion).toBe("v27.5");
        // The mainnet preset does not match a testnet chain.
        const wrong = await client.checkUpgradeHistory({
          network: { ...testnet, upgrades: [{ version: "v27.0", height: 12_395_000n }] },
          transport,
        });
        expect(wrong.ok).toBe(false);
        expect(wrong.upgrades[0]).toEqual({
          version: "v27.0",
          expectedHeight: 12_395_000n,
          chainHeight: 4_403_000n,
          matches: false,
        });
        client.close();
      }
    } finally {
      await devnet.stop();
    }
  });
});

describe("transactions by hash and by search", () => {
  it.each(TRANSPORTS)("getTx and searchTxs over %s", async (transport) => {
    const [from, to] = [net.wallets[2]!, net.wallets[3]!];
    const sent = await net.client.bankSend({
      signer: from,
      from: from.address,
      to: to.address,
      amount: [{ denom: "uusdc", amount: 3n }],
    });
    const tx = await net.client.getTx({ hash: sent.hash, transport });
    expect(tx?.hash).toBe(sent.hash);
    expect(tx?.height).toBe(sent.height);
    expect(tx?.code).toBe(0);
    expect(tx?.tx?.body?.messages[0]?.typeUrl).toBe("/cosmos.bank.v1beta1.MsgSend");
    expect(tx?.events.some((e) => e.type === "transfer")).toBe(true);
    expect(await net.client.getTx({ hash: `0x${sent.hash.toLowerCase()}`, transport })).toBeDefined();
    expect(await net.client.getTx({ hash: "00".repeat(32), transport })).toBeUndefined();
    const found = await net.client.searchTxs({ query: `tx.height=${sent.height}`, transport });
    expect(found.txs.map((t) => t.hash)).toContain(sent.hash);
    expect(found.totalCount).toBeGreaterThanOrEqual(1);
    const bySender = await net.client.searchTxs({
      query: `message.sender='${from.address}'`,
      orderBy: "desc",
      perPage: 2,
      transport,
    });
    expect(bySender.txs[0]?.hash).toBe(sent.hash);
    expect(bySender.txs.length).toBeLessThanOrEqual(2);
  });

  it("rejects a malformed hash before asking", async () => {
    await expect(net.client.getTx({ hash: "xyz" })).rejects.toThrow(/64 hex digits/);
  });
});

/** A devnet control route (the outside world: an incoming IBC packet, a bridge deposit). */
async function control(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${net.devnet.endpoints.devnetControl}/devnet${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json;
}

/**
 * Devnet part 2 modules, against the chain's genesis values and state that the setup creates with
 * real transactions (a deposit, a trading key, a timestamp nonce) or the outside world's control
 * routes (an incoming USDC transfer, a bridge deposit).
 */
describe("devnet part 2 queries", () => {
  const a = () => net.wallets[0]!.address;
  const emma = () => net.wallets[4]!;
  const state = { authenticatorId: 0n, nonce: 0n, voucher: "", bridgeId: 0 };

  beforeAll(async () => {
    const owner = emma();
    await net.client.depositToSubaccount({
      signer: owner,
      sender: owner.address,
      recipient: { owner: owner.address, number: 0 },
      quantums: 1_000_000n,
    });
    state.authenticatorId = (
      await net.client.registerTradingKey({ owner, publicKey: LocalWallet.generate().publicKey })
    ).authenticatorId;
    state.nonce = (
      await net.client.bankSend({
        signer: owner,
        from: owner.address,
        to: a(),
        amount: [{ denom: "uusdc", amount: 1n }],
        tx: { nonceMode: "timestamp" },
      })
    ).sequence;
    state.voucher = (
      await control("/ibc/receive", {
        channel: "channel-0",
        denom: "uusdc",
        amount: "5000000",
        sender: "noble1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy",
        receiver: owner.address,
      })
    ).voucherDenom as string;
    state.bridgeId = (
      await control("/bridge/deposit", {
        chain: "arbitrum-sepolia",
        sender: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        address: owner.address,
        amount: "7000000",
      })
    ).id as number;
  });

  it.each(TRANSPORTS)("subaccounts over %s", async (transport) => {
    const owner = emma().address;
    const all = await net.client.getSubaccounts({ transport });
    const mine = all.find((s) => s.id?.owner === owner && s.id.number === 0);
    expect(subaccountBalances(mine)).toEqual({ usdcQuantums: 1_000_000n, perpetuals: [] });
    const one = await net.client.getSubaccount({ owner, number: 0, transport });
    expect(subaccountBalances(one)).toEqual({ usdcQuantums: 1_000_000n, perpetuals: [] });
    expect(one?.perpetualPositions).toEqual([]);
    // A subaccount never used reads as an empty one with its id (as the chain answers).
    const none = await net.client.getSubaccount({ owner, number: 127, transport });
    expect(none?.id?.number).toBe(127);
    expect(none?.assetPositions).toEqual([]);
  });

  it.each(FACT_TRANSPORTS)(
    "a deposited subaccount reads back as its bigint amount over %s",
    async (transport) => {
      expect(await balancesOver(emma().address, transport)).toEqual({
        usdcQuantums: 1_000_000n,
        perpetuals: [],
      });
    },
  );

  it.each(TRANSPORTS)(
    "clob pairs, perpetuals, market prices, fee tiers, rate limits, equity tiers over %s",
    async (transport) => {
      const pairs = await net.client.getClobPairs({ transport });
      expect(pairs.map((p) => p.id)).toEqual([0, 1, 2]);
      expect(pairs[0]).toMatchObject({
        metadata: { case: "perpetualClobMetadata", value: { perpetualId: 0 } },
        stepBaseQuantums: 1_000_000n,
        subticksPerTick: 100_000,
        quantumConversionExponent: -9,
        status: clob.ClobPair_Status.ACTIVE,
      });
      expect(await net.client.getClobPair({ id: 1, transport })).toEqual(pairs[1]);

      const perps = await net.client.getPerpetuals({ transport });
      expect(
        perps.map((p) => [p.params?.id, p.params?.ticker, p.params?.marketId, p.params?.atomicResolution]),
      ).toEqual([
        [0, "BTC-USD", 0, -10],
        [1, "ETH-USD", 1, -9],
        [2, "SOL-USD", 2, -7],
      ]);
      expect((await net.client.getPerpetual({ id: 1, transport })).params?.ticker).toBe("ETH-USD");
      expect(perpetualAmounts(perps[0]!)).toEqual({ perpetualId: 0, fundingIndex: 0n, openInterest: 0n });

      const marketPrices = await net.client.getMarketPrices({ transport });
      expect(marketPrices.map((m) => [m.id, m.exponent])).toEqual([
        [0, -5],
        [1, -6],
        [2, -8],
      ]);
      // BTC walks within ±5% of $65,000.
      const btc = await net.client.getMarketPrice({ id: 0, transport });
      expect(btc.price).toBeGreaterThanOrEqual(6_175_000_000n);
      expect(btc.price).toBeLessThanOrEqual(6_825_000_000n);

      const feeTiers = (await net.client.getFeeTiers({ transport })).tiers;
      expect(feeTiers[0]).toMatchObject({
        makerFeePpm: -110,
        takerFeePpm: 500,
        absoluteVolumeRequirement: 0n,
      });
      expect(feeTiers.at(-1)?.takerFeePpm).toBe(250);
      expect(await net.client.getUserFeeTier({ user: a(), transport })).toEqual({
        index: 0,
        tier: feeTiers[0],
      });

      const limits = await net.client.getBlockRateLimits({ transport });
      for (const list of [
        limits.maxStatefulOrdersPerNBlocks,
        limits.maxShortTermOrdersAndCancelsPerNBlocks,
      ]) {
        expect(list.length).toBeGreaterThan(0);
        for (const limit of list) expect(limit.numBlocks > 0 && limit.limit > 0).toBe(true);
      }
      const tiers = (await net.client.getEquityTiers({ transport })).statefulOrderEquityTiers;
      expect(decodeSerializableInt(tiers[0]!.usdTncRequired)).toBe(0n);
      expect(tiers[0]?.limit).toBe(0);
      const required = tiers.map((t) => decodeSerializableInt(t.usdTncRequired));
      expect([...required].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))).toEqual(required);
    },
  );

  it.each(TRANSPORTS)("authenticators and account state over %s", async (transport) => {
    const owner = emma().address;
    const list = await net.client.getAuthenticators({ address: owner, transport });
    expect(list.find((x) => x.id === state.authenticatorId)?.type).toBe("AllOf");
    expect(
      (await net.client.getAuthenticator({ address: owner, id: state.authenticatorId, transport }))?.id,
    ).toBe(state.authenticatorId);
    expect(await net.client.getAuthenticators({ address: a(), transport })).toEqual([]);
    expect(await net.client.getAuthenticator({ address: a(), id: 999_999n, transport })).toBeUndefined();
    const accountState = await net.client.getAccountState({ address: owner, transport });
    expect(accountState?.address).toBe(owner);
    expect(accountState?.timestampNonceDetails?.timestampNonces).toContain(state.nonce);
    expect(await net.client.getAccountState({ address: a(), transport })).toBeUndefined();
  });

  it.each(TRANSPORTS)("wrap rules and backing over %s", async (transport) => {
    const rules = await net.client.getWrapRules({ transport });
    expect(rules.map((r) => [r.portId, r.channelId, r.sourceDenom, r.localDenom])).toEqual([
      ["transfer", "channel-0", "uusdc", "uusdc"],
    ]);
    const rule = rules[0]!;
    expect(
      await net.client.getWrapRule({ channelId: rule.channelId, sourceDenom: rule.sourceDenom, transport }),
    ).toEqual(rule);
    const backing = (await net.client.getBacking({ transport })).find(
      (b) => b.voucherDenom === state.voucher,
    );
    expect(BigInt(backing?.amountIssued ?? "0")).toBe(5_000_000n);
    expect(BigInt(backing?.remainingBalance ?? "0")).toBe(5_000_000n);
    expect(backing?.ruleInForce).toBe(true);
  });

  it.each(TRANSPORTS)("bridge params, events and withdrawals over %s", async (transport) => {
    expect(await net.client.getBridgeEventParams({ transport })).toMatchObject({
      denom: "uusdc",
      ethChainId: 421_614n,
    });
    expect((await net.client.getBridgeProposeParams({ transport }))?.maxBridgesPerBlock).toBe(10);
    expect(await net.client.getBridgeSafetyParams({ transport })).toMatchObject({
      isDisabled: false,
      delayBlocks: 5,
    });
    expect((await net.client.getAcknowledgedBridgeEventInfo({ transport }))?.ethChainId).toBe(421_614n);
    expect((await net.client.getRecognizedBridgeEventInfo({ transport }))?.ethChainId).toBe(421_614n);
    expect(await net.client.getDelayedCompleteBridgeMessages({ address: a(), transport })).toEqual([]);
    const deposit = (await net.client.getBridgeEvents({ transport })).find(
      (e) => e.event?.id === state.bridgeId && e.event.ethChainId === 421_614n,
    );
    expect(deposit?.event?.address).toBe(emma().address);
    expect(deposit?.event?.coin?.amount).toBe("7000000");
    expect(await net.client.getAggregatedWithdrawals({ readyForRelayOnly: true, transport })).toEqual([]);
    expect(await net.client.getAggregatedWithdrawal({ withdrawalId: 999_999n, transport })).toBeUndefined();
  });

  it.each(TRANSPORTS)(
    "withdrawal configs, daily limits and usage, IBC rate limits over %s",
    async (transport) => {
      const configs = await net.client.getWithdrawalConfigs({ transport });
      expect(configs.map((c) => [c.assetId, c.largeWithdrawalThreshold, c.timelockBlocks])).toEqual([
        [0, "100000000000", 100n],
      ]);
      expect(configs[0]?.withdrawalFee.map((c) => [c.denom, c.amount])).toEqual([["uusdc", "1000000"]]);
      expect(await net.client.getWithdrawalConfigs({ assetId: 0, transport })).toEqual(configs);
      const limits = await net.client.getDailyLimits({ transport });
      expect(limits.map((l) => [l.chainId, l.assetId, l.dailyLimit]).sort()).toEqual(
        [
          [11_155_111n, 0, "10000000000000"],
          [421_614n, 0, "10000000000000"],
        ].sort(),
      );
      const usage = await net.client.getDailyUsage({ assetId: 0, transport });
      expect(usage.map((u) => u.chainId).sort()).toEqual([11_155_111n, 421_614n].sort());
      for (const u of usage) expect(u.dailyUsed).toBe("0");
      const params = await net.client.getLimitParams({ transport });
      expect(params.map((p) => [p.denom, p.limiters.length])).toEqual([["uusdc", 2]]);
      const capacity = await net.client.getCapacityByDenom({ denom: "uusdc", transport });
      expect(capacity).toHaveLength(2);
      const amounts = limiterCapacities(capacity);
      expect(amounts.map((c) => [c.periodSeconds, c.baselineMinimum, c.baselineTvlPpm])).toEqual([
        [3_600n, 1_000_000_000_000n, 10_000],
        [86_400n, 10_000_000_000_000n, 100_000],
      ]);
      for (const c of amounts) expect(c.capacity).toBeGreaterThan(0n);
    },
  );

  it.each(TRANSPORTS)("affiliate info, tiers, whitelist and parameters over %s", async (transport) => {
    expect(await net.client.getAffiliateInfo({ address: a(), transport })).toMatchObject({
      isWhitelisted: false,
      tier: 0,
      feeSharePpm: 50_000,
    });
    // The reference genesis whitelists and overrides nobody.
    expect(await net.client.getAffiliateInfo({ address: emma().address, transport })).toMatchObject({
      isWhitelisted: false,
      feeSharePpm: 50_000,
    });
    expect(await net.client.getReferredBy({ address: a(), transport })).toBe("");
    const tiers = (await net.client.getAffiliateTiers({ transport }))?.tiers;
    expect(tiers?.map((t) => t.takerFeeSharePpm)).toEqual([50_000, 100_000, 125_000, 150_000, 250_000]);
    expect((await net.client.getAffiliateWhitelist({ transport }))?.tiers).toEqual([]);
    expect((await net.client.getAffiliateParameters({ transport }))?.refereeMinimumFeeTierIdx).toBe(2);
    expect(affiliateAmounts(await net.client.getAffiliateInfo({ address: a(), transport }))).toEqual({
      referredVolume: 0n,
      stakedAmount: 0n,
      referredVolume30d: 0n,
      attributedVolume30d: 0n,
    });
  });
});

/**
 * Signed SerializableInts end to end: the third test account rests a sell of 0.0001 BTC far below
 * the oracle and the fourth buys into it, so one holds a short and the other a long position.
 */
describe("positions as bigints over every transport", () => {
  const seller = () => net.wallets[2]!;
  const buyer = () => net.wallets[3]!;
  const read = balancesOver;

  beforeAll(async () => {
    for (const wallet of [seller(), buyer()]) {
      await net.client.depositToSubaccount({
        signer: wallet,
        sender: wallet.address,
        recipient: { owner: wallet.address, number: 0 },
        quantums: 100_000_000n,
      });
    }
    const { height } = await net.client.getLatestBlock();
    const common = {
      clobPairId: 0,
      clientId: 1,
      quantums: 1_000_000n,
      subticks: 6_000_000_000n,
      kind: "short-term",
      goodTilBlock: Number(height) + 15,
    } as const;
    const sell = await net.client.placeOrder({
      signer: seller(),
      subaccount: { owner: seller().address, number: 0 },
      side: "SELL",
      ...common,
    });
    expect(sell.shortTerm).toBe(true);
    const buy = await net.client.placeOrder({
      signer: buyer(),
      subaccount: { owner: buyer().address, number: 0 },
      side: "BUY",
      timeInForce: "IOC",
      ...common,
    });
    expect(buy.shortTerm).toBe(true);
    // Matched at CheckTx; the fill is state once a block's proposed operations carry it.
    const outcome = await watchShortTermOrder(net.client, {
      orderId: buy.orderId!,
      goodTilBlock: common.goodTilBlock,
      quantums: common.quantums,
      fromHeight: buy.latestHeight! + 1n,
      pollIntervalMs: 20,
    });
    expect(outcome.totalFilled).toBe(common.quantums);
  });

  it("a long and a short read the same over gRPC, RPC and REST", async () => {
    const [short, long] = [await read(seller().address, "grpc"), await read(buyer().address, "grpc")];
    expect(short.perpetuals.map((p) => [p.perpetualId, p.quantums])).toEqual([[0, -1_000_000n]]);
    expect(long.perpetuals.map((p) => [p.perpetualId, p.quantums])).toEqual([[0, 1_000_000n]]);
    // As on the chain, the fill is booked in USDC: the buyer paid about $6 (plus fees) of its $100,
    // the seller received it (less fees), and the positions carry no quote balance.
    expect(long.usdcQuantums).toBeLessThan(100_000_000n - 6_000_000n);
    expect(short.usdcQuantums).toBeGreaterThan(100_000_000n + 5_000_000n);
    expect([...long.perpetuals, ...short.perpetuals].map((p) => p.quoteBalance)).toEqual([0n, 0n]);
    for (const transport of ["rpc", "rest"] as const) {
      expect(await read(seller().address, transport), transport).toEqual(short);
      expect(await read(buyer().address, transport), transport).toEqual(long);
    }
  });
});
