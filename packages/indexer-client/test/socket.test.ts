/**
 * The indexer socket against a controllable loopback indexer (`support/fake-indexer.ts`): the
 * subscription life cycle, every channel, batching, the reserved `subscribed` id, refusals, and
 * option checks.
 */
import { isInvalidArgumentError } from "@perpx/errors";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { connectIndexerSocket } from "../src/ws/connect.js";
import type { IndexerSocket } from "../src/ws/connection.js";
import { isIndexerSubscriptionError, isWebSocketClosedError } from "../src/ws/errors.js";
import type { SubscriptionEvent } from "../src/ws/subscription.js";
import { type FakeIndexer, startFakeIndexer } from "./support/fake-indexer.js";

let fake: FakeIndexer;
let socket: IndexerSocket | undefined;

beforeEach(async () => {
  fake = await startFakeIndexer({ snapshotDelayMs: 5 });
});
afterEach(async () => {
  await socket?.close();
  socket = undefined;
  await fake.stop();
});

describe("subscriptions", () => {
  it("delivers the snapshot, then updates, and unsubscribes", async () => {
    fake.setLevel("BTC-USD", "bids", "100", "1");
    socket = await connectIndexerSocket({ url: fake.url });
    expect(socket.connectionId).toMatch(/^c/);
    const sub = socket.subscribe("v4_orderbook", "BTC-USD");
    const events: SubscriptionEvent<"v4_orderbook">[] = [];
    sub.on("snapshot", (e) => events.push(e));
    sub.on("update", (e) => events.push(e));
    const snapshot = await sub.ready();
    expect(snapshot).toEqual({ bids: [{ price: "100", size: "1" }], asks: [] });
    fake.setLevel("BTC-USD", "asks", "101", "2");
    await vi.waitFor(() => expect(events).toHaveLength(2));
    expect(events[1]).toMatchObject({ type: "update", contents: { asks: [["101", "2"]] } });
    expect(sub.state).toBe("live");
    sub.unsubscribe();
    expect(sub.state).toBe("ended");
    await vi.waitFor(() => expect(fake.subscribers("v4_orderbook", "BTC-USD")).toBe(0));
    expect(sub.listenerCount()).toBe(0);
  });

  it("is an async iterator: snapshot first, updates in order, done when unsubscribed", async () => {
    socket = await connectIndexerSocket({ url: fake.url });
    const sub = socket.subscribe("v4_trades", "ETH-USD");
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of sub) {
        seen.push(event.type === "update" ? `update:${event.contents.trades[0]?.id}` : event.type);
        if (seen.length === 3) sub.unsubscribe();
      }
    })();
    await sub.ready();
    for (const id of ["a", "b"]) {
      fake.publish("v4_trades", "ETH-USD", {
        trades: [
          { id, side: "BUY", size: "1", price: "10", type: "LIMIT", createdAt: "2026-01-01T00:00:00.000Z" },
        ],
      });
    }
    await reading;
    expect(seen).toEqual(["snapshot", "update:a", "update:b"]);
  });

  it("unrolls batches: a batched subscription delivers each update alone, in order", async () => {
    socket = await connectIndexerSocket({ url: fake.url });
    const sub = socket.subscribe("v4_orderbook", "BTC-USD", { batched: true });
    await sub.ready();
    const sizes: string[] = [];
    const ids = new Set<number>();
    sub.on("update", ({ contents, messageId }) => {
      sizes.push(contents.bids?.[0]?.[1] ?? "");
      ids.add(messageId);
    });
    for (let i = 1; i <= 5; i++) fake.setLevel("BTC-USD", "bids", "100", String(i));
    await vi.waitFor(() => expect(sizes).toEqual(["1", "2", "3", "4", "5"]));
    expect(ids.size).toBeLessThan(5); // they came in batches
  });

  it("serves every channel, with the id forms of each", async () => {
    socket = await connectIndexerSocket({ url: fake.url });
    fake.snapshots.set("v4_markets v4_markets", { markets: { "BTC-USD": { ticker: "BTC-USD" } } });
    fake.snapshots.set("v4_block_height v4_block_height", { height: "7", time: "2026-01-01T00:00:00.000Z" });
    fake.snapshots.set("v4_candles BTC-USD/1MIN", { candles: [] });
    fake.snapshots.set("v4_subaccounts perpx1abc/0", {});
    fake.snapshots.set("v4_parent_subaccounts perpx1abc/0", {}); // no child exists yet
    const subs = {
      markets: socket.subscribe("v4_markets"),
      height: socket.subscribe("v4_block_height"),
      book: socket.subscribe("v4_orderbook", "BTC-USD"),
      trades: socket.subscribe("v4_trades", "BTC-USD"),
      candles: socket.subscribe("v4_candles", "BTC-USD/1MIN"),
      subaccount: socket.subscribe("v4_subaccounts", "perpx1abc/0"),
      parent: socket.subscribe("v4_parent_subaccounts", "perpx1abc/0"),
    };
    expect((await subs.markets.ready()).markets["BTC-USD"]?.ticker).toBe("BTC-USD");
    expect((await subs.height.ready()).height).toBe("7");
    await Promise.all(Object.values(subs).map((sub) => sub.ready()));
    expect(subs.height.id).toBe("v4_block_height");
    const heights: string[] = [];
    const children: (number | undefined)[] = [];
    subs.height.on("update", ({ contents }) => heights.push(contents.blockHeight));
    subs.parent.on("update", ({ subaccountNumber }) => children.push(subaccountNumber));
    fake.publish("v4_block_height", "v4_block_height", {
      blockHeight: "8",
      time: "2026-01-01T00:00:01.000Z",
    });
    fake.publish("v4_parent_subaccounts", "perpx1abc/0", { blockHeight: "8" }, { subaccountNumber: 128 });
    await vi.waitFor(() => expect([heights, children]).toEqual([["8"], [128]]));
  });

  it("does not take a subscribed that arrives after data with higher ids for a gap", async () => {
    await fake.stop();
    fake = await startFakeIndexer({ snapshotDelayMs: 80 });
    socket = await connectIndexerSocket({ url: fake.url });
    const first = socket.subscribe("v4_orderbook", "BTC-USD");
    await first.ready();
    const disconnects: string[] = [];
    socket.on("disconnect", ({ cause }) => disconnects.push(cause));
    const second = socket.subscribe("v4_orderbook", "ETH-USD");
    // While ETH-USD's snapshot is "fetched", BTC-USD data takes higher ids.
    const updates: number[] = [];
    first.on("update", ({ messageId }) => updates.push(messageId));
    await vi.waitFor(() => expect(fake.conns.size).toBe(1));
    const flow = setInterval(() => fake.setLevel("BTC-USD", "bids", "100", String(updates.length + 1)), 5);
    await second.ready();
    clearInterval(flow);
    expect(updates.length).toBeGreaterThan(0);
    expect(disconnects).toEqual([]);
    expect(second.state).toBe("live");
  });

  it("ends a refused subscription with IndexerSubscriptionError and keeps the others", async () => {
    socket = await connectIndexerSocket({ url: fake.url });
    const good = socket.subscribe("v4_trades", "BTC-USD");
    const bad = socket.subscribe("v4_trades", "INVALID-USD");
    const error = await bad.ready().catch((e: unknown) => e);
    expect(isIndexerSubscriptionError(error)).toBe(true);
    expect(error).toMatchObject({ channel: "v4_trades", id: "INVALID-USD" });
    expect(bad.state).toBe("ended");
    await good.ready();
    expect(good.state).toBe("live");
  });

  it("checks its arguments before sending anything", async () => {
    await expect(connectIndexerSocket({ url: "http://x" })).rejects.toThrow(/url/);
    await expect(connectIndexerSocket({ url: fake.url, idleTimeoutMs: -1 })).rejects.toThrow(/idleTimeoutMs/);
    socket = await connectIndexerSocket({ url: fake.url, WebSocket: WebSocket as never });
    const loose = socket.subscribe.bind(socket) as unknown as (channel: string, id?: string) => unknown;
    expect(() => loose("v4_nope", "x")).toThrow(/channel/);
    expect(() => loose("v4_orderbook")).toThrow(/needs a subscription id/);
    socket.subscribe("v4_orderbook", "BTC-USD");
    let duplicate: unknown;
    try {
      socket.subscribe("v4_orderbook", "BTC-USD");
    } catch (e) {
      duplicate = e;
    }
    expect(isInvalidArgumentError(duplicate)).toBe(true);
    await vi.waitFor(() => expect(fake.subscribers("v4_orderbook", "BTC-USD")).toBe(1));
    expect(fake.subscribes).toEqual(["v4_orderbook BTC-USD"]);
  });

  it("rejects a first connection that fails, and refuses subscribe after close", async () => {
    const port = fake.port;
    await fake.stop();
    const error = await connectIndexerSocket({ url: `ws://127.0.0.1:${port}` }).catch((e: unknown) => e);
    expect(isWebSocketClosedError(error)).toBe(true);
    fake = await startFakeIndexer();
    socket = await connectIndexerSocket({ url: fake.url });
    const sub = socket.subscribe("v4_block_height");
    await socket.close();
    expect(sub.state).toBe("ended");
    expect(() => socket!.subscribe("v4_markets")).toThrow(/closed/);
  });
});
