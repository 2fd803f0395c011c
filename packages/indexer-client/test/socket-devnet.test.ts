/**
 * The WebSocket client against the devnet's indexer WebSocket (`startDevnet({ ports: "free" })`,
 * `endpoints.indexerWs`): every channel gives its snapshot and then updates caused by real orders
 * (signed with cosmjs by the devnet's test support and broadcast over RPC), and a kept order book
 * equals the REST order book after random order flows against the devnet's market maker.
 */
import { type Devnet, startDevnet } from "@perpx/devnet";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type OrderSpec, placeMsg } from "../../devnet/test/support/clob-tx.js";
import { accountOf, broadcastSync, signWire } from "../../devnet/test/support/wire.js";
import {
  connectIndexerSocket,
  createIndexerClient,
  type IndexerClient,
  type IndexerSocket,
  watchOrderBook,
} from "../src/index.js";

const USDC = 1_000_000n;
/** BTC-USD: $1 = 100,000 subticks; 0.0001 BTC = 1,000,000 quantums (the step). */
const SUBTICKS_PER_USD = 100_000n;
const STEP = 1_000_000n;
/** `clob.Order_TimeInForce.IOC` (this package does not depend on `@perpx/proto`). */
const IOC = 1 as NonNullable<OrderSpec["timeInForce"]>;

let devnet: Devnet;
let rest: IndexerClient;
let clientId = 1;
const sockets: IndexerSocket[] = [];
const who = (i: number) => devnet.accounts[i] as { address: string; mnemonic: string };

/** Signs a short-term order of account `i` and broadcasts it (CheckTx matches it at once). */
async function place(i: number, spec: Omit<OrderSpec, "owner" | "clientId" | "goodTilBlock">): Promise<void> {
  const account = await accountOf(devnet.endpoints.nodeRest, who(i).address);
  const message = placeMsg({
    ...spec,
    owner: who(i).address,
    clientId: clientId++,
    goodTilBlock: Number(devnet.app.latestBlock().height + 15n),
  });
  const tx = await signWire(who(i).mnemonic, [message], { chainId: devnet.chainId, ...account });
  const answer = await broadcastSync(devnet.endpoints.nodeRpc, tx);
  expect(answer, answer.log).toMatchObject({ code: 0 });
}

async function connect(): Promise<IndexerSocket> {
  const socket = await connectIndexerSocket({ url: devnet.endpoints.indexerWs });
  sockets.push(socket);
  return socket;
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0, liquidity: true });
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  for (const i of [0, 1]) devnet.app.control.fundSubaccount(who(i).address, 0, 20_000n * USDC);
  devnet.mine(2);
  rest = createIndexerClient({ baseUrl: devnet.endpoints.indexer, timeoutMs: 15_000 });
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) await socket.close();
  await devnet?.stop();
});

describe("every channel against the devnet", () => {
  it("gives each channel's snapshot, then updates from a real fill, a block and an oracle move", async () => {
    const socket = await connect();
    const alice = who(0).address;
    const markets = socket.subscribe("v4_markets");
    const height = socket.subscribe("v4_block_height");
    const trades = socket.subscribe("v4_trades", "BTC-USD");
    const candles = socket.subscribe("v4_candles", "BTC-USD/1MIN", { batched: true });
    const account = socket.subscribe("v4_subaccounts", `${alice}/0`);
    const parent = socket.subscribe("v4_parent_subaccounts", `${alice}/0`);
    const live = watchOrderBook(socket, { market: "BTC-USD" });

    expect("BTC-USD" in (await markets.ready()).markets).toBe(true);
    expect((await height.ready()).height).toBe(String(devnet.app.latestBlock().height));
    expect(Array.isArray((await trades.ready()).trades)).toBe(true);
    expect(Array.isArray((await candles.ready()).candles)).toBe(true);
    expect((await account.ready()).subaccount.address).toBe(alice);
    expect((await parent.ready()).subaccount.address).toBe(alice);
    const book = await live.ready();
    const ask = book.bestAsk();
    expect(ask).toBeDefined();

    const seen = {
      markets: 0,
      height: [] as string[],
      trades: 0,
      candles: 0,
      account: 0,
      parent: 0,
      book: 0,
    };
    markets.on("update", () => seen.markets++);
    height.on("update", ({ contents }) => seen.height.push(contents.blockHeight));
    trades.on("update", ({ contents }) => (seen.trades += contents.trades.length));
    candles.on("update", () => seen.candles++);
    account.on("update", () => seen.account++);
    parent.on("update", ({ subaccountNumber }) => subaccountNumber === 0 && seen.parent++);
    live.on("change", ({ cause }) => cause === "update" && seen.book++);

    // A taker buy at the best ask: a fill, a trade, a candle, the account's order, fill and position.
    const subticks = BigInt(Number(ask?.price)) * SUBTICKS_PER_USD;
    await place(0, { side: "buy", quantums: 2n * STEP, subticks, timeInForce: IOC });
    devnet.app.control.setOraclePrice("BTC-USD", "65010");
    devnet.mine(1);
    const latest = String(devnet.app.latestBlock().height);
    await vi.waitFor(
      () => {
        expect(seen.trades).toBeGreaterThan(0);
        expect(seen.candles).toBeGreaterThan(0);
        expect(seen.account).toBeGreaterThan(0);
        expect(seen.parent).toBeGreaterThan(0);
        expect(seen.book).toBeGreaterThan(0);
        expect(seen.markets).toBeGreaterThan(0);
        expect(seen.height).toContain(latest);
      },
      { timeout: 15_000 },
    );
    const { trades: restTrades } = await rest.getTrades({ ticker: "BTC-USD", limit: 1 });
    expect(restTrades[0]?.side).toBe("BUY");
    expect(socket.connectionId).toBeDefined();
  });
});

describe("order book against the REST book", () => {
  it("equals the REST order book after random order flows (direct and batched)", async () => {
    const socket = await connect();
    const direct = watchOrderBook(socket, { market: "BTC-USD" });
    const batched = watchOrderBook(await connect(), { market: "BTC-USD", batched: true });
    await Promise.all([direct.ready(), batched.ready()]);
    const tradesBefore = (await rest.getTrades({ ticker: "BTC-USD" })).trades.length;
    let state = 20_261_126;
    const random = (n: number) => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((state / 2_147_483_648) * n);
    };
    const levels = (side: readonly { price: string; size: string }[]) =>
      side.map(({ price, size }) => ({ price, size }));
    for (let round = 0; round < 4; round++) {
      for (let k = 0; k < 6; k++) {
        const side = random(2) === 0 ? "buy" : "sell";
        // Around the oracle: some rest inside the maker's spread, some cross one another or the maker.
        const usd = 65_010n + BigInt(random(161) - 80);
        await place(random(2), {
          side,
          quantums: BigInt(1 + random(20)) * STEP,
          subticks: usd * SUBTICKS_PER_USD,
        });
      }
      devnet.mine(1);
      await vi.waitFor(
        async () => {
          const expected = await rest.getOrderbook({ ticker: "BTC-USD" });
          const want = { bids: levels(expected.bids), asks: levels(expected.asks) };
          expect(want.bids.length * want.asks.length).toBeGreaterThan(0);
          for (const live of [direct, batched]) {
            expect(live.synced).toBe(true);
            expect({ bids: levels(live.book.depth("bids")), asks: levels(live.book.depth("asks")) }).toEqual(
              want,
            );
          }
        },
        { timeout: 15_000, interval: 100 },
      );
    }
    expect(direct.book.crossed).toBe(false);
    // The flows traded (some orders crossed the maker's ladder), so the book saw removals too.
    expect((await rest.getTrades({ ticker: "BTC-USD" })).trades.length).toBeGreaterThan(tradesBefore);
  });
});
