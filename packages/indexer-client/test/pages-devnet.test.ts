/**
 * Every page iterator (`iterate*Pages`) against the devnet's indexer, which pages as the reference
 * does: after transfers, three matched trades and three funding hours, each walks to the end of
 * its list at limits 1, 2 and 1000, yielding every row of the unpaged answer exactly once, and
 * never trips the guards against a server that ignores `page`.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  BTC_PRICE_SUBTICKS,
  deliver,
  depositMsg,
  type IndexedChain,
  placeShortTerm,
  startIndexedChain,
  transferMsg,
} from "../../devnet/test/support/indexer-chain.js";
import { createIndexerClient, type IndexerClient } from "../src/index.js";

let chain: IndexedChain;
let client: IndexerClient;
let alice: string;

beforeAll(async () => {
  chain = await startIndexedChain();
  alice = chain.signers[0]?.address as string;
  const bob = chain.signers[1]?.address as string;
  await deliver(chain, 0, [depositMsg(alice, 10_000_000_000n)]);
  await deliver(chain, 1, [depositMsg(bob, 10_000_000_000n)]);
  for (let i = 0; i < 4; i++) {
    await deliver(chain, 0, [transferMsg({ owner: alice, number: 0 }, { owner: bob, number: 0 }, 10n)]);
  }
  await deliver(chain, 0, [transferMsg({ owner: alice, number: 0 }, { owner: alice, number: 128 }, 50n)]);
  for (let clientId = 1; clientId <= 3; clientId++) {
    await placeShortTerm(chain, 1, {
      clientId,
      side: "sell",
      quantums: 100_000_000n,
      subticks: BTC_PRICE_SUBTICKS,
    });
    await placeShortTerm(chain, 0, {
      clientId,
      side: "buy",
      quantums: 100_000_000n,
      subticks: BTC_PRICE_SUBTICKS,
    });
    chain.devnet.mine(1);
  }
  for (let hour = 0; hour < 3; hour++) {
    chain.devnet.app.control.advanceTime(3_600_000);
    chain.devnet.mine(1);
  }
  client = createIndexerClient({ baseUrl: chain.devnet.endpoints.indexer, timeoutMs: 15_000 });
});

afterAll(async () => {
  await chain?.devnet.stop();
});

const sortedJson = (rows: readonly unknown[]) => rows.map((row) => JSON.stringify(row)).sort();

it("each page iterator yields every row of its list once, at any limit", async () => {
  const sub = { owner: alice, number: 0 };
  const lists: [string, () => Promise<readonly unknown[]>, (limit: number) => AsyncIterable<unknown[]>][] = [
    [
      "fills",
      async () => (await client.getFills(sub)).fills,
      (limit) => rowsOf(client.iterateFillPages({ ...sub, limit }), (a) => a.fills),
    ],
    [
      "parent fills",
      async () => (await client.getParentFills(sub)).fills,
      (limit) => rowsOf(client.iterateParentFillPages({ ...sub, limit }), (a) => a.fills),
    ],
    [
      "transfers",
      async () => (await client.getTransfers(sub)).transfers,
      (limit) => rowsOf(client.iterateTransferPages({ ...sub, limit }), (a) => a.transfers),
    ],
    [
      "parent transfers",
      async () => (await client.getParentTransfers(sub)).transfers,
      (limit) => rowsOf(client.iterateParentTransferPages({ ...sub, limit }), (a) => a.transfers),
    ],
    [
      "trades",
      async () => (await client.getTrades({ ticker: "BTC-USD" })).trades,
      (limit) => rowsOf(client.iterateTradePages({ ticker: "BTC-USD", limit }), (a) => a.trades),
    ],
    [
      "historical pnl",
      async () => (await client.getHistoricalPnl(sub)).historicalPnl,
      (limit) => rowsOf(client.iterateHistoricalPnlPages({ ...sub, limit }), (a) => a.historicalPnl),
    ],
    [
      "funding payments",
      async () => (await client.getFundingPayments(sub)).fundingPayments,
      (limit) => rowsOf(client.iterateFundingPaymentPages({ ...sub, limit }), (a) => a.fundingPayments),
    ],
    [
      "trade history",
      async () => (await client.getTradeHistory(sub)).tradeHistory,
      (limit) => rowsOf(client.iterateTradeHistoryPages({ ...sub, limit }), (a) => a.tradeHistory),
    ],
  ];
  for (const [name, all, pages] of lists) {
    const expected = await all();
    expect(expected.length, name).toBeGreaterThanOrEqual(3);
    for (const limit of [1, 2, 1000]) {
      const got: unknown[] = [];
      let count = 0;
      for await (const page of pages(limit)) {
        got.push(...page);
        count++;
      }
      expect(sortedJson(got), `${name} at limit ${limit}`).toEqual(sortedJson(expected));
      expect(count, `${name} at limit ${limit}`).toBe(Math.max(1, Math.ceil(expected.length / limit)));
    }
  }
});

async function* rowsOf<R>(pages: AsyncIterable<R>, rows: (answer: R) => readonly unknown[]) {
  for await (const page of pages) yield [...rows(page)];
}
