/**
 * A fork of a live network, where the live network is another devnet (`--liquidity`, its oracle's
 * random walk on, free ports) reached only through its public endpoints. One live devnet and one
 * fork serve every case, in order: the fork's state, the owner's signature on it, the oracle
 * shadow, the book mirror, trade-through fills, the live side seeing none of it, and the live
 * network stopped and restarted.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DescMessage, DescMethodUnary } from "@bufbuild/protobuf";
import { addressToHex } from "@perpx/address";
import { CompositeClient, type OrderHandle } from "@perpx/composite-client";
import { DEFAULT_PORTS, type Devnet, type DevnetPorts, startDevnet } from "@perpx/devnet";
import { getOrderbook } from "@perpx/indexer-client";
import { createIndexerConnection } from "@perpx/indexer-client/rest";
import {
  createNodeClient,
  getAccount,
  getBalances,
  getSubaccount,
  marketQueries,
  type NodeConnection,
} from "@perpx/node-client";
import { catalogQueries, getNodeInfo, type UnaryQueryParams, unaryQuery } from "@perpx/node-client/queries";
import { LocalWallet } from "@perpx/node-client/wallets";
import { affiliates, bridge, perpetuals, ratelimit } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sparePortsByName } from "../../../tests/support/spare-ports.js";
import { type Fork, readForkState, startFork } from "../src/index.js";

const { getClobPairs, getFeeTiers, getMarketPrice, getPerpetuals } = marketQueries;

const {
  getBlockRateLimits,
  getEquityTiers,
  getLiquidityTiers,
  getMarketMapperRevShareParams,
  getRewardsParams,
} = catalogQueries;

const liveDir = mkdtempSync(join(tmpdir(), "fork-live-"));
// A fee multiplier the devnet's profile does not have (its default is 0), so the fork can be seen
// to take the live one.
const liveOptions = {
  blockTimeMs: 200,
  liquidity: true,
  faucetWindowMs: 0,
  stateDir: liveDir,
  rewardsFeeMultiplierPpm: 250_000,
} as const;
let live: Devnet;
let fork: Fork;
let liveNode: NodeConnection;
let forkNode: NodeConnection;
const { mnemonic, wallet } = LocalWallet.generateWithMnemonic();
const trader = wallet.address;
let liveClient: CompositeClient;
let forkClient: CompositeClient;
let liveOrderIdsBefore: string[] = [];
let liveTxsBefore = -1;

const connect = (devnet: Devnet, w: LocalWallet) =>
  CompositeClient.connect({ network: "local", endpoints: devnet.endpoints, wallet: w });
const control = async (devnet: Devnet, path: string, body?: unknown) => {
  const response = await fetch(`${devnet.endpoints.devnetControl}/devnet${path}`, {
    method: body === undefined ? "GET" : "POST",
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Record<string, unknown>;
};
const ask = <I extends DescMessage, O extends DescMessage>(
  node: NodeConnection,
  method: DescMethodUnary<I, O>,
) => unaryQuery(node, { method, request: {} } as UnaryQueryParams<I, O>);
const btcPrice = async (node: NodeConnection) => (await getMarketPrice(node, { id: 0 })).price;
const top = async (devnet: Devnet) => {
  const book = await getOrderbook(createIndexerConnection({ baseUrl: devnet.endpoints.indexer }), {
    ticker: "BTC-USD",
  });
  return { bid: book.bids[0], ask: book.asks[0] };
};
/** Resolves with the order's first state that `done` accepts (a resting order is never final). */
const stateOf = async (order: OrderHandle, done: (status: string) => boolean) => {
  for await (const update of order.updates()) if (done(update.status)) return update.status;
  return "ENDED";
};
const liveTxCount = async (address: string) => {
  const search = await fetch(`${live.endpoints.nodeRpc}/tx_search?query="message.sender='${address}'"`);
  return Number(((await search.json()) as { result: { total_count: string } }).result.total_count);
};
const liveOrderIds = async () => {
  const response = await fetch(
    `${live.endpoints.indexer}/v4/orders?address=${trader}&subaccountNumber=0&limit=100`,
  );
  return ((await response.json()) as Array<{ id: string }>).map((o) => o.id).sort();
};

beforeAll(async () => {
  // Spare ports, which no parallel test takes while the live network is down (its restart below).
  const ports = await sparePortsByName(Object.keys(DEFAULT_PORTS) as (keyof DevnetPorts)[]);
  live = await startDevnet({ ...liveOptions, ports });
  liveNode = createNodeClient({ grpc: live.endpoints.grpc });
  // The trader's history on the live network: funded, a deposit, a long position.
  liveClient = await connect(live, wallet);
  await liveClient.faucet();
  const bought = await liveClient.placeOrder({
    market: "BTC-USD",
    side: "BUY",
    type: "MARKET",
    size: "0.002",
    slippage: "1%",
  });
  expect((await bought.result()).status).toBe("FILLED");
  // Module params the live network changed by governance, away from the profile's.
  const { authority } = (await control(live, "/gov/authority")) as { authority: string };
  const proposal = await control(live, "/gov/proposals", {
    messages: [
      {
        "@type": "/perpx.revshare.v1.MsgSetMarketMapperRevenueShare",
        authority,
        params: { address: live.accounts[2]!.address, revenue_share_ppm: 40_000, valid_days: 90 },
      },
      {
        "@type": "/perpx.perpetuals.v1.MsgUpdateParams",
        authority,
        params: {
          funding_rate_clamp_factor_ppm: 4_000_000,
          premium_vote_clamp_factor_ppm: 50_000_000,
          min_num_votes_per_sample: 7,
        },
      },
      {
        "@type": "/perpx.affiliates.v1.MsgUpdateAffiliateTiers",
        authority,
        tiers: { tiers: [{ req_referred_volume_quote_quantums: "0", taker_fee_share_ppm: 123_000 }] },
      },
      {
        "@type": "/perpx.bridge.v1.MsgUpdateSafetyParams",
        authority,
        params: { is_disabled: false, delay_blocks: 17 },
      },
      {
        "@type": "/perpx.bridge.v1.MsgUpdateProposeParams",
        authority,
        params: {
          max_bridges_per_block: 9,
          propose_delay_duration: "33s",
          skip_rate_ppm: 1_000,
          skip_if_block_delayed_by_duration: "4s",
        },
      },
      {
        "@type": "/perpx.ratelimit.v1.MsgSetLimitParams",
        authority,
        limit_params: {
          denom: "ufork",
          limiters: [{ period: "7200s", baseline_minimum: "987654321", baseline_tvl_ppm: 20_000 }],
        },
      },
    ],
  });
  expect((proposal.result as { status?: string } | undefined)?.status).toBe("passed");
  liveOrderIdsBefore = await liveOrderIds();
  liveTxsBefore = await liveTxCount(trader);
  fork = await startFork({
    from: "local",
    endpoints: live.endpoints,
    // Either address form: the 0x form of the trader's address.
    accounts: [addressToHex(trader)],
    ports: "free",
    blockTimeMs: 200,
  });
  forkNode = createNodeClient({ grpc: fork.devnet.endpoints.grpc });
  forkClient = await connect(fork.devnet, LocalWallet.fromMnemonic(mnemonic));
});

afterAll(async () => {
  liveClient?.close();
  forkClient?.close();
  await fork?.stop();
  await live?.stop();
  rmSync(liveDir, { recursive: true, force: true });
});

describe("a fork of a live devnet", () => {
  it("has the live network's identity, markets and parameters, and says it is a fork", async () => {
    expect(fork.devnet.chainId).toBe(live.chainId);
    expect(fork.devnet.evmChainId).toBe(live.evmChainId);
    expect((await getNodeInfo(forkNode)).moniker).toBe("perpx-FORK");
    expect(await control(fork.devnet, "/fork")).toMatchObject({ fork: true, moniker: "perpx-FORK" });
    expect(await control(live, "/fork")).toMatchObject({ fork: false });
    const params = async (node: NodeConnection) => ({
      perpetuals: (await getPerpetuals(node)).map((p) => p.params),
      pairs: await getClobPairs(node),
      tiers: await getLiquidityTiers(node),
      fees: await getFeeTiers(node),
      rewards: await getRewardsParams(node),
      marketMapper: await getMarketMapperRevShareParams(node),
      blockRateLimits: await getBlockRateLimits(node),
      equityTiers: await getEquityTiers(node),
      // Modules with no dedicated client action, through the generic typed query.
      perpetualsParams: (await ask(node, perpetuals.Query.method.params)).params,
      affiliateTiers: (await ask(node, affiliates.Query.method.allAffiliateTiers)).tiers,
      affiliateWhitelist: (await ask(node, affiliates.Query.method.affiliateWhitelist)).whitelist,
      affiliateParameters: (await ask(node, affiliates.Query.method.affiliateParameters)).parameters,
      affiliateOverrides: (await ask(node, affiliates.Query.method.affiliateOverrides)).overrides,
      bridgeEvents: (await ask(node, bridge.Query.method.eventParams)).allParams,
      bridgePropose: (await ask(node, bridge.Query.method.proposeParams)).params,
      bridgeSafety: (await ask(node, bridge.Query.method.safetyParams)).params,
      limits: (await ask(node, ratelimit.Query.method.listLimitParams)).limitParamsList,
      withdrawalConfigs: (await ask(node, ratelimit.Query.method.assetWithdrawalConfigs)).configs,
      dailyLimits: (await ask(node, ratelimit.Query.method.dailyLimits)).limits,
    });
    const liveParams = await params(liveNode);
    expect(liveParams.rewards.feeMultiplierPpm).toBe(250_000);
    expect(liveParams.marketMapper).toMatchObject({ revenueSharePpm: 40_000, validDays: 90 });
    expect(liveParams.perpetualsParams).toMatchObject({
      fundingRateClampFactorPpm: 4_000_000,
      minNumVotesPerSample: 7,
    });
    expect(liveParams.affiliateTiers?.tiers.map((t) => t.takerFeeSharePpm)).toEqual([123_000]);
    expect(liveParams.bridgeSafety?.delayBlocks).toBe(17);
    expect(liveParams.bridgePropose?.maxBridgesPerBlock).toBe(9);
    expect(liveParams.limits.map((l) => l.denom)).toContain("ufork");
    expect(await params(forkNode)).toEqual(liveParams);
    expect(fork.state.fromPreset ?? []).toEqual([]);
  });

  it("takes the EVM chain id the live EVM endpoint answers, and names what came from the preset", async () => {
    // An EVM endpoint that answers another chain id than the preset's 31337.
    const evm = createServer((_request, response) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: "0x3039" }));
    });
    await new Promise<void>((done) => evm.listen(0, "127.0.0.1", done));
    try {
      const { port } = evm.address() as AddressInfo;
      const read = (evmRpc?: string) =>
        readForkState({
          node: liveNode,
          indexer: createIndexerConnection({ baseUrl: live.endpoints.indexer }),
          source: "a devnet",
          ...(evmRpc === undefined ? {} : { evmRpc }),
        });
      const answered = await read(`http://127.0.0.1:${port}`);
      expect(answered.evmChainId).toBe(12345);
      expect(answered.fromPreset).toBeUndefined();
      expect(answered.params?.rewards?.feeMultiplierPpm).toBe(250_000);
      const unanswered = await read();
      expect(unanswered.evmChainId).toBe(31337);
      expect(unanswered.fromPreset).toEqual(["evmChainId"]);
    } finally {
      await new Promise((done) => evm.close(done));
    }
  });

  it("holds the forked account as the live one: number, sequence, key, balances, subaccount", async () => {
    const [liveAccount, forkAccount] = await Promise.all([
      getAccount(liveNode, { address: trader }),
      getAccount(forkNode, { address: trader }),
    ]);
    expect(forkAccount).toEqual(liveAccount);
    expect(await getBalances(forkNode, { address: trader })).toEqual(
      await getBalances(liveNode, { address: trader }),
    );
    const liveSub = await getSubaccount(liveNode, { owner: trader, number: 0 });
    expect(liveSub?.perpetualPositions.length).toBe(1);
    expect(await getSubaccount(forkNode, { owner: trader, number: 0 })).toEqual(liveSub);
  });

  it("accepts an order the owner signs with the same mnemonic", async () => {
    const btc = await forkClient.getMarket({ ticker: "BTC-USD" });
    const order = await forkClient.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price: btc.oraclePrice,
      postOnly: true,
      rounding: "down",
      goodTil: { seconds: 600 },
    });
    expect(await stateOf(order, (status) => status !== "UNKNOWN")).toBe("RESTING");
    await forkClient.cancelOrder({ market: "BTC-USD", clientId: order.clientId });
  });

  it("follows the live oracle while it moves", async () => {
    const seen = new Set<bigint>();
    while (seen.size < 3) {
      await expect.poll(async () => (await btcPrice(forkNode)) === (await btcPrice(liveNode))).toBe(true);
      seen.add(await btcPrice(forkNode));
    }
  });

  it("mirrors the live top of book, and a market buy fills at the live ask", async () => {
    // A still live market, so that the ask the buy meets is the ask read before it.
    await control(live, "/prices/walk", { enabled: false });
    // The live maker may re-quote once more after the walk stops: a buy during a re-quote proves
    // nothing either way, so it is judged only when the live ask stayed what it was around it.
    let judged = 0;
    for (let attempt = 0; attempt < 5 && judged === 0; attempt++) {
      await expect
        .poll(async () => JSON.stringify(await top(fork.devnet)) === JSON.stringify(await top(live)))
        .toBe(true);
      const { ask } = await top(live);
      const buy = await forkClient.placeOrder({
        market: "BTC-USD",
        side: "BUY",
        type: "MARKET",
        size: "0.001",
        slippage: "1%",
      });
      const result = await buy.result();
      expect(result.status).toBe("FILLED");
      if ((await top(live)).ask?.price !== ask?.price) continue;
      expect(result.fills.map((f) => f.price)).toEqual([ask?.price]);
      judged++;
    }
    expect(judged).toBe(1);
  });

  it("fills a resting bid at its price when the live market trades through it", async () => {
    const { bid } = await top(live);
    const price = bid?.price as string;
    const resting = await forkClient.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      size: "0.001",
      price,
      goodTil: { seconds: 600 },
    });
    expect(await stateOf(resting, (status) => status !== "UNKNOWN")).toBe("RESTING");
    // A seller on the live network sweeps its best bids, through the resting bid's price.
    const seller = await connect(live, LocalWallet.fromMnemonic(live.accounts[1]!.mnemonic));
    try {
      await seller.deposit({ amount: "10000" });
      const sold = await seller.placeOrder({
        market: "BTC-USD",
        side: "SELL",
        type: "MARKET",
        size: "0.2",
        slippage: "1%",
      });
      const result = await sold.result();
      expect(result.status).toBe("FILLED");
      expect(result.fills.length).toBeGreaterThan(1);
    } finally {
      seller.close();
    }
    expect((await resting.result()).status).toBe("FILLED");
    const fills = await fetch(
      `${fork.devnet.endpoints.indexer}/v4/fills?address=${trader}&subaccountNumber=0&market=BTC-USD&marketType=PERPETUAL`,
    );
    const [last] = (
      (await fills.json()) as { fills: Array<{ price: string; side: string; liquidity: string }> }
    ).fills;
    expect(last).toMatchObject({ price, side: "BUY", liquidity: "MAKER" });
  });

  it("sends nothing to the live network", async () => {
    expect(await liveOrderIds()).toEqual(liveOrderIdsBefore);
    const mirror = fork.devnet.mirror;
    for (const address of [mirror?.address, mirror?.takerAddress]) {
      expect(await getAccount(liveNode, { address: address as string })).toBeUndefined();
      expect(await liveTxCount(address as string)).toBe(0);
      const response = await fetch(`${live.endpoints.indexer}/v4/addresses/${address}`);
      expect(response.status).toBe(404);
    }
    // The long-term orders and cancels the trader signed on the fork are in no live block.
    expect(await liveTxCount(trader)).toBe(liveTxsBefore);
  });

  it("pauses when the live network drops and resumes when it returns", async () => {
    await control(live, "/prices/walk", { enabled: true });
    const ports = live.ports;
    await live.stop();
    await expect.poll(async () => (await control(fork.devnet, "/fork/shadow")).state).toBe("paused");
    live = await startDevnet({ ...liveOptions, ports });
    await expect.poll(async () => (await control(fork.devnet, "/fork/shadow")).state).toBe("following");
    // A price the walk does not move on, so that the fork's can be seen to reach it.
    await control(live, "/prices/walk", { enabled: false });
    await control(live, "/prices", { market: "BTC-USD", price: "61234.5" });
    await expect.poll(async () => btcPrice(forkNode)).toBe(6_123_450_000n);
  });
});
