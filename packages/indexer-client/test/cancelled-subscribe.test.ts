/**
 * A subscription dropped before its snapshot arrives. The server has reserved a `message_id` for
 * the subscribe; an unsubscribe that reaches it while the snapshot is being read cancels the
 * subscribe, and its reply never comes (the devnet's indexer and the loopback fake), or the
 * subscription goes live anyway (the reference's socks). Either way the client must not be left
 * with a hole it excuses forever (a lost message then goes unnoticed) nor a subscription the
 * server keeps.
 */
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { watchOrderBook } from "../src/book/watch.js";
import { connectIndexerSocket } from "../src/ws/connect.js";
import type { IndexerSocket } from "../src/ws/connection.js";
import { type FakeIndexer, startFakeIndexer } from "./support/fake-indexer.js";

let fake: FakeIndexer;
let socket: IndexerSocket | undefined;
beforeEach(async () => {
  fake = await startFakeIndexer({ snapshotDelayMs: 30 });
});
afterEach(async () => {
  await socket?.close();
  socket = undefined;
  await fake.stop();
});

const FAST = { initialDelayMs: 1, maxDelayMs: 4 };

/** The connection's count of `message_id`s it has not seen below the highest (white box). */
function holes(of: IndexerSocket): number {
  return (of as unknown as { sequence: { holes(): number } }).sequence.holes();
}

it("a subscribe dropped before its snapshot leaves no hole in the message ids, and a loss is still a gap", async () => {
  socket = await connectIndexerSocket({ url: fake.url, reconnect: FAST });
  fake.setLevel("BTC-USD", "bids", "100", "1");
  const live = watchOrderBook(socket, { market: "BTC-USD" });
  await live.ready();
  const disconnects: string[] = [];
  socket.on("disconnect", ({ cause }) => disconnects.push(cause));

  // Subscribed and dropped at once: the server has its subscribe, not yet its snapshot.
  socket.subscribe("v4_orderbook", "ETH-USD").unsubscribe();
  // A later subscription goes live once the server is past the dropped one.
  await socket.subscribe("v4_trades", "BTC-USD").ready();
  // Every id so far was seen: nothing is held for a reply that will never come.
  await vi.waitFor(() => expect(holes(socket as IndexerSocket)).toBe(0));

  fake.skipIds(1); // a message is lost
  fake.setLevel("BTC-USD", "bids", "101", "2");
  fake.setLevel("BTC-USD", "bids", "102", "3");
  await vi.waitFor(() => {
    expect(live.synced).toBe(true);
    expect(live.book.bestBid()).toEqual({ price: "102", size: "3" });
  });
  expect(disconnects).toContain("gap");
});

it.each(["cancel", "ignore"] as const)(
  "subscribing again to a key dropped before its snapshot goes live, and the server keeps one (pending unsubscribe: %s)",
  async (pendingUnsubscribe) => {
    await fake.stop();
    fake = await startFakeIndexer({ snapshotDelayMs: 30, pendingUnsubscribe });
    socket = await connectIndexerSocket({ url: fake.url, reconnect: FAST });
    const disconnects: string[] = [];
    const errors: unknown[] = [];
    socket.on("disconnect", ({ cause }) => disconnects.push(cause));
    socket.on("error", (error) => errors.push(error));
    for (let round = 0; round < 3; round++) socket.subscribe("v4_orderbook", "ETH-USD").unsubscribe();
    fake.setLevel("ETH-USD", "asks", "2000", "4");
    const again = socket.subscribe("v4_orderbook", "ETH-USD");
    expect(await again.ready()).toEqual({ bids: [], asks: [{ price: "2000", size: "4" }] });
    await vi.waitFor(() => expect(fake.subscribers("v4_orderbook", "ETH-USD")).toBe(1));
    again.unsubscribe();
    await vi.waitFor(() => expect(fake.subscribers("v4_orderbook", "ETH-USD")).toBe(0));
    expect({ disconnects, errors }).toEqual({ disconnects: [], errors: [] });
    expect(holes(socket)).toBe(0);
  },
);

it("a channel capped at one can be subscribed again at once after a subscribe dropped before its snapshot", async () => {
  socket = await connectIndexerSocket({ url: fake.url, reconnect: FAST });
  socket.subscribe("v4_block_height").unsubscribe();
  const again = socket.subscribe("v4_block_height");
  expect(await again.ready()).toMatchObject({ height: "1" });
  expect(() => socket?.subscribe("v4_block_height")).toThrow(/already subscribed/);
});
