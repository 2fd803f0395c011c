/**
 * The indexer's channel feed (`IndexerFeed`): the messages each block and each order stream step
 * publish (order book levels with absolute sizes, trades, candles, markets, block height) and the
 * snapshots, checked against the REST bodies they must agree with.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChannelInterest, ChannelMessage } from "../src/indexer/feed.js";
import { committedBlocks, type Indexer, startIndexer } from "../src/indexer/indexer.js";
import {
  BTC_PRICE_SUBTICKS,
  deliver,
  depositMsg,
  type IndexedChain,
  placeShortTerm,
  startIndexedChain,
} from "./support/indexer-chain.js";

let chain: IndexedChain;
let indexer: Indexer;
let stop: () => void;
const received: ChannelMessage[] = [];
/** A second indexer on the same chain whose only listener wants one subaccount's channel ids and ETH trades. */
let picky: { stop: () => void; wants: ChannelInterest; received: ChannelMessage[] } | undefined;

beforeAll(async () => {
  chain = await startIndexedChain();
  ({ indexer, stop } = startIndexer(chain.devnet.app, committedBlocks(chain.devnet.app)));
  indexer.onMessages((messages) => received.push(...messages));
  const alice = chain.signers[0]?.address as string;
  const wants: ChannelInterest = (channel, id) =>
    ((channel === "v4_subaccounts" || channel === "v4_parent_subaccounts") && id === `${alice}/0`) ||
    (channel === "v4_trades" && id === "ETH-USD");
  const second = startIndexer(chain.devnet.app, committedBlocks(chain.devnet.app));
  picky = { stop: second.stop, wants, received: [] };
  const into = picky.received;
  second.indexer.onMessages((messages) => into.push(...messages), wants);
  for (const i of [0, 1])
    await deliver(chain, i, [depositMsg(chain.signers[i]?.address as string, 10_000_000_000n)]);
});

afterAll(async () => {
  stop?.();
  picky?.stop();
  await chain?.devnet.stop();
});

const on = (channel: string, id?: string) =>
  received.filter((m) => m.channel === channel && (id === undefined || m.id === id));

describe("indexer feed", () => {
  it("publishes the block height of every block, and snapshots it under the other key", () => {
    const [block] = chain.devnet.mine(1);
    expect(on("v4_block_height").at(-1)).toEqual({
      channel: "v4_block_height",
      id: "v4_block_height",
      version: "1.0.0",
      contents: { blockHeight: block?.height.toString(), time: block?.time.toISOString() },
    });
    expect(indexer.snapshot("v4_block_height", "v4_block_height")).toEqual({
      kind: "snapshot",
      contents: { height: block?.height.toString(), time: block?.time.toISOString() },
    });
  });

  it("sends absolute level sizes that, applied to the snapshot, give the REST book", async () => {
    const start = indexer.snapshot("v4_orderbook", "BTC-USD");
    expect(start).toEqual({ kind: "snapshot", contents: { bids: [], asks: [] } });
    const from = received.length;
    await placeShortTerm(chain, 1, {
      clientId: 21,
      side: "sell",
      quantums: 3_000_000n,
      subticks: BTC_PRICE_SUBTICKS,
    });
    await placeShortTerm(chain, 1, {
      clientId: 22,
      side: "sell",
      quantums: 1_000_000n,
      subticks: BTC_PRICE_SUBTICKS,
    });
    await placeShortTerm(chain, 0, {
      clientId: 23,
      side: "buy",
      quantums: 2_000_000n,
      subticks: BTC_PRICE_SUBTICKS - 100_000n,
    });
    await placeShortTerm(chain, 0, {
      clientId: 24,
      side: "buy",
      quantums: 1_000_000n,
      subticks: BTC_PRICE_SUBTICKS,
    });
    const updates = received.slice(from).filter((m) => m.channel === "v4_orderbook");
    expect(updates.map((m) => m.contents)).toEqual([
      { asks: [["65000", "0.0003"]] },
      { asks: [["65000", "0.0004"]] },
      { bids: [["64999", "0.0002"]] },
      { asks: [["65000", "0.0003"]] },
    ]);
    const levels = { bids: new Map<string, string>(), asks: new Map<string, string>() };
    for (const m of updates) {
      for (const side of ["bids", "asks"] as const) {
        for (const [price, size] of (m.contents as Record<string, [string, string][]>)[side] ?? []) {
          if (size === "0") levels[side].delete(price);
          else levels[side].set(price, size);
        }
      }
    }
    const rest = indexer.orderbook("BTC-USD");
    expect(rest?.asks.map((l) => [l.price, l.size])).toEqual([...levels.asks]);
    expect(rest?.bids.map((l) => [l.price, l.size])).toEqual([...levels.bids]);
  });

  it("publishes the block's trades, candles and market figures, matching REST", () => {
    const from = received.length;
    chain.devnet.mine(1);
    const messages = received.slice(from);
    const trades = messages.filter((m) => m.channel === "v4_trades");
    expect(trades).toHaveLength(1);
    const rest = indexer.tradesOf("BTC-USD")?.[0];
    expect(trades[0]).toEqual({
      channel: "v4_trades",
      id: "BTC-USD",
      version: "2.1.0",
      contents: {
        trades: [
          {
            id: rest?.id,
            size: "0.0001",
            price: "65000",
            side: "BUY",
            createdAt: rest?.createdAt,
            type: "LIMIT",
          },
        ],
      },
    });
    const candles = messages.filter((m) => m.channel === "v4_candles");
    expect(candles.map((m) => m.id).sort()).toEqual(
      ["1MIN", "5MINS", "15MINS", "30MINS", "1HOUR", "4HOURS", "1DAY"].map((r) => `BTC-USD/${r}`).sort(),
    );
    const { id: _id, ...restCandle } = indexer.candlesOf("BTC-USD", "1MIN")?.[0] ?? {};
    expect(candles.find((m) => m.id === "BTC-USD/1MIN")?.contents).toEqual(restCandle);
    const markets = messages.find((m) => m.channel === "v4_markets" && "trading" in (m.contents as object));
    expect(markets?.contents).toMatchObject({
      trading: { "BTC-USD": { trades24H: 1, volume24H: "6.5", openInterest: "0.0001", ticker: "BTC-USD" } },
    });
    expect(indexer.snapshot("v4_trades", "BTC-USD")).toEqual({
      kind: "snapshot",
      contents: { trades: indexer.tradesOf("BTC-USD") },
    });
    expect(indexer.snapshot("v4_candles", "BTC-USD/1MIN")).toMatchObject({ kind: "snapshot" });
  });

  it("publishes each oracle price update and the trading figures as separate messages, as the reference", async () => {
    chain.devnet.app.control.setOraclePrice("SOL-USD", "151.5");
    chain.devnet.app.control.setOraclePrice("ETH-USD", "3001");
    // A trade in the same block moves BTC-USD's trading figures.
    await placeShortTerm(chain, 1, { clientId: 31, side: "sell", quantums: 1_000_000n });
    await placeShortTerm(chain, 0, { clientId: 32, side: "buy", quantums: 1_000_000n });
    const from = received.length;
    const [block] = chain.devnet.mine(1);
    const markets = received.slice(from).filter((m) => m.channel === "v4_markets");
    const priceOf = (ticker: string, oraclePrice: string, marketId: number) => ({
      channel: "v4_markets",
      id: "v4_markets",
      version: "1.0.0",
      contents: {
        oraclePrices: {
          [ticker]: {
            oraclePrice,
            effectiveAt: block?.time.toISOString(),
            effectiveAtHeight: block?.height.toString(),
            marketId,
          },
        },
      },
    });
    // One message per oracle price update, in the block's event order (the order they were set).
    expect(markets.slice(0, 2)).toEqual([priceOf("SOL-USD", "151.5", 2), priceOf("ETH-USD", "3001", 1)]);
    expect(markets).toHaveLength(3);
    const trading = markets[2]?.contents as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(trading)).toEqual(["trading"]);
    const btc = indexer.perpetualMarket("BTC-USD");
    expect(trading.trading?.["BTC-USD"]).toMatchObject({
      ticker: "BTC-USD",
      trades24H: btc?.trades24H,
      volume24H: btc?.volume24H,
    });
  });

  it("publishes subaccount changes with the block height, and snapshots subaccounts and parents", async () => {
    const carl = chain.signers[2]?.address as string;
    expect(indexer.snapshot("v4_subaccounts", `${carl}/0`)).toEqual({ kind: "snapshot", contents: {} });
    const from = received.length;
    const result = await deliver(chain, 2, [depositMsg(carl, 5_000_000n, 129)]);
    expect(result.code, result.log).toBe(0);
    const height = chain.devnet.app.latestBlock().height.toString();
    const mine = received.slice(from).filter((m) => m.channel === "v4_subaccounts" && m.id === `${carl}/129`);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.contents).toEqual({
      assetPositions: [
        {
          address: carl,
          subaccountNumber: 129,
          positionId: expect.any(String),
          assetId: "0",
          symbol: "USDC",
          side: "LONG",
          size: "5",
        },
      ],
      transfers: {
        sender: { address: carl },
        recipient: { address: carl, subaccountNumber: 129 },
        symbol: "USDC",
        size: "5",
        type: "DEPOSIT",
        transactionHash: expect.stringMatching(/^[0-9A-F]{64}$/),
        createdAt: expect.any(String),
        createdAtHeight: height,
      },
      blockHeight: height,
    });
    const parent = received.slice(from).find((m) => m.channel === "v4_parent_subaccounts");
    expect(parent).toMatchObject({ id: `${carl}/1`, subaccountNumber: 129, contents: mine[0]?.contents });
    const snapshot = indexer.snapshot("v4_parent_subaccounts", `${carl}/1`);
    expect(snapshot).toMatchObject({
      kind: "snapshot",
      contents: {
        subaccount: {
          address: carl,
          parentSubaccountNumber: 1,
          equity: "5",
          freeCollateral: "5",
          childSubaccounts: [{ subaccountNumber: 129 }],
        },
        orders: [],
        blockHeight: height,
      },
    });
    expect(indexer.snapshot("v4_subaccounts", `${carl}/128000`)).toEqual({ kind: "invalid-id" });
    expect(indexer.snapshot("v4_parent_subaccounts", `${carl}/128`)).toEqual({ kind: "invalid-id" });
  });

  it("publishes a step's order book updates in a call of their own, ahead of its order updates", async () => {
    const calls: ChannelMessage[][] = [];
    const off = indexer.onMessages((messages) => calls.push([...messages]));
    await placeShortTerm(chain, 0, {
      clientId: 31,
      side: "buy",
      quantums: 1_000_000n,
      subticks: BTC_PRICE_SUBTICKS - 500_000n,
    });
    off();
    expect(calls.map((call) => [...new Set(call.map((m) => m.channel))])).toEqual([
      ["v4_orderbook"],
      ["v4_subaccounts", "v4_parent_subaccounts"],
    ]);
  });

  it("gives a listener that wants some ids the very messages of those ids, and no account, book or trade message of others", () => {
    const { wants, received: got } = picky as NonNullable<typeof picky>;
    const filtered = new Set(["v4_subaccounts", "v4_parent_subaccounts", "v4_orderbook", "v4_trades"]);
    const wanted = received.filter((m) => wants(m.channel, m.id));
    expect(wanted.length).toBeGreaterThan(5);
    expect(got.filter((m) => wants(m.channel, m.id))).toEqual(wanted);
    const unwanted = (m: ChannelMessage) => filtered.has(m.channel) && !wants(m.channel, m.id);
    expect(got.filter(unwanted)).toEqual([]);
    expect(new Set(received.filter(unwanted).map((m) => m.channel))).toEqual(filtered);
  });

  it("refuses ids that name nothing", () => {
    expect(indexer.snapshot("v4_orderbook", "NOPE-USD")).toEqual({ kind: "invalid-id" });
    expect(indexer.snapshot("v4_candles", "BTC-USD/2MINS")).toEqual({ kind: "invalid-id" });
    expect(indexer.snapshot("v4_trades", "NOPE")).toEqual({ kind: "invalid-id" });
  });
});
