/**
 * The hub's fan-out and batching rules on their own (spec 3.6), with recording connections and
 * explicit flushes instead of the timer.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ChannelMessage } from "../feed.js";
import { type Connection, Subscription } from "./connection.js";
import { SubscriptionHub } from "./hub.js";
import { RateLimiter } from "./rate-limiter.js";

interface Sent {
  type: string;
  frame: Record<string, unknown>;
}

function recorder(): { connection: Connection; sent: Sent[] } {
  const sent: Sent[] = [];
  let messageId = 0;
  const sendData = (type: string, tail: string) => {
    messageId += 1;
    sent.push({ type, frame: JSON.parse(`{"message_id":${messageId}${tail}`) });
  };
  const connection = {
    sendData,
    sendAll(type: string, tails: readonly string[]) {
      for (const tail of tails) sendData(type, tail);
    },
  } as unknown as Connection;
  return { connection, sent };
}

const book = (size: string): ChannelMessage => ({
  channel: "v4_orderbook",
  id: "BTC-USD",
  version: "1.0.0",
  contents: { asks: [["10", size]] },
});

let hub: SubscriptionHub;
afterEach(() => hub.close());

function live(connection: Connection, batched: boolean, id = "BTC-USD"): Subscription {
  const subscription = new Subscription(connection, "v4_orderbook", id, batched);
  hub.addPending(subscription);
  hub.activate(subscription);
  return subscription;
}

describe("SubscriptionHub", () => {
  it("unbatched subscribers get each message at once; others' ids get nothing", () => {
    hub = new SubscriptionHub(60_000);
    const a = recorder();
    live(a.connection, false);
    const other = recorder();
    live(other.connection, false, "ETH-USD");
    hub.publish([book("1"), book("2")]);
    expect(a.sent.map((s) => [s.type, s.frame.message_id, s.frame.contents])).toEqual([
      ["channel_data", 1, { asks: [["10", "1"]] }],
      ["channel_data", 2, { asks: [["10", "2"]] }],
    ]);
    expect(other.sent).toEqual([]);
  });

  it("batched subscribers get one frame per flush; an empty buffer sends nothing", () => {
    hub = new SubscriptionHub(60_000);
    const a = recorder();
    live(a.connection, true);
    hub.flush();
    expect(a.sent).toEqual([]);
    hub.publish([book("1")]);
    hub.publish([book("2")]);
    hub.flush();
    hub.flush();
    expect(a.sent).toEqual([
      {
        type: "channel_batch_data",
        frame: {
          message_id: 1,
          id: "BTC-USD",
          channel: "v4_orderbook",
          version: "1.0.0",
          contents: [{ asks: [["10", "1"]] }, { asks: [["10", "2"]] }],
        },
      },
    ]);
  });

  it("a batched subscriber that joins mid-window gets only what came after its snapshot", () => {
    hub = new SubscriptionHub(60_000);
    const early = recorder();
    live(early.connection, true);
    hub.publish([book("1")]);
    const late = recorder();
    live(late.connection, true);
    hub.publish([book("2")]);
    hub.flush();
    expect(early.sent[0]?.frame.contents).toEqual([{ asks: [["10", "1"]] }, { asks: [["10", "2"]] }]);
    expect(late.sent.map((s) => s.frame.contents)).toEqual([[{ asks: [["10", "2"]] }]]);
    hub.publish([book("3")]);
    hub.flush();
    expect(late.sent.map((s) => s.frame.contents)).toEqual([
      [{ asks: [["10", "2"]] }],
      [{ asks: [["10", "3"]] }],
    ]);
  });

  it("a connection gets its frames of one step in one run, in the feed's order across its topics", () => {
    hub = new SubscriptionHub(60_000);
    const runs: string[][] = [];
    const connection = {
      sendAll: (_type: string, tails: readonly string[]) => runs.push([...tails]),
    } as unknown as Connection;
    live(connection, false, "BTC-USD");
    live(connection, false, "ETH-USD");
    const other = recorder();
    live(other.connection, false, "ETH-USD");
    const eth: ChannelMessage = { ...book("9"), id: "ETH-USD" };
    hub.publish([book("1"), eth, book("2")]);
    expect(runs.map((run) => run.map((t) => JSON.parse(`{"message_id":0${t}`).id))).toEqual([
      ["BTC-USD", "ETH-USD", "BTC-USD"],
    ]);
    expect(other.sent.map((s) => s.frame.id)).toEqual(["ETH-USD"]);
  });

  it("a connection whose socket throws is reported; the other connections still get the step", () => {
    const errors: unknown[] = [];
    hub = new SubscriptionHub(60_000, (error) => errors.push(error));
    const broken = {
      sendAll: () => {
        throw new Error("write after end");
      },
    } as unknown as Connection;
    live(broken, false);
    const a = recorder();
    live(a.connection, false);
    hub.publish([book("1")]);
    expect(errors).toEqual([new Error("write after end")]);
    expect(a.sent.map((s) => s.frame.contents)).toEqual([{ asks: [["10", "1"]] }]);
  });

  it("pending subscribers queue messages and get them as channel_data on activation", () => {
    hub = new SubscriptionHub(60_000);
    const a = recorder();
    const subscription = new Subscription(a.connection, "v4_orderbook", "BTC-USD", true);
    hub.addPending(subscription);
    hub.publish([book("1"), book("2")]);
    expect(a.sent).toEqual([]);
    hub.activate(subscription);
    hub.flush();
    expect(a.sent.map((s) => s.type)).toEqual(["channel_data", "channel_data"]);
  });

  it("flushes on its own after batchIntervalMs", async () => {
    hub = new SubscriptionHub(5);
    const a = recorder();
    live(a.connection, true);
    hub.publish([book("1")]);
    await expect.poll(() => a.sent.length).toBe(1);
  });

  it("a message whose contents cannot be serialized is dropped and reported; the others go out", () => {
    const errors: unknown[] = [];
    hub = new SubscriptionHub(60_000, (error) => errors.push(error));
    const a = recorder();
    live(a.connection, false);
    hub.publish([{ ...book("1"), contents: { size: 1n } }, book("2")]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
    expect(a.sent.map((s) => s.frame.contents)).toEqual([{ asks: [["10", "2"]] }]);
  });

  it("forgets a topic once its last subscriber leaves", () => {
    hub = new SubscriptionHub(60_000);
    const a = recorder();
    const one = live(a.connection, true);
    const two = live(recorder().connection, false);
    hub.publish([book("1")]);
    hub.remove(one);
    expect(hub.topicCount).toBe(1);
    hub.remove(two);
    expect(hub.topicCount).toBe(0);
    hub.flush();
    expect(a.sent).toEqual([]);
  });
});

describe("RateLimiter", () => {
  it("refuses the third attempt inside a window opened by the first, per key", () => {
    let now = 1000;
    const limiter = new RateLimiter({ points: 2, windowMs: 1000 }, () => now);
    expect([limiter.exceeded("a"), limiter.exceeded("a"), limiter.exceeded("b")]).toEqual([
      false,
      false,
      false,
    ]);
    now = 1999;
    expect(limiter.exceeded("a")).toBe(true);
    now = 2000;
    expect([limiter.exceeded("a"), limiter.exceeded("a"), limiter.exceeded("a")]).toEqual([
      false,
      false,
      true,
    ]);
  });
});
