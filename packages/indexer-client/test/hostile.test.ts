/**
 * Hostile frames from a loopback indexer (`ws`): a valid envelope with wrong types in every field
 * of `v4_orderbook`, `v4_trades`, `v4_subaccounts`, `v4_markets` and `v4_candles` updates, bad
 * snapshots, non-JSON, and a frame over `maxFrameBytes`. Each must be an `error` event naming the
 * channel, the id and the field, a resync the server sees (a new subscribe), a subscription that is
 * not synced until the fresh snapshot is in, and a `close()` that resolves; nothing may escape
 * (vitest fails a run on an uncaught exception).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { watchOrderBook } from "../src/book/watch.js";
import { connectIndexerSocket } from "../src/ws/connect.js";
import { isIndexerFrameError, isIndexerListenerError } from "../src/ws/errors.js";
import { expectSameBook } from "./support/books.js";
import { type FakeIndexer, startFakeIndexer } from "./support/fake-indexer.js";
import { HOSTILE_CHANNELS, hostileCases } from "./support/hostile.js";

let fake: FakeIndexer;
beforeEach(async () => {
  fake = await startFakeIndexer();
});
afterEach(() => fake.stop());

/** Fast backoff: these tests walk many resyncs; the schedule itself is tested in backoff.test.ts. */
/** A bound on each wait that only catches a hang (the machine may be fully loaded). */
const HANG = { timeout: 30_000, interval: 20 };
const FAST = { initialDelayMs: 1, maxDelayMs: 4 };

describe("a bad update resyncs its subscription", { timeout: 120_000 }, () => {
  const cases = hostileCases();

  it(`covers every field of the five channels (${cases.length} cases)`, () => {
    for (const channel of HOSTILE_CHANNELS) {
      expect(cases.filter((c) => c.channel === channel).length).toBeGreaterThan(3);
    }
  });

  it.each(HOSTILE_CHANNELS)(
    "%s: each bad field is named, resynced, and close() resolves",
    async (channel) => {
      let n = 0;
      for (const hostile of cases.filter((c) => c.channel === channel)) {
        const id = channel === "v4_markets" ? "v4_markets" : hostile.id(n++);
        const socket = await connectIndexerSocket({ url: fake.url, reconnect: FAST });
        const sub = socket.subscribe(channel, ...((channel === "v4_markets" ? [] : [id]) as [string]));
        await sub.ready();
        const key = `${channel} ${id}`;
        const subscribes = fake.subscribes.filter((k) => k === key).length;
        const errors: unknown[] = [];
        const states: string[] = [];
        socket.on("error", (error) => {
          errors.push(error);
          states.push(sub.state);
        });
        fake.publish(channel, id, hostile.contents as object);
        await vi.waitFor(() => expect(errors).toHaveLength(1), HANG);
        const [error] = errors;
        expect(isIndexerFrameError(error), `${hostile.path}: ${String(error)}`).toBe(true);
        expect(error).toMatchObject({ channel, id, path: hostile.path, code: "DECODE" });
        expect(states).toEqual(["subscribing"]); // not synced at the moment it is reported
        await vi.waitFor(
          () => expect(fake.subscribes.filter((k) => k === key).length).toBe(subscribes + 1),
          HANG,
        );
        await sub.ready();
        expect(sub.state).toBe("live");
        await socket.close();
        expect(sub.state).toBe("ended");
      }
    },
    120_000,
  );
});

describe("hostile frames against a live order book", { timeout: 120_000 }, () => {
  it("bids: [[null, '2']]: an error naming channel, id and field; synced only after the fresh snapshot", async () => {
    const socket = await connectIndexerSocket({ url: fake.url, reconnect: FAST });
    fake.setLevel("BTC-USD", "bids", "100", "1");
    const live = watchOrderBook(socket, { market: "BTC-USD" });
    await live.ready();
    const seen: string[] = [];
    socket.on("error", (error) => seen.push(`error ${live.synced}: ${error.message}`));
    live.on("resync", ({ reason }) => seen.push(`resync ${reason} ${live.synced}`));
    fake.book("BTC-USD").asks.set("105", "3"); // a change the client only learns from the new snapshot
    fake.publish("v4_orderbook", "BTC-USD", { bids: [[null, "2"]] });
    await vi.waitFor(() => expect(seen).toHaveLength(2), HANG);
    expect(seen).toEqual([
      "error false: The indexer sent a v4_orderbook BTC-USD message whose bids[0][0] must be a non-negative decimal string, got null",
      "resync invalid true",
    ]);
    expect(fake.subscribes.filter((k) => k === "v4_orderbook BTC-USD")).toHaveLength(2);
    expectSameBook(live.book, fake, "BTC-USD");
    await socket.close();
  });

  it("a bad snapshot is refused before the book sees it, and subscribed again", async () => {
    const socket = await connectIndexerSocket({ url: fake.url, reconnect: FAST });
    fake.snapshots.set("v4_trades T", { trades: [{ id: 1 }] });
    const sub = socket.subscribe("v4_trades", "T");
    const paths: string[] = [];
    socket.on("error", (error) => isIndexerFrameError(error) && paths.push(error.path));
    await vi.waitFor(() => expect(paths.length).toBeGreaterThanOrEqual(2), HANG); // refused, subscribed again, refused
    expect(paths[0]).toBe("trades[0].id");
    expect(sub.state).toBe("subscribing");
    fake.snapshots.set("v4_trades T", { trades: [] });
    await sub.ready();
    await socket.close();
  });

  it("a listener that throws: an IndexerListenerError, a resync, the process keeps running", async () => {
    const socket = await connectIndexerSocket({ url: fake.url, reconnect: FAST });
    const live = watchOrderBook(socket, { market: "ETH-USD" });
    await live.ready();
    let throws = 1;
    live.on("change", () => {
      if (throws-- > 0) throw new Error("a bot's bug");
    });
    const errors: unknown[] = [];
    socket.on("error", (error) => errors.push(error));
    const resynced = new Promise((resolve) => live.on("resync", resolve));
    fake.setLevel("ETH-USD", "asks", "10", "1");
    await resynced;
    expect(errors).toHaveLength(1);
    expect(isIndexerListenerError(errors[0])).toBe(true);
    expect(errors[0]).toMatchObject({ channel: "v4_orderbook", id: "ETH-USD", event: "update" });
    expectSameBook(live.book, fake, "ETH-USD");
    await socket.close();
  });

  it("a batch that is not an array, and a bad update inside a batch, name the element", async () => {
    const socket = await connectIndexerSocket({ url: fake.url, reconnect: FAST });
    const live = watchOrderBook(socket, { market: "BTC-USD", batched: true });
    await live.ready();
    const paths: string[] = [];
    socket.on("error", (error) => isIndexerFrameError(error) && paths.push(error.path));
    fake.publish("v4_orderbook", "BTC-USD", { bids: [["1", "1"]] });
    fake.publish("v4_orderbook", "BTC-USD", { asks: [["2", 5]] });
    await vi.waitFor(() => expect(paths).toEqual(["[1].asks[0][1]"]), HANG);
    await vi.waitFor(() => expect(live.synced).toBe(true), HANG);
    await socket.close();
  });

  it("non-JSON and a frame over maxFrameBytes: errors, a reconnect, fresh snapshots", async () => {
    const socket = await connectIndexerSocket({ url: fake.url, reconnect: FAST });
    fake.setLevel("BTC-USD", "bids", "100", "1");
    const live = watchOrderBook(socket, { market: "BTC-USD" });
    await live.ready();
    const errors: string[] = [];
    const resyncs: string[] = [];
    socket.on("error", (error) => errors.push(`${error.name}: ${error.shortMessage}`));
    live.on("resync", ({ reason }) => resyncs.push(reason));
    fake.sendRaw("{not json");
    await vi.waitFor(() => expect(resyncs).toEqual(["gap"]), HANG);
    // 9 MiB: a valid envelope over the default limit of 8 MiB.
    const huge = JSON.stringify({
      type: "channel_data",
      connection_id: "c",
      message_id: 1,
      channel: "v4_orderbook",
      id: "BTC-USD",
      contents: { bids: [["1", "1".repeat(9 * 1024 * 1024)]] },
    });
    fake.sendRaw(huge);
    await vi.waitFor(() => expect(resyncs).toEqual(["gap", "gap"]), HANG);
    expect(errors).toEqual([
      "IndexerMessageError: The indexer sent a frame that is not a server message: not JSON",
      // In Node, `ws` refuses it from its header, before its payload is read: its size is not known.
      "IndexerFrameError: The indexer sent a frame the client refused: is more than maxFrameBytes (8388608)",
    ]);
    expect(live.synced).toBe(true);
    expectSameBook(live.book, fake, "BTC-USD");
    await socket.close();
  });

  it("maxFrameBytes is an option: a smaller limit refuses a smaller frame", async () => {
    const socket = await connectIndexerSocket({ url: fake.url, reconnect: FAST, maxFrameBytes: 4096 });
    const live = watchOrderBook(socket, { market: "BTC-USD" });
    await live.ready();
    const errors: unknown[] = [];
    socket.on("error", (error) => errors.push(error));
    fake.publish("v4_orderbook", "BTC-USD", { bids: [["1", "1".repeat(5000)]] });
    await vi.waitFor(() => expect(errors).toHaveLength(1), HANG);
    expect(errors[0]).toMatchObject({ name: "IndexerFrameError", path: "" });
    await socket.close();
    await expect(
      connectIndexerSocket({ url: fake.url, maxFrameBytes: 0 }).catch((error: unknown) => error),
    ).resolves.toMatchObject({ argument: "maxFrameBytes" });
  });
});
