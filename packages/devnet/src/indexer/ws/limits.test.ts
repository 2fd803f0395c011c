/**
 * What closes or limits a connection (spec 3.1 and 3.7): per-connection caps, the subscribe and
 * invalid-message rate limits (1008), the heartbeat (1011), a slow consumer (1013, our choice),
 * shutdown (1012), and faults: clients that vanish mid-snapshot or with subscriptions.
 */
import { afterEach, describe, expect, it } from "vitest";
import { bookUpdate, FakeFeed, RecordingClient } from "../../../test/support/indexer-ws.js";
import { type IndexerWsServer, type IndexerWsServerOptions, startIndexerWsServer } from "./server.js";

const servers: IndexerWsServer[] = [];
const clients: RecordingClient[] = [];

async function start(feed: FakeFeed, options: Partial<IndexerWsServerOptions> = {}) {
  const server = await startIndexerWsServer({ feed, port: 0, ...options });
  servers.push(server);
  return server;
}
async function connect(server: IndexerWsServer, options = {}) {
  const client = await RecordingClient.connect(server.url, options);
  clients.push(client);
  return client;
}

afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.terminate();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const TICKERS = Array.from({ length: 33 }, (_, i) => `M${i}-USD`);
function bookFeed(): FakeFeed {
  const feed = new FakeFeed();
  for (const ticker of TICKERS)
    feed.set("v4_orderbook", ticker, { kind: "snapshot", contents: { bids: [], asks: [] } });
  return feed.set("v4_block_height", "v4_block_height", {
    kind: "snapshot",
    contents: { height: "1", time: "t" },
  });
}

describe("per-connection caps", () => {
  it("the 33rd order book subscription is refused and the connection stays open", async () => {
    const server = await start(bookFeed());
    const client = await connect(server);
    for (const ticker of TICKERS) client.send({ type: "subscribe", channel: "v4_orderbook", id: ticker });
    const frames = await client.waitFrames(33);
    expect(frames.slice(0, 32).every((f) => f.type === "subscribed")).toBe(true);
    expect(frames[32]).toEqual({
      type: "error",
      message: "Per-connection subscription limit reached for v4_orderbook (limit=32).",
      connection_id: client.frames[0]?.connection_id,
      message_id: 33,
    });
    // After an unsubscribe the slot is free again; the connection was never closed.
    client.send({ type: "unsubscribe", channel: "v4_orderbook", id: "M0-USD" });
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "M32-USD" });
    const after = await client.waitFrames(35);
    expect(after.slice(33).map((f) => [f.type, f.message_id])).toEqual([
      ["unsubscribed", 34],
      ["subscribed", 35],
    ]);
    expect(client.closed).toBeUndefined();
  });
});

describe("rate limits", () => {
  it("a third subscribe to one channel id within a second errors and closes with 1008", async () => {
    const server = await start(bookFeed());
    const client = await connect(server);
    const sub = { type: "subscribe", channel: "v4_block_height" };
    client.send(sub);
    client.send({ type: "unsubscribe", channel: "v4_block_height" });
    client.send(sub);
    client.send(sub);
    const closed = await client.waitClosed();
    expect(closed).toEqual({ code: 1008, reason: '{"message":"Rate limited"}' });
    expect(client.frames.slice(1).map((f) => [f.type, f.message_id, f.message])).toEqual([
      ["subscribed", 1, undefined],
      ["unsubscribed", 2, undefined],
      ["subscribed", 3, undefined],
      [
        "error",
        4,
        "Too many subscribe attempts for channel v4_block_height-v4_block_height. Please  reconnect and try again.",
      ],
    ]);
    await expect.poll(() => server.connectionCount).toBe(0);
    expect(server.topicCount).toBe(0);
  });

  it("a third invalid message within a second errors and closes with 1008; later frames are ignored", async () => {
    const server = await start(bookFeed());
    const client = await connect(server);
    client.send("{");
    client.send({ type: "nope" });
    client.send({});
    client.send({ type: "subscribe", channel: "v4_block_height" });
    const closed = await client.waitClosed();
    expect(closed.code).toBe(1008);
    expect(closed.reason).toBe('{"message":"Rate limited"}');
    expect(client.frames.slice(1).map((f) => [f.message, f.message_id])).toEqual([
      ["Invalid message: could not parse", 0],
      ["Invalid message type: nope", 0],
      ["Too many invalid messages. Please reconnect and try again.", 0],
    ]);
  });

  it("errors about channels and ids do not count as invalid messages", async () => {
    const server = await start(bookFeed());
    const client = await connect(server);
    for (let i = 0; i < 4; i++) client.send({ type: "subscribe", channel: "v4_x" });
    client.send({ type: "subscribe", channel: "v4_block_height" });
    const frames = await client.waitFrames(5);
    expect(frames[4]).toMatchObject({ type: "subscribed", message_id: 1 });
    expect(client.closed).toBeUndefined();
  });
});

describe("heartbeat", () => {
  it("pings every pingIntervalMs; a client that answers stays connected", async () => {
    // The server pings again only once the last ping's pong came, and the pings outlast the pong
    // timeout twice: a pong not taken, or a deadline left running, would close the socket. The
    // timeout is 1 s, not 40 ms: server and client share this process, and a pause of the process
    // (a GC, a busy machine) longer than the timeout between a ping and its pong closed it (1 run in 20
    // with two busy loops).
    const pongTimeoutMs = 1_000;
    const server = await start(bookFeed(), { pingIntervalMs: 20, pongTimeoutMs });
    const client = await connect(server);
    let pings = 0;
    client.socket.on("ping", () => pings++);
    await expect.poll(() => pings).toBeGreaterThanOrEqual((2 * pongTimeoutMs) / 20);
    expect(client.closed).toBeUndefined();
    expect(server.connectionCount).toBe(1);
  });

  it("closes with 1011 Heartbeat timeout when no pong comes within pongTimeoutMs", async () => {
    const server = await start(bookFeed(), { pingIntervalMs: 20, pongTimeoutMs: 40 });
    const client = await connect(server, { autoPong: false });
    expect(await client.waitClosed()).toEqual({ code: 1011, reason: "Heartbeat timeout" });
    await expect.poll(() => server.connectionCount).toBe(0);
  });

  it("the HTTP request timeouts of the upgrade never cut an established socket", async () => {
    // The upgrade request itself must beat headersMs, counted from the accept: at 50 ms, a pause of
    // this process (server and client both) between the accept and reading the headers answered 408.
    const timeouts = { headersMs: 500, requestMs: 500, keepAliveMs: 50 };
    const server = await start(bookFeed(), { timeouts, pingIntervalMs: 100 });
    const client = await connect(server);
    let pings = 0;
    client.socket.on("ping", () => pings++);
    await expect.poll(() => pings).toBeGreaterThanOrEqual(8); // 800 ms > requestMs
    client.send({ type: "subscribe", channel: "v4_block_height" });
    const [subscribed] = await client.waitFrames(1);
    expect(subscribed).toMatchObject({ type: "subscribed", message_id: 1 });
  });

  it("a frame over maxPayloadBytes closes the connection with 1009", async () => {
    const server = await start(bookFeed(), { maxPayloadBytes: 1024 });
    const client = await connect(server);
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "x".repeat(2048) });
    expect((await client.waitClosed()).code).toBe(1009);
    await expect.poll(() => server.connectionCount).toBe(0);
  });

  it("checks its options", async () => {
    await expect(startIndexerWsServer({ feed: new FakeFeed(), port: 0, pingIntervalMs: 0 })).rejects.toThrow(
      "pingIntervalMs must be a positive number, got 0",
    );
  });
});

describe("slow consumers", () => {
  it("a client that stops reading is closed with 1013 once maxBufferedBytes wait; memory stays bounded", async () => {
    const feed = bookFeed();
    const server = await start(feed, { maxBufferedBytes: 256 * 1024 });
    const slow = await connect(server);
    const fast = await connect(server);
    for (const client of [slow, fast])
      client.send({ type: "subscribe", channel: "v4_orderbook", id: "M0-USD" });
    await slow.waitFrames(1);
    await fast.waitFrames(1);
    slow.socket.pause();
    const big = "9".repeat(16 * 1024);
    let pushed = 0;
    // Push until the server gives up on the paused client (kernel buffers first, then ours).
    await expect
      .poll(
        () => {
          for (let i = 0; i < 20; i++) feed.push(bookUpdate("M0-USD", big, String(pushed++)));
          return server.connectionCount;
        },
        { timeout: 20_000, interval: 5 },
      )
      .toBe(1);
    slow.socket.resume();
    expect(await slow.waitClosed()).toEqual({ code: 1013, reason: '{"message":"Slow consumer"}' });
    // The client that reads got everything, in order.
    await expect.poll(() => fast.ofType("channel_data").length, { timeout: 20_000 }).toBe(pushed);
    const sizes = fast.ofType("channel_data").map((f) => (f.contents as { bids: string[][] }).bids[0]?.[1]);
    expect(sizes).toEqual(Array.from({ length: pushed }, (_, i) => String(i)));
    // The slow one got a prefix of them, then the close: nothing was written after the limit.
    expect(slow.ofType("channel_data").length).toBeLessThan(pushed);
  });
});

describe("shutdown and faults", () => {
  it("close() sends 1012 Service restarting to every client and leaves no listener or subscription", async () => {
    const feed = bookFeed();
    const server = await startIndexerWsServer({ feed, port: 0 });
    const a = await connect(server);
    const b = await connect(server);
    a.send({ type: "subscribe", channel: "v4_orderbook", id: "M1-USD", batched: true });
    await a.waitFrames(1);
    feed.push(bookUpdate("M1-USD", "1", "1")); // a batch is pending when the server stops
    expect(feed.listenerCount).toBe(1);
    await server.close();
    expect(await a.waitClosed()).toEqual({ code: 1012, reason: '{"message":"Service restarting"}' });
    expect(await b.waitClosed()).toEqual({ code: 1012, reason: '{"message":"Service restarting"}' });
    expect(server.connectionCount).toBe(0);
    expect(server.topicCount).toBe(0);
    expect(feed.listenerCount).toBe(0);
    await expect(RecordingClient.connect(server.url)).rejects.toThrow();
  });

  it("close() cuts clients that never answer the close frame after closeGraceMs", async () => {
    const server = await startIndexerWsServer({ feed: bookFeed(), port: 0, closeGraceMs: 50 });
    const client = await connect(server);
    client.socket.pause();
    await server.close();
    expect(server.connectionCount).toBe(0);
  });

  it("a client that disconnects while its snapshot is read leaves nothing behind", async () => {
    const feed = bookFeed();
    const server = await start(feed);
    const client = await connect(server);
    feed.hold = true;
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "M2-USD" });
    await expect.poll(() => feed.heldCount).toBe(1);
    expect(server.topicCount).toBe(1);
    client.socket.terminate();
    await expect.poll(() => server.connectionCount).toBe(0);
    feed.release();
    feed.push(bookUpdate("M2-USD", "1", "1"));
    expect(server.topicCount).toBe(0);
  });

  it("an unsubscribe while the snapshot is read is a no-op, as the reference's: the subscribe goes live", async () => {
    const feed = bookFeed();
    const server = await start(feed);
    const client = await connect(server);
    feed.hold = true;
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "M3-USD" });
    await expect.poll(() => feed.heldCount).toBe(1);
    client.send({ type: "unsubscribe", channel: "v4_orderbook", id: "M3-USD" });
    await client.waitFrames(1);
    feed.release();
    feed.hold = false;
    await client.waitFrames(2);
    feed.push(bookUpdate("M3-USD", "1", "1"));
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "M3-USD" });
    const frames = await client.waitFrames(4);
    expect(frames.map((f) => [f.type, f.message_id])).toEqual([
      ["unsubscribed", 2],
      ["subscribed", 1],
      ["channel_data", 3],
      ["error", 4],
    ]);
    expect(frames[3]?.message).toBe("Invalid subscribe message: already subscribed (v4_orderbook-M3-USD)");
    expect(server.topicCount).toBe(1);
  });

  it("a snapshot promise that rejects answers the fetch error", async () => {
    const feed = bookFeed().set("v4_orderbook", "BAD-USD", () => {
      throw new Error("boom");
    });
    const server = await start(feed);
    const client = await connect(server);
    feed.hold = true;
    client.send({ type: "subscribe", channel: "v4_orderbook", id: "BAD-USD" });
    await expect.poll(() => feed.heldCount).toBe(1);
    feed.release();
    const [error] = await client.waitFrames(1);
    expect(error).toMatchObject({
      type: "error",
      message: "Internal error, could not fetch data for subscription: v4_orderbook.",
      message_id: 1,
      channel: "v4_orderbook",
      id: "BAD-USD",
    });
    expect(server.topicCount).toBe(0);
  });
});
