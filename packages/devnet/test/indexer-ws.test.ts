/**
 * The devnet's indexer WebSocket end to end: orders signed with cosmjs and broadcast over RPC, the
 * indexer fed by the chain's streams, and a client on `endpoints.indexerWs` that sees the snapshot
 * and every update. A client that applies every `v4_orderbook` update to its snapshot holds the
 * REST order book.
 */
import { create } from "@bufbuild/protobuf";
import { getEndpoint, indexerSocketUrl, resolveNetwork } from "@perpx/core";
import { clob, sending } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sparePortsByName } from "../../../tests/support/spare-ports.js";
import { DEFAULT_PORTS, type Devnet, type DevnetPorts, startDevnet } from "../src/index.js";
import { RecordingClient } from "./support/indexer-ws.js";
import { msg, type TestMsg } from "./support/sign-tx.js";
import { accountOf, broadcastSync, restGet, signWire } from "./support/wire.js";

const USDC = 1_000_000n;
/** BTC-USD: 1 tick = $1 = 100,000 subticks; 1 BTC = 10^10 quantums. */
const SUBTICKS_PER_USD = 100_000n;

let devnet: Devnet;
let clientId = 1;
const clients: RecordingClient[] = [];
const who = (i: number) => devnet.accounts[i] as { address: string; mnemonic: string };

async function broadcast(i: number, msgs: TestMsg[], feeUusdc = 0n) {
  const account = await accountOf(devnet.endpoints.nodeRest, who(i).address);
  const tx = await signWire(who(i).mnemonic, msgs, { chainId: devnet.chainId, ...account, feeUusdc });
  const answer = await broadcastSync(devnet.endpoints.nodeRpc, tx);
  expect(answer, answer.log).toMatchObject({ code: 0 });
}

function order(
  i: number,
  side: "buy" | "sell",
  usd: bigint,
  quantums: bigint,
  tif = clob.Order_TimeInForce.UNSPECIFIED,
) {
  return msg(
    clob.MsgPlaceOrderSchema,
    create(clob.MsgPlaceOrderSchema, {
      order: {
        orderId: {
          subaccountId: { owner: who(i).address, number: 0 },
          clientId: clientId++,
          orderFlags: 0,
          clobPairId: 0,
        },
        side: side === "buy" ? clob.Order_Side.BUY : clob.Order_Side.SELL,
        quantums,
        subticks: usd * SUBTICKS_PER_USD,
        goodTilOneof: { case: "goodTilBlock", value: Number(devnet.app.latestBlock().height + 15n) },
        timeInForce: tif,
      },
    }),
  );
}

async function connect(): Promise<RecordingClient> {
  const client = await RecordingClient.connect(devnet.endpoints.indexerWs);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  // Spare ports: the last test connects to the indexer socket's after stop() and must be refused,
  // which a port the kernel picked (listen(0)) could no longer promise by then.
  const ports = await sparePortsByName(Object.keys(DEFAULT_PORTS) as (keyof DevnetPorts)[]);
  devnet = await startDevnet({ ports, blockTimeMs: 3_600_000 });
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  devnet.mine(1);
  for (const i of [0, 1]) {
    const deposit = msg(
      sending.MsgDepositToSubaccountSchema,
      create(sending.MsgDepositToSubaccountSchema, {
        sender: who(i).address,
        recipient: { owner: who(i).address, number: 0 },
        assetId: 0,
        quantums: 10_000n * USDC,
      }),
    );
    await broadcast(i, [deposit], 25_000n);
  }
  devnet.mine(1);
});

afterAll(async () => {
  for (const client of clients) client.socket.terminate();
  await devnet?.stop();
});

type Level = [string, string];
interface Book {
  bids: Map<string, string>;
  asks: Map<string, string>;
}

function applyUpdate(book: Book, contents: { bids?: Level[]; asks?: Level[] }): void {
  for (const side of ["bids", "asks"] as const) {
    for (const [price, size] of contents[side] ?? []) {
      if (Number(size) === 0) book[side].delete(price);
      else book[side].set(price, size);
    }
  }
}

function sorted(book: Book) {
  const levels = (side: Map<string, string>, descending: boolean) =>
    [...side.entries()]
      .map(([price, size]) => ({ price, size }))
      .sort((a, b) => (descending ? Number(b.price) - Number(a.price) : Number(a.price) - Number(b.price)));
  return { bids: levels(book.bids, true), asks: levels(book.asks, false) };
}

describe("endpoints", () => {
  it("endpoints.indexerWs is the full ws://host:port/v4/ws URL, and core's resolver keeps it as it is", () => {
    expect(devnet.endpoints.indexerWs).toBe(`ws://127.0.0.1:${devnet.ports.indexerWs}/v4/ws`);
    const config = resolveNetwork({ network: "local", endpoints: devnet.endpoints });
    expect(getEndpoint(config, "indexerWs")).toBe(devnet.endpoints.indexerWs);
    expect(indexerSocketUrl(config)).toBe(devnet.endpoints.indexerWs);
  });
});

describe("channels fed by the chain", () => {
  it("order book: snapshot plus every update equals the REST book after placements and a partial fill", async () => {
    const direct = await connect();
    const batched = await connect();
    direct.send({ type: "subscribe", channel: "v4_orderbook", id: "BTC-USD" });
    batched.send({ type: "subscribe", channel: "v4_orderbook", id: "BTC-USD", batched: true });
    const [subscribed] = await direct.waitFrames(1);
    await batched.waitFrames(1);
    expect(subscribed).toMatchObject({
      type: "subscribed",
      channel: "v4_orderbook",
      id: "BTC-USD",
      message_id: 1,
    });

    await broadcast(0, [order(0, "buy", 64_990n, 20_000_000n)]);
    await broadcast(0, [order(0, "buy", 64_980n, 10_000_000n)]);
    await broadcast(0, [order(0, "sell", 65_020n, 30_000_000n)]);
    await broadcast(1, [order(1, "sell", 64_990n, 5_000_000n, clob.Order_TimeInForce.IOC)]);
    devnet.mine(1);

    const rest = async () =>
      (await restGet(devnet.endpoints.indexer, "/v4/orderbooks/perpetualMarket/BTC-USD")).body;
    const held = (client: RecordingClient) => {
      const first = client.frames[1] as unknown as {
        contents: {
          bids: Array<{ price: string; size: string }>;
          asks: Array<{ price: string; size: string }>;
        };
      };
      const book: Book = {
        bids: new Map(first.contents.bids.map((l) => [l.price, l.size])),
        asks: new Map(first.contents.asks.map((l) => [l.price, l.size])),
      };
      for (const frame of client.frames.slice(2)) {
        if (frame.type === "channel_data") applyUpdate(book, frame.contents as object);
        if (frame.type === "channel_batch_data")
          for (const c of frame.contents as object[]) applyUpdate(book, c);
      }
      return sorted(book);
    };
    await expect.poll(async () => held(direct), { timeout: 10_000 }).toEqual(await rest());
    await expect.poll(async () => held(batched), { timeout: 10_000 }).toEqual(await rest());
    expect((await rest()).bids).toContainEqual({ price: "64990", size: "0.0015" });
    expect(direct.ofType("channel_data").every((f) => f.version === "1.0.0" && f.id === "BTC-USD")).toBe(
      true,
    );
    expect(batched.ofType("channel_batch_data").length).toBeGreaterThan(0);
    // message_id: 1 for subscribed, then one per data frame.
    expect(direct.frames.slice(1).map((f) => f.message_id)).toEqual(
      direct.frames.slice(1).map((_, i) => i + 1),
    );
  });

  it("trades: one channel_data per taker fill with the REST trade's id, side and price", async () => {
    const client = await connect();
    client.send({ type: "subscribe", channel: "v4_trades", id: "BTC-USD" });
    const [subscribed] = await client.waitFrames(1);
    const before = (subscribed as unknown as { contents: { trades: unknown[] } }).contents.trades.length;
    await broadcast(1, [order(1, "sell", 64_980n, 10_000_000n, clob.Order_TimeInForce.IOC)]);
    devnet.mine(1);
    const [, data] = await client.waitFrames(2);
    const { body } = await restGet(devnet.endpoints.indexer, "/v4/trades/perpetualMarket/BTC-USD");
    expect(body.trades).toHaveLength(before + 1);
    const { createdAtHeight: _height, ...latest } = body.trades[0];
    expect(data).toMatchObject({
      type: "channel_data",
      channel: "v4_trades",
      id: "BTC-USD",
      version: "2.1.0",
      message_id: 2,
    });
    expect(data?.contents).toEqual({ trades: [latest] });
    // The IOC sell at 64980 fills against the best bid, 64990 (maker price).
    expect(latest).toMatchObject({ side: "SELL", price: "64990", size: "0.001" });
  });

  it("candles: a trade updates the current 1MIN candle, with every candle field but id", async () => {
    const client = await connect();
    client.send({ type: "subscribe", channel: "v4_candles", id: "BTC-USD/1MIN", batched: true });
    await client.waitFrames(1);
    // Bob's IOC sell takes the best bids (some rest from earlier tests): the candle closes at the
    // last trade's price.
    await broadcast(1, [order(1, "sell", 60_000n, 10_000_000n, clob.Order_TimeInForce.IOC)]);
    devnet.mine(1);
    const { body } = await restGet(devnet.endpoints.indexer, "/v4/trades/perpetualMarket/BTC-USD");
    const last = body.trades[0] as { price: string };
    const candle = () =>
      client
        .ofType("channel_batch_data")
        .flatMap((f) => f.contents as Array<{ close?: string; trades?: number }>)
        .find((c) => c.close === last.price && (c.trades ?? 0) > 0);
    await expect.poll(candle, { timeout: 10_000 }).toBeDefined();
    expect(client.ofType("channel_batch_data")[0]).toMatchObject({ id: "BTC-USD/1MIN", version: "1.0.0" });
    expect(Object.keys(candle() as object).sort()).toEqual(
      [
        "startedAt",
        "ticker",
        "resolution",
        "low",
        "high",
        "open",
        "close",
        "baseTokenVolume",
        "usdVolume",
        "trades",
        "startingOpenInterest",
        "orderbookMidPriceOpen",
        "orderbookMidPriceClose",
      ].sort(),
    );
    expect(candle()).toMatchObject({ ticker: "BTC-USD", resolution: "1MIN" });
  });

  it("block height: the snapshot says height, each block's update says blockHeight", async () => {
    const client = await connect();
    client.send({ type: "subscribe", channel: "v4_block_height" });
    const [subscribed] = await client.waitFrames(1);
    const height = devnet.app.latestBlock().height;
    expect(subscribed).toMatchObject({ id: "v4_block_height", contents: { height: String(height) } });
    const [block] = devnet.mine(1);
    const [, data] = await client.waitFrames(2);
    expect(data).toMatchObject({
      type: "channel_data",
      id: "v4_block_height",
      channel: "v4_block_height",
      version: "1.0.0",
      contents: { blockHeight: String(height + 1n), time: block?.time.toISOString() },
    });
  });

  it("markets: batched oracle price updates; an unknown ticker is refused", async () => {
    const client = await connect();
    client.send({ type: "subscribe", channel: "v4_markets", batched: true });
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "NOPE-USD" });
    const [subscribed, refused] = await client.waitFrames(2);
    expect(subscribed).toMatchObject({ type: "subscribed", channel: "v4_markets" });
    expect((subscribed as unknown as { contents: { markets: object } }).contents.markets).toHaveProperty(
      "BTC-USD",
    );
    expect(refused).toMatchObject({
      type: "error",
      message: "Invalid subscription id for channel: (v4_orderbook-NOPE-USD)",
    });
    devnet.app.control.setOraclePrice("BTC-USD", "66000");
    devnet.mine(1);
    type Prices = { oraclePrices?: Record<string, { oraclePrice: string }> };
    const withPrices = () =>
      client
        .ofType("channel_batch_data")
        .find((f) => (f.contents as Prices[]).some((c) => c.oraclePrices?.["BTC-USD"] !== undefined));
    await expect.poll(withPrices, { timeout: 10_000 }).toBeDefined();
    const frame = withPrices() as Record<string, unknown>;
    expect(frame).not.toHaveProperty("id");
    expect(frame).toMatchObject({ channel: "v4_markets", version: "1.0.0" });
    const prices = (frame.contents as Prices[]).find((c) => c.oraclePrices !== undefined);
    expect(prices?.oraclePrices?.["BTC-USD"]?.oraclePrice).toMatch(/^66000/);
  });
});

describe("subaccount channels fed by the chain", () => {
  it("v4_subaccounts and v4_parent_subaccounts: a transfer between siblings and a resting order", async () => {
    const alice = who(0).address;
    const client = await connect();
    client.send({ type: "subscribe", channel: "v4_subaccounts", id: `${alice}/0` });
    client.send({ type: "subscribe", channel: "v4_parent_subaccounts", id: `${alice}/0` });
    const [own, parent] = await client.waitFrames(2);
    expect(own).toMatchObject({ type: "subscribed", channel: "v4_subaccounts", id: `${alice}/0` });
    expect(own?.contents).toMatchObject({ subaccount: { address: alice, subaccountNumber: 0 } });
    expect(parent).toMatchObject({ type: "subscribed", channel: "v4_parent_subaccounts", id: `${alice}/0` });
    expect(parent?.contents).toMatchObject({ subaccount: { address: alice, parentSubaccountNumber: 0 } });

    const transfer = msg(
      sending.MsgCreateTransferSchema,
      create(sending.MsgCreateTransferSchema, {
        transfer: {
          sender: { owner: alice, number: 0 },
          recipient: { owner: alice, number: 128 },
          assetId: 0,
          amount: 100n * USDC,
        },
      }),
    );
    await broadcast(0, [transfer], 25_000n);
    devnet.mine(1);
    await expect
      .poll(() => client.ofType("channel_data").some((f) => f.channel === "v4_subaccounts"), {
        timeout: 10_000,
      })
      .toBe(true);
    const ownData = client.ofType("channel_data").filter((f) => f.channel === "v4_subaccounts");
    const withTransfer = ownData.find((f) => (f.contents as { transfers?: object }).transfers !== undefined);
    expect(withTransfer).toMatchObject({
      id: `${alice}/0`,
      version: "3.0.0",
      contents: {
        transfers: {
          sender: { address: alice, subaccountNumber: 0 },
          recipient: { address: alice, subaccountNumber: 128 },
          symbol: "USDC",
          size: "100",
        },
      },
    });
    expect(withTransfer).not.toHaveProperty("subaccountNumber");
    // The parent stream carries both children's changes, each with its child number, and no
    // transfer between them.
    await expect
      .poll(
        () =>
          new Set(
            client
              .ofType("channel_data")
              .filter((f) => f.channel === "v4_parent_subaccounts")
              .map((f) => f.subaccountNumber),
          ),
        { timeout: 10_000 },
      )
      .toEqual(new Set([0, 128]));
    const parentData = client.ofType("channel_data").filter((f) => f.channel === "v4_parent_subaccounts");
    expect(parentData.every((f) => f.version === "3.0.0" && f.id === `${alice}/0`)).toBe(true);
    expect(parentData.some((f) => "transfers" in (f.contents as object))).toBe(false);

    // A resting short-term order shows on the subaccount as BEST_EFFORT_OPENED at CheckTx.
    const seen = client.frames.length;
    await broadcast(0, [order(0, "buy", 60_000n, 1_000_000n)]);
    await expect
      .poll(
        () =>
          client.frames
            .slice(seen)
            .find((f) => f.channel === "v4_subaccounts" && "orders" in (f.contents as object)),
        { timeout: 10_000 },
      )
      .toBeDefined();
    const orderFrame = client.frames
      .slice(seen)
      .find((f) => f.channel === "v4_subaccounts" && "orders" in (f.contents as object));
    expect((orderFrame?.contents as { orders: object[] } | undefined)?.orders[0]).toMatchObject({
      status: "BEST_EFFORT_OPENED",
      side: "BUY",
      price: "60000",
      size: "0.0001",
    });
    // message_id: 1 and 2 for the subscribes, then one per data frame in arrival order.
    expect(client.frames.slice(1).map((f) => f.message_id)).toEqual(
      client.frames.slice(1).map((_, i) => i + 1),
    );
  });
});

describe("stop", () => {
  it("devnet.stop() closes every indexer socket with 1012 Service restarting", async () => {
    const client = await connect();
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "BTC-USD", batched: true });
    await client.waitFrames(1);
    await devnet.stop();
    expect(await client.waitClosed()).toEqual({ code: 1012, reason: '{"message":"Service restarting"}' });
    await expect(RecordingClient.connect(devnet.endpoints.indexerWs)).rejects.toThrow();
  });
});
