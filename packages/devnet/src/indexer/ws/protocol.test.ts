/**
 * The indexer WebSocket protocol over a real socket with a feed the test drives: every message
 * type, every error text of spec 3.7, and the message_id rules of 3.4.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bookUpdate, FakeFeed, RecordingClient } from "../../../test/support/indexer-ws.js";
import { type IndexerWsServer, startIndexerWsServer } from "./server.js";

const ADDRESS = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const feed = new FakeFeed()
  .set("v4_markets", "v4_markets", {
    kind: "snapshot",
    contents: { markets: { "BTC-USD": { ticker: "BTC-USD" } } },
  })
  .set("v4_block_height", "v4_block_height", {
    kind: "snapshot",
    contents: { height: "7", time: "2026-01-01T00:00:00.000Z" },
  })
  .set("v4_orderbook", "BTC-USD", {
    kind: "snapshot",
    contents: { bids: [{ price: "100", size: "1" }], asks: [] },
  })
  .set("v4_orderbook", "ETH-USD", { kind: "snapshot", contents: { bids: [], asks: [] } })
  .set("v4_trades", "BTC-USD", { kind: "snapshot", contents: { trades: [] } })
  .set("v4_candles", "BTC-USD/1MIN", { kind: "snapshot", contents: { candles: [] } })
  .set("v4_subaccounts", `${ADDRESS}/0`, { kind: "snapshot", contents: {} })
  .set("v4_subaccounts", `${ADDRESS}/1`, { kind: "refused", message: "compliance blocked sentence" })
  .set("v4_subaccounts", `${ADDRESS}/2`, () => {
    throw new Error("models broke");
  })
  .set("v4_parent_subaccounts", `${ADDRESS}/0`, {
    kind: "snapshot",
    contents: { subaccount: {}, orders: [], blockHeight: "7" },
  });

let server: IndexerWsServer;
const clients: RecordingClient[] = [];
const connect = async () => {
  const client = await RecordingClient.connect(server.url);
  clients.push(client);
  return client;
};

beforeAll(async () => {
  server = await startIndexerWsServer({ feed, port: 0, batchIntervalMs: 20 });
});
afterEach(() => {
  feed.hold = false;
  feed.release();
  for (const client of clients.splice(0)) client.close();
});
afterAll(async () => {
  await server.close();
});

describe("connected", () => {
  it("is the first frame: a v4 uuid connection_id and message_id 0, nothing else", async () => {
    const client = await connect();
    const [connected] = client.frames;
    expect(Object.keys(connected ?? {})).toEqual(["type", "connection_id", "message_id"]);
    expect(connected).toMatchObject({ type: "connected", message_id: 0 });
    expect(connected?.connection_id).toMatch(UUID);
    const other = await connect();
    expect(other.frames[0]?.connection_id).not.toBe(connected?.connection_id);
  });

  it("serves only /v4/ws", async () => {
    const url = server.url.replace("/v4/ws", "/ws");
    await expect(RecordingClient.connect(url)).rejects.toThrow();
    const http = await fetch(server.url.replace("ws:", "http:"));
    expect(http.status).toBe(426);
  });
});

describe("subscribe", () => {
  it("answers subscribed with the snapshot on every channel, message_id counting up from 1", async () => {
    const client = await connect();
    const cid = client.frames[0]?.connection_id;
    client.send({ type: "subscribe", channel: "v4_markets" });
    client.send({ type: "subscribe", channel: "v4_block_height" });
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "BTC-USD", batched: true });
    client.send({ type: "subscribe", channel: "v4_trades", id: "BTC-USD" });
    client.send({ type: "subscribe", channel: "v4_candles", id: "BTC-USD/1MIN" });
    client.send({ type: "subscribe", channel: "v4_subaccounts", id: `${ADDRESS}/0` });
    client.send({ type: "subscribe", channel: "v4_parent_subaccounts", id: `${ADDRESS}/0` });
    const frames = await client.waitFrames(7);
    expect(frames).toEqual([
      {
        type: "subscribed",
        connection_id: cid,
        message_id: 1,
        channel: "v4_markets",
        contents: { markets: { "BTC-USD": { ticker: "BTC-USD" } } },
      },
      {
        type: "subscribed",
        connection_id: cid,
        message_id: 2,
        channel: "v4_block_height",
        id: "v4_block_height",
        contents: { height: "7", time: "2026-01-01T00:00:00.000Z" },
      },
      {
        type: "subscribed",
        connection_id: cid,
        message_id: 3,
        channel: "v4_orderbook",
        id: "BTC-USD",
        contents: { bids: [{ price: "100", size: "1" }], asks: [] },
      },
      {
        type: "subscribed",
        connection_id: cid,
        message_id: 4,
        channel: "v4_trades",
        id: "BTC-USD",
        contents: { trades: [] },
      },
      {
        type: "subscribed",
        connection_id: cid,
        message_id: 5,
        channel: "v4_candles",
        id: "BTC-USD/1MIN",
        contents: { candles: [] },
      },
      {
        type: "subscribed",
        connection_id: cid,
        message_id: 6,
        channel: "v4_subaccounts",
        id: `${ADDRESS}/0`,
        contents: {},
      },
      {
        type: "subscribed",
        connection_id: cid,
        message_id: 7,
        channel: "v4_parent_subaccounts",
        id: `${ADDRESS}/0`,
        contents: { subaccount: {}, orders: [], blockHeight: "7" },
      },
    ]);
    expect(feed.calls).toContain("v4_markets v4_markets");
  });

  it("normalizes the id of v4_markets and v4_block_height to the channel name, whatever was sent", async () => {
    const client = await connect();
    client.send({ type: "subscribe", channel: "v4_markets", id: "anything" });
    const [subscribed] = await client.waitFrames(1);
    expect(subscribed).toMatchObject({ type: "subscribed", channel: "v4_markets" });
    expect(subscribed).not.toHaveProperty("id");
    feed.push({ channel: "v4_markets", id: "v4_markets", version: "1.0.0", contents: { trading: {} } });
    const [, data] = await client.waitFrames(2);
    expect(data).toMatchObject({
      type: "channel_data",
      channel: "v4_markets",
      version: "1.0.0",
      message_id: 2,
    });
    expect(data).not.toHaveProperty("id");
  });
});

describe("errors", () => {
  it("message validation errors reuse the current message_id and carry no channel or id", async () => {
    const client = await connect();
    const cid = client.frames[0]?.connection_id;
    client.send({ type: "subscribe", channel: "v4_trades", id: "BTC-USD" }); // message_id 1
    await client.waitFrames(1);
    client.send("not json");
    client.send({ channel: "v4_trades" });
    await client.waitFrames(3);
    client.send({ type: "subscribe" });
    client.send({ type: "unsubscribe", channel: "v4_nope", id: "x" });
    client.send({ type: "subscribe", channel: "v4_trades" });
    client.send({ type: "subscribe", channel: "v4_orderbook", id: 5 });
    const frames = await client.waitFrames(7);
    expect(frames.slice(1)).toEqual(
      [
        "Invalid message: could not parse",
        "Invalid message: type is required",
        "Invalid subscribe message: channel is required",
        "Invalid channel: v4_nope",
        "Invalid id: undefined",
        "Invalid id: 5",
      ].map((message) => ({ type: "error", message, connection_id: cid, message_id: 1 })),
    );
  });

  it("an unknown type is an error; a JSON ping gets no answer; null is an internal error", async () => {
    const client = await connect();
    client.send({ type: "pong" });
    client.send({ type: "ping" });
    client.send("null");
    client.send({ type: "subscribe", channel: "v4_trades", id: "BTC-USD" });
    const frames = await client.waitFrames(3);
    expect(frames.map((f) => [f.type, f.message ?? f.channel, f.message_id])).toEqual([
      ["error", "Invalid message type: pong", 0],
      ["error", "Internal error", 0],
      ["subscribed", "v4_trades", 1],
    ]);
  });

  it("answers protocol pings with pongs; a text PONG (the incumbent's reply to a text PING) is unparseable", async () => {
    const client = await connect();
    let pongs = 0;
    client.socket.on("pong", () => pongs++);
    client.socket.ping();
    await expect.poll(() => pongs).toBe(1);
    client.send("PONG");
    const [error] = await client.waitFrames(1);
    expect(error).toMatchObject({
      type: "error",
      message: "Invalid message: could not parse",
      message_id: 0,
    });
  });

  it("bad subscription ids take the next message_id: format, range, unknown ticker, bad resolution", async () => {
    const client = await connect();
    const ids: Array<[string, string]> = [
      ["v4_orderbook", "DOGE-USD"],
      ["v4_trades", ""],
      ["v4_candles", "BTC-USD/2MINS"],
      ["v4_candles", "DOGE-USD/1MIN"],
      ["v4_subaccounts", `${ADDRESS}/128000`],
      ["v4_subaccounts", `${ADDRESS}/-1`],
      ["v4_subaccounts", ADDRESS],
      ["v4_parent_subaccounts", `${ADDRESS}/128`],
    ];
    for (const [channel, id] of ids) client.send({ type: "subscribe", channel, id });
    const frames = await client.waitFrames(ids.length);
    expect(frames).toEqual(
      ids.map(([channel, id], i) => ({
        type: "error",
        message: `Invalid subscription id for channel: (${channel}-${id})`,
        connection_id: client.frames[0]?.connection_id,
        message_id: i + 1,
      })),
    );
  });

  it("already subscribed, refused and failed fetches name the channel and id", async () => {
    const client = await connect();
    const cid = client.frames[0]?.connection_id;
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "BTC-USD" });
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "BTC-USD" });
    client.send({ type: "subscribe", channel: "v4_subaccounts", id: `${ADDRESS}/1` });
    client.send({ type: "subscribe", channel: "v4_subaccounts", id: `${ADDRESS}/2` });
    const frames = await client.waitFrames(4);
    expect(frames.slice(1)).toEqual([
      {
        type: "error",
        message: "Invalid subscribe message: already subscribed (v4_orderbook-BTC-USD)",
        connection_id: cid,
        message_id: 2,
        channel: "v4_orderbook",
        id: "BTC-USD",
      },
      {
        type: "error",
        message: "compliance blocked sentence",
        connection_id: cid,
        message_id: 3,
        channel: "v4_subaccounts",
        id: `${ADDRESS}/1`,
      },
      {
        type: "error",
        message: "Internal error, could not fetch data for subscription: v4_subaccounts.",
        connection_id: cid,
        message_id: 4,
        channel: "v4_subaccounts",
        id: `${ADDRESS}/2`,
      },
    ]);
  });
});

describe("the id in answers is the client's", () => {
  it("already subscribed to v4_markets or v4_block_height without an id: the error has no id", async () => {
    const client = await connect();
    const cid = client.frames[0]?.connection_id;
    client.send({ type: "subscribe", channel: "v4_markets" });
    client.send({ type: "subscribe", channel: "v4_markets" });
    client.send({ type: "subscribe", channel: "v4_block_height" });
    client.send({ type: "subscribe", channel: "v4_block_height" });
    const frames = await client.waitFrames(4);
    expect([frames[1], frames[3]]).toEqual([
      {
        type: "error",
        message: "Invalid subscribe message: already subscribed (v4_markets-v4_markets)",
        connection_id: cid,
        message_id: 2,
        channel: "v4_markets",
      },
      {
        type: "error",
        message: "Invalid subscribe message: already subscribed (v4_block_height-v4_block_height)",
        connection_id: cid,
        message_id: 4,
        channel: "v4_block_height",
      },
    ]);
  });

  it("unsubscribed echoes an id the client sent on v4_block_height, never one on v4_markets", async () => {
    const client = await connect();
    const cid = client.frames[0]?.connection_id;
    client.send({ type: "unsubscribe", channel: "v4_block_height", id: "v4_block_height" });
    client.send({ type: "unsubscribe", channel: "v4_markets", id: "v4_markets" });
    const frames = await client.waitFrames(2);
    expect(frames).toEqual([
      {
        type: "unsubscribed",
        connection_id: cid,
        message_id: 1,
        channel: "v4_block_height",
        id: "v4_block_height",
      },
      { type: "unsubscribed", connection_id: cid, message_id: 2, channel: "v4_markets" },
    ]);
  });
});

describe("unsubscribe", () => {
  it("answers unsubscribed with the next message_id, subscribed or not, and stops the updates", async () => {
    const client = await connect();
    const cid = client.frames[0]?.connection_id;
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "BTC-USD" });
    client.send({ type: "subscribe", channel: "v4_markets" });
    await client.waitFrames(2);
    client.send({ type: "unsubscribe", channel: "v4_orderbook", id: "BTC-USD" });
    client.send({ type: "unsubscribe", channel: "v4_markets" });
    client.send({ type: "unsubscribe", channel: "v4_trades", id: "ETH-USD" });
    client.send({ type: "unsubscribe", channel: "v4_block_height" });
    const frames = await client.waitFrames(6);
    expect(frames.slice(2)).toEqual([
      { type: "unsubscribed", connection_id: cid, message_id: 3, channel: "v4_orderbook", id: "BTC-USD" },
      { type: "unsubscribed", connection_id: cid, message_id: 4, channel: "v4_markets" },
      { type: "unsubscribed", connection_id: cid, message_id: 5, channel: "v4_trades", id: "ETH-USD" },
      // socks echoes the id the client sent: none here, so none in the answer.
      { type: "unsubscribed", connection_id: cid, message_id: 6, channel: "v4_block_height" },
    ]);
    feed.push(bookUpdate("BTC-USD", "100", "2"));
    client.send({ type: "subscribe", channel: "v4_trades", id: "BTC-USD" });
    const after = await client.waitFrames(7);
    expect(after[6]).toMatchObject({ type: "subscribed", message_id: 7 });
    expect(client.ofType("channel_data")).toEqual([]);
  });
});

describe("channel_data", () => {
  it("carries id, channel, version and contents; parent subaccount messages add the child's number", async () => {
    const client = await connect();
    const cid = client.frames[0]?.connection_id;
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "BTC-USD" });
    client.send({ type: "subscribe", channel: "v4_parent_subaccounts", id: `${ADDRESS}/0` });
    await client.waitFrames(2);
    feed.push(bookUpdate("BTC-USD", "100", "0"), bookUpdate("ETH-USD", "5", "1"), {
      channel: "v4_parent_subaccounts",
      id: `${ADDRESS}/0`,
      version: "3.0.0",
      contents: { blockHeight: "8" },
      subaccountNumber: 128,
    });
    const frames = await client.waitFrames(4);
    expect(frames.slice(2)).toEqual([
      {
        type: "channel_data",
        connection_id: cid,
        message_id: 3,
        id: "BTC-USD",
        channel: "v4_orderbook",
        version: "1.0.0",
        contents: { bids: [["100", "0"]] },
      },
      {
        type: "channel_data",
        connection_id: cid,
        message_id: 4,
        id: `${ADDRESS}/0`,
        channel: "v4_parent_subaccounts",
        version: "3.0.0",
        contents: { blockHeight: "8" },
        subaccountNumber: 128,
      },
    ]);
  });

  it("each connection numbers its own frames from the same shared message", async () => {
    const a = await connect();
    const b = await connect();
    b.send({ type: "subscribe", channel: "v4_markets" });
    await b.waitFrames(1);
    for (const client of [a, b]) client.send({ type: "subscribe", channel: "v4_orderbook", id: "BTC-USD" });
    await a.waitFrames(1);
    await b.waitFrames(2);
    feed.push(bookUpdate("BTC-USD", "101", "3"));
    const [, dataA] = await a.waitFrames(2);
    const [, , dataB] = await b.waitFrames(3);
    expect(dataA).toMatchObject({ message_id: 2, connection_id: a.frames[0]?.connection_id });
    expect(dataB).toMatchObject({ message_id: 3, connection_id: b.frames[0]?.connection_id });
    expect(dataA?.contents).toEqual(dataB?.contents);
  });
});

describe("snapshots read asynchronously", () => {
  it("queues updates until subscribed, then sends them as channel_data even when batched; ids are not monotonic", async () => {
    const client = await connect();
    client.send({ type: "subscribe", channel: "v4_trades", id: "BTC-USD" });
    await client.waitFrames(1); // message_id 1
    feed.hold = true;
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "BTC-USD", batched: true }); // message_id 2
    await expect.poll(() => feed.heldCount).toBe(1);
    feed.push(bookUpdate("BTC-USD", "100", "4"), {
      channel: "v4_trades",
      id: "BTC-USD",
      version: "2.1.0",
      contents: { trades: [{ id: "01" }] },
    });
    feed.push(bookUpdate("BTC-USD", "100", "5"));
    const [, trade] = await client.waitFrames(2);
    expect(trade).toMatchObject({ type: "channel_data", channel: "v4_trades", message_id: 3 });
    feed.release();
    const frames = await client.waitFrames(5);
    expect(frames.slice(2).map((f) => [f.type, f.message_id, f.contents])).toEqual([
      ["subscribed", 2, { bids: [{ price: "100", size: "1" }], asks: [] }],
      ["channel_data", 4, { bids: [["100", "4"]] }],
      ["channel_data", 5, { bids: [["100", "5"]] }],
    ]);
    // Later updates of the batched subscription come in batches.
    feed.push(bookUpdate("BTC-USD", "100", "6"));
    const [last] = (await client.waitFrames(6)).slice(5);
    expect(last).toMatchObject({
      type: "channel_batch_data",
      message_id: 6,
      contents: [{ bids: [["100", "6"]] }],
    });
  });
});
