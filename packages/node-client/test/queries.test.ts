import { local, testnet } from "@perpx/core";
import { startDevnet } from "@perpx/devnet";
import {
  accountplus,
  affiliates,
  bridge,
  clob,
  feetiers,
  perpetuals,
  prices,
  ratelimit,
  subaccounts,
  wrap,
} from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { createNodeClient, isQueryError, type NodeClient } from "../src/index.js";
import { chainSupports, useDevnet } from "./support.js";

const net = useDevnet();

const TRANSPORTS = ["grpc", "rpc"] as const;
const FACT_TRANSPORTS = ["grpc", "rest", "rpc"] as const;

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
    const a = await net.client.getLatestBlock({ transport });
    await new Promise((r) => setTimeout(r, 150));
    const b = await net.client.getLatestBlock({ transport });
    expect(b.height).toBeGreaterThan(a.height);
    expect(b.time.getTime()).toBeGreaterThan(a.time.getTime());
    expect(Math.abs(b.time.getTime() - Date.now())).toBeLessThan(10_000);
    expect(b.chainId).toBe("perpx-local-1");
  });

  it("a local chain has no applied plans", async () => {
    for (const transport of FACT_TRANSPORTS) {
      expect(await net.client.getAppliedPlan({ name: "v27.0", transport })).toBeUndefined();
    }
    const report = await net.client.checkUpgradeHistory(local);
    expect(report).toEqual({ ok: true, upgrades: [], expectedVersion: "v27.5", runningVersion: "v27.5" });
  });

  it("checks a network's upgrade history against the chain", async () => {
    const devnet = await startDevnet({ ports: "free", profile: "testnet", blockTimeMs: 100 });
    try {
      for (const transport of FACT_TRANSPORTS) {
        const client = createNodeClient({
          rpc: devnet.endpoints.rpc,
          rest: devnet.endpoints.rest,
          grpc: devnet.endpoints.grpc,
        });
        expect(await client.getAppliedPlan({ name: "v27.0", transport })).toBe(4_403_000n);
        const report = await client.checkUpgradeHistory(testnet, { transport });
        expect(report.ok).toBe(true);
        expect(report.upgrades).toHaveLength(testnet.upgrades.length);
        expect(report.runningVersion).toBe("v27.5");
        // The mainnet preset does not match a testnet chain.
        const wrong = await client.checkUpgradeHistory(
          { ...testnet, upgrades: [{ version: "v27.0", height: 12_395_000n }] },
          { transport },
        );
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

/**
 * Devnet part 2 modules. Each test first asks the devnet whether it serves the module and skips
 * (never fakes the chain) until it does.
 */
describe("devnet part 2 queries", () => {
  const a = () => net.wallets[0]!.address;
  async function needs(
    client: NodeClient,
    method: Parameters<typeof chainSupports>[1],
    request: object,
    skip: () => void,
  ) {
    if (!(await chainSupports(client, method, request))) skip();
  }

  it.for(TRANSPORTS)("subaccounts over %s", async (transport, ctx) => {
    await needs(net.client, subaccounts.Query.method.subaccountAll, {}, () => ctx.skip());
    const all = await net.client.getSubaccounts({ transport });
    expect(Array.isArray(all)).toBe(true);
    const none = await net.client.getSubaccount({ owner: net.wallets[4]!.address, number: 127, transport });
    expect(none === undefined || none.id?.number === 127).toBe(true);
  });

  it.for(TRANSPORTS)(
    "clob pairs, perpetuals, market prices, fee tiers, rate limits, equity tiers over %s",
    async (transport, ctx) => {
      await needs(net.client, clob.Query.method.clobPairAll, {}, () => ctx.skip());
      const pairs = await net.client.getClobPairs({ transport });
      expect(pairs.length).toBeGreaterThan(0);
      expect((await net.client.getClobPair({ id: pairs[0]!.id, transport })).id).toBe(pairs[0]!.id);
      await needs(net.client, perpetuals.Query.method.allPerpetuals, {}, () => ctx.skip());
      const perps = await net.client.getPerpetuals({ transport });
      expect(perps[0]?.params?.ticker).toMatch(/-USD$/);
      expect((await net.client.getPerpetual({ id: perps[0]!.params!.id, transport })).params?.ticker).toBe(
        perps[0]!.params!.ticker,
      );
      await needs(net.client, prices.Query.method.allMarketPrices, {}, () => ctx.skip());
      const marketPrices = await net.client.getMarketPrices({ transport });
      expect((await net.client.getMarketPrice({ id: marketPrices[0]!.id, transport })).exponent).toBe(
        marketPrices[0]!.exponent,
      );
      await needs(net.client, feetiers.Query.method.perpetualFeeParams, {}, () => ctx.skip());
      expect((await net.client.getFeeTiers({ transport })).tiers.length).toBeGreaterThan(0);
      expect((await net.client.getUserFeeTier({ user: a(), transport })).tier).toBeDefined();
      const limits = await net.client.getBlockRateLimits({ transport });
      expect(limits.maxStatefulOrdersPerNBlocks.length).toBeGreaterThan(0);
      const tiers = await net.client.getEquityTiers({ transport });
      expect(tiers.statefulOrderEquityTiers.length).toBeGreaterThan(0);
    },
  );

  it.for(TRANSPORTS)("authenticators and account state over %s", async (transport, ctx) => {
    await needs(net.client, accountplus.Query.method.getAuthenticators, { account: a() }, () => ctx.skip());
    expect(Array.isArray(await net.client.getAuthenticators({ address: a(), transport }))).toBe(true);
    expect(await net.client.getAuthenticator({ address: a(), id: 999_999n, transport })).toBeUndefined();
    const state = await net.client.getAccountState({ address: a(), transport });
    expect(state === undefined || state.address === a()).toBe(true);
  });

  it.for(TRANSPORTS)("wrap rules and backing over %s", async (transport, ctx) => {
    await needs(net.client, wrap.Query.method.wrapRules, {}, () => ctx.skip());
    const rules = await net.client.getWrapRules({ transport });
    expect(rules.length).toBeGreaterThan(0);
    const rule = rules[0]!;
    expect(rule.sourceDenom).toBe("uusdc");
    expect(
      await net.client.getWrapRule({ channelId: rule.channelId, sourceDenom: rule.sourceDenom, transport }),
    ).toEqual(rule);
    expect(Array.isArray(await net.client.getBacking({ transport }))).toBe(true);
  });

  it.for(TRANSPORTS)("bridge params, events and withdrawals over %s", async (transport, ctx) => {
    await needs(net.client, bridge.Query.method.eventParams, {}, () => ctx.skip());
    expect(await net.client.getBridgeEventParams({ transport })).toBeDefined();
    expect(await net.client.getBridgeProposeParams({ transport })).toBeDefined();
    expect(await net.client.getBridgeSafetyParams({ transport })).toBeDefined();
    expect(await net.client.getAcknowledgedBridgeEventInfo({ transport })).toBeDefined();
    expect(await net.client.getRecognizedBridgeEventInfo({ transport })).toBeDefined();
    expect(
      Array.isArray(await net.client.getDelayedCompleteBridgeMessages({ address: a(), transport })),
    ).toBe(true);
    expect(Array.isArray(await net.client.getBridgeEvents({ transport }))).toBe(true);
    expect(
      Array.isArray(await net.client.getAggregatedWithdrawals({ readyForRelayOnly: true, transport })),
    ).toBe(true);
    expect(await net.client.getAggregatedWithdrawal({ withdrawalId: 999_999n, transport })).toBeUndefined();
  });

  it.for(TRANSPORTS)(
    "withdrawal configs, daily limits and usage, IBC rate limits over %s",
    async (transport, ctx) => {
      await needs(net.client, ratelimit.Query.method.assetWithdrawalConfigs, {}, () => ctx.skip());
      expect(Array.isArray(await net.client.getWithdrawalConfigs({ transport }))).toBe(true);
      expect(Array.isArray(await net.client.getWithdrawalConfigs({ assetId: 0, transport }))).toBe(true);
      expect(Array.isArray(await net.client.getDailyLimits({ transport }))).toBe(true);
      expect(Array.isArray(await net.client.getDailyUsage({ assetId: 0, transport }))).toBe(true);
      expect(Array.isArray(await net.client.getLimitParams({ transport }))).toBe(true);
      expect(Array.isArray(await net.client.getCapacityByDenom({ denom: "uusdc", transport }))).toBe(true);
    },
  );

  it.for(TRANSPORTS)("affiliate info, tiers, whitelist and parameters over %s", async (transport, ctx) => {
    await needs(net.client, affiliates.Query.method.allAffiliateTiers, {}, () => ctx.skip());
    const info = await net.client.getAffiliateInfo({ address: a(), transport });
    expect(typeof info.isWhitelisted).toBe("boolean");
    expect(typeof (await net.client.getReferredBy({ address: a(), transport }))).toBe("string");
    expect(await net.client.getAffiliateTiers({ transport })).toBeDefined();
    expect(await net.client.getAffiliateWhitelist({ transport })).toBeDefined();
    expect(await net.client.getAffiliateParameters({ transport })).toBeDefined();
  });
});
