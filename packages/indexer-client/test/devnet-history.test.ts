/**
 * The REST client's history, rewards and vault actions against the devnet's indexer, after signed
 * deposits, transfers and a matched trade (the devnet's own test support signs them), then an hour
 * of block time (a funding tick and an hourly PnL tick): transfers between two subaccounts, funding
 * payments (and their pages), PnL per hour and per day, a parent's PnL, and the empty rewards and
 * vault answers of a chain without those programs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BTC_PRICE_SUBTICKS,
  deliver,
  depositMsg,
  type IndexedChain,
  placeShortTerm,
  registerAffiliateMsg,
  startIndexedChain,
  transferMsg,
} from "../../devnet/test/support/indexer-chain.js";
import { createIndexerClient, type IndexerClient } from "../src/index.js";
import { isIndexerValidationError } from "../src/rest.js";

let chain: IndexedChain;
let client: IndexerClient;
let alice: string;
let bob: string;
let tickHeight: string;

beforeAll(async () => {
  chain = await startIndexedChain();
  alice = chain.signers[0]?.address as string;
  bob = chain.signers[1]?.address as string;
  await deliver(chain, 0, [depositMsg(alice, 10_000_000_000n)]);
  await deliver(chain, 1, [depositMsg(bob, 10_000_000_000n)]);
  await deliver(chain, 0, [transferMsg({ owner: alice, number: 0 }, { owner: bob, number: 0 }, 100n)]);
  await deliver(chain, 0, [transferMsg({ owner: alice, number: 0 }, { owner: alice, number: 128 }, 50n)]);
  await deliver(chain, 1, [registerAffiliateMsg(bob, alice)]);
  await placeShortTerm(chain, 1, {
    clientId: 1,
    side: "sell",
    quantums: 100_000_000n,
    subticks: BTC_PRICE_SUBTICKS,
  });
  await placeShortTerm(chain, 0, {
    clientId: 2,
    side: "buy",
    quantums: 100_000_000n,
    subticks: BTC_PRICE_SUBTICKS,
  });
  chain.devnet.mine(1);
  chain.devnet.app.control.advanceTime(3_600_000);
  tickHeight = chain.devnet.mine(1)[0]?.height.toString() as string;
  client = createIndexerClient({ baseUrl: chain.devnet.endpoints.indexer, timeoutMs: 15_000 });
});

afterAll(async () => {
  await chain?.devnet.stop();
});

describe("indexer client: history actions on the devnet", () => {
  it("gets the transfers between two subaccounts and the net sent", async () => {
    const between = await client.getTransfersBetween({
      source: { owner: alice, number: 0 },
      recipient: { owner: bob, number: 0 },
    });
    expect(between.totalNetTransfers).toBe("100");
    expect(between.transfersSubset).toHaveLength(1);
    expect(between.transfersSubset[0]).toMatchObject({
      sender: { address: alice, subaccountNumber: 0 },
      recipient: { address: bob, subaccountNumber: 0 },
      size: "100",
      symbol: "USDC",
      type: "TRANSFER_OUT",
    });
  });

  it("gets funding payments, filtered, paged and walked, for a subaccount and its parent", async () => {
    const { fundingPayments } = await client.getFundingPayments({ owner: alice, number: 0 });
    expect(fundingPayments).toEqual([
      {
        subaccountNumber: "0",
        createdAt: expect.any(String),
        createdAtHeight: tickHeight,
        perpetualId: "0",
        ticker: "BTC-USD",
        oraclePrice: "65000",
        size: "0.01",
        side: "LONG",
        rate: "0.0000125",
        payment: expect.stringMatching(/^-0\.\d+$/),
        fundingIndex: expect.any(String),
      },
    ]);
    expect(
      (await client.getFundingPayments({ owner: alice, number: 0, ticker: "ETH-USD" })).fundingPayments,
    ).toEqual([]);
    // `showZeroPayments: false` sends nothing (the server shows zeros whenever the key is present).
    expect(
      (await client.getFundingPayments({ owner: alice, number: 0, showZeroPayments: false })).fundingPayments,
    ).toEqual(fundingPayments);
    const pages = [];
    for await (const page of client.iterateFundingPaymentPages({
      owner: bob,
      number: 0,
      limit: 1,
    }))
      pages.push(page);
    expect(pages.map((p) => p.fundingPayments.map((f) => f.side))).toEqual([["SHORT"]]);
    expect(pages[0]).toMatchObject({ pageSize: 1, offset: 0, totalResults: 1 });
    const parent = await client.getParentFundingPayments({ owner: alice, number: 0 });
    expect(parent.fundingPayments).toEqual(fundingPayments);
  });

  it("gets PnL per hour and per day, and a parent's PnL summed over its children", async () => {
    const { historicalPnl } = await client.getHistoricalPnl({ owner: alice, number: 0 });
    const latest = historicalPnl[0];
    expect(latest?.blockHeight).toBe(tickHeight);
    const { pnl } = await client.getPnl({ owner: alice, number: 0 });
    // A pnl_ticks row keeps toFixed(6)'s six decimals; the pnl table's sums print without them.
    const trimmed = (text: string | undefined) => text?.replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");
    expect(pnl[0]).toMatchObject({
      equity: trimmed(latest?.equity),
      netTransfers: "9850",
      totalPnl: trimmed(latest?.totalPnl),
      createdAtHeight: tickHeight,
    });
    const daily = await client.getPnl({ owner: alice, number: 0, daily: true });
    expect(daily.pnl[0]?.createdAt).toMatch(/T00:00:00\.000Z$/);
    const parent = await client.getParentPnl({ owner: alice, number: 0 });
    expect(parent.pnl[0]?.netTransfers).toBe("9900");
    const parentHistorical = await client.getParentHistoricalPnl({
      owner: alice,
      number: 0,
    });
    expect(parentHistorical.historicalPnl[0]).toMatchObject({
      netTransfers: "9900",
      blockHeight: tickHeight,
    });
  });

  it("gets the trade history of a subaccount and its parent, and walks its pages", async () => {
    const history = await client.getTradeHistory({ owner: alice, number: 0 });
    expect(history).toEqual({
      tradeHistory: [
        {
          id: expect.stringMatching(/^[0-9a-f-]{36}:\d+$/),
          subaccountNumber: 0,
          action: "OPEN",
          executionPrice: "65000",
          entryPrice: "65000",
          side: "BUY",
          positionSide: "LONG",
          prevSize: "0",
          additionalSize: "0.01",
          value: "650",
          orderType: "LIMIT",
          netFee: "0.325",
          netRealizedPnl: "0",
          netRealizedPnlPercent: null,
          time: expect.any(String),
          orderId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          marketId: "BTC-USD",
          marginMode: "CROSS",
        },
      ],
      pageSize: 1000,
      totalResults: 1,
      offset: 0,
    });
    const bobs = await client.getTradeHistory({
      owner: bob,
      number: 0,
      market: "BTC-USD",
      marketType: "PERPETUAL",
    });
    expect(bobs.tradeHistory.map((row) => [row.action, row.side, row.positionSide])).toEqual([
      ["OPEN", "SELL", "SHORT"],
    ]);
    expect(await client.getParentTradeHistory({ owner: alice, number: 0 })).toEqual(history);
    const pages = [];
    for await (const page of client.iterateTradeHistoryPages({
      owner: alice,
      number: 0,
      limit: 1,
    }))
      pages.push(page.tradeHistory.length);
    expect(pages).toEqual([1]);
  });

  it("gets an affiliate's metadata, its code's address, the snapshot and total volumes", async () => {
    const meta = await client.getAffiliateMetadata({ address: alice });
    expect(meta).toEqual({
      referralCode: expect.stringMatching(/^[A-Z]\w+$/),
      isVolumeEligible: false,
      isAffiliate: true,
    });
    expect(await client.getAffiliateAddress({ referralCode: meta.referralCode })).toEqual({ address: alice });
    const snapshot = await client.getAffiliateSnapshot({ sortByAffiliateEarning: true, limit: 10 });
    expect(snapshot).toMatchObject({ total: 1, currentOffset: 0 });
    expect(snapshot.affiliateList[0]).toMatchObject({
      affiliateAddress: alice,
      affiliateReferralCode: meta.referralCode,
      affiliateReferredUsers: 1,
      affiliateReferredTrades: 1,
      affiliateReferredTotalVolume: 650,
    });
    expect(await client.getAffiliateTotalVolume({ address: bob })).toEqual({ totalVolume: 650 });
    expect(await client.getAffiliateSnapshot({ addressFilter: [bob] })).toEqual({
      affiliateList: [],
      currentOffset: 0,
      total: 0,
    });
  });

  it("gets the empty rewards and vault answers, and the server's 400 entries as typed errors", async () => {
    expect(await client.getHistoricalBlockTradingRewards({ address: alice, limit: 5 })).toEqual({
      rewards: [],
    });
    expect(await client.getHistoricalTradingRewardAggregations({ address: alice, period: "WEEKLY" })).toEqual(
      {
        rewards: [],
      },
    );
    expect(await client.getMegavaultHistoricalPnl({ resolution: "day" })).toEqual({ megavaultPnl: [] });
    expect(await client.getVaultsHistoricalPnl()).toEqual({ vaultsPnl: [] });
    expect(await client.getMegavaultPositions()).toEqual({ positions: [] });
    const error = await client.getFundingPayments({ owner: alice, number: 0, ticker: "NOPE-USD" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isIndexerValidationError(error) && error.entries[0]).toEqual({
      value: "NOPE-USD",
      msg: "ticker must be a valid ticker (BTC-USD, etc)",
      param: "ticker",
      location: "query",
    });
  });
});
