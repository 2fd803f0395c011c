/**
 * Faults against a controllable loopback indexer: a dropped connection, a stalled server, a
 * malformed frame, a server restart on the same port, a gap in message ids, a burst over the
 * subscription limit. Each ends with live subscriptions, a book equal to the server's, and nothing
 * left running after `close()` (timers and TCP handles counted against a baseline, listeners
 * counted on the socket and the subscriptions).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type LiveOrderBook, watchOrderBook } from "../src/book/watch.js";
import { connectIndexerSocket } from "../src/ws/connect.js";
import type { IndexerSocket } from "../src/ws/connection.js";
import { isSubscriptionLimitError } from "../src/ws/errors.js";
import { expectSameBook, randomFlow, seeded } from "./support/books.js";
import { type FakeIndexer, startFakeIndexer } from "./support/fake-indexer.js";
import { activeResources, expectNoLeaks, expectNoTimerLeak } from "./support/leaks.js";

let fake: FakeIndexer;
let baseline: Record<string, number>;
const random = seeded(11);

beforeEach(async () => {
  fake = await startFakeIndexer({ snapshotDelayMs: 5 });
});
afterEach(async () => {
  await fake.stop();
});

/** Connects with short heartbeat and backoff settings and watches BTC-USD and ETH-USD. */
async function connectWithBooks(): Promise<{
  socket: IndexerSocket;
  books: LiveOrderBook[];
  resyncs: string[];
}> {
  baseline = activeResources(); // inside the test: the same test-runner timers as at the end
  randomFlow(fake, "BTC-USD", 30, random);
  randomFlow(fake, "ETH-USD", 30, random);
  const socket = await connectIndexerSocket({
    url: fake.url,
    idleTimeoutMs: 400,
    pingIntervalMs: 100,
    reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
  });
  const books = [
    watchOrderBook(socket, { market: "BTC-USD" }),
    watchOrderBook(socket, { market: "ETH-USD", batched: true }),
  ];
  const resyncs: string[] = [];
  for (const live of books)
    live.on("resync", ({ reason }) => resyncs.push(`${live.subscription.id}:${reason}`));
  await Promise.all(books.map((live) => live.ready()));
  return { socket, books, resyncs };
}

/** More order flow, then both books must equal the server's. */
async function expectBooksCorrect(books: LiveOrderBook[]): Promise<void> {
  randomFlow(fake, "BTC-USD", 40, random);
  randomFlow(fake, "ETH-USD", 40, random);
  await vi.waitFor(() => {
    for (const live of books) {
      expect(live.synced).toBe(true);
      expectSameBook(live.book, fake, live.subscription.id);
    }
  });
}

/** Closes and checks that nothing is left: listeners, timers, sockets. */
async function closeAndCheck(socket: IndexerSocket, books: LiveOrderBook[]): Promise<void> {
  await socket.close();
  expectNoTimerLeak(baseline);
  for (const live of books) {
    expect(live.subscription.state).toBe("ended");
    expect(live.subscription.listenerCount()).toBe(0);
    expect(live.listenerCount()).toBe(0);
  }
  expect(socket.listenerCount()).toBe(0);
  fake.dropStalled(); // a stalled server reads nothing, not even the client's FIN
  await vi.waitFor(() => expect(fake.conns.size).toBe(0));
  await expectNoLeaks(baseline);
}

describe("faults", () => {
  it("a dropped connection: reconnects, resubscribes, rebuilds the books", async () => {
    const { socket, books, resyncs } = await connectWithBooks();
    const first = socket.connectionId;
    fake.dropAll();
    randomFlow(fake, "BTC-USD", 20, random); // changes the client misses while away
    await vi.waitFor(() => expect(resyncs.sort()).toEqual(["BTC-USD:reconnect", "ETH-USD:reconnect"]));
    expect(socket.connectionId).not.toBe(first);
    await expectBooksCorrect(books);
    await closeAndCheck(socket, books);
  });

  it("a stalled server (no pings, no data): the idle timeout drops it and the client reconnects", async () => {
    const { socket, books, resyncs } = await connectWithBooks();
    const causes: string[] = [];
    socket.on("disconnect", ({ cause }) => causes.push(cause));
    fake.stallAll();
    await vi.waitFor(() => expect(causes).toContain("stalled"), { timeout: 5_000 });
    await vi.waitFor(() => expect(resyncs).toHaveLength(2));
    await expectBooksCorrect(books);
    await closeAndCheck(socket, books);
  });

  it("a quiet but healthy server is kept: protocol pings answer the idle check", async () => {
    const { socket, books } = await connectWithBooks();
    const causes: string[] = [];
    socket.on("disconnect", ({ cause }) => causes.push(cause));
    const pings = await new Promise<number>((resolve) => {
      let count = 0;
      for (const conn of fake.conns) conn.socket.on("ping", () => ++count === 5 && resolve(count));
    });
    expect(pings).toBe(5); // 5 pings at 100 ms: 500 ms of silence, beyond the 400 ms idle timeout
    expect(causes).toEqual([]);
    await closeAndCheck(socket, books);
  });

  it("a malformed frame: reported as an error, and the books resync", async () => {
    const { socket, books, resyncs } = await connectWithBooks();
    const errors: string[] = [];
    socket.on("error", (error) => errors.push(error.code));
    fake.sendRaw("{not json");
    await vi.waitFor(() => expect(resyncs.sort()).toEqual(["BTC-USD:gap", "ETH-USD:gap"]));
    expect(errors).toEqual(["DECODE"]);
    await expectBooksCorrect(books);
    await closeAndCheck(socket, books);
  });

  it("a text frame that is not UTF-8: reported as an error, and the books resync", async () => {
    const { socket, books, resyncs } = await connectWithBooks();
    const errors: string[] = [];
    socket.on("error", (error) => errors.push(error.message));
    fake.sendRaw(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]));
    await vi.waitFor(() => expect(resyncs.sort()).toEqual(["BTC-USD:gap", "ETH-USD:gap"]));
    expect(errors).toEqual([expect.stringContaining("not UTF-8")]);
    await expectBooksCorrect(books);
    await closeAndCheck(socket, books);
  });

  it("a server restart on the same port: reconnects with backoff and resubscribes", async () => {
    const { socket, books, resyncs } = await connectWithBooks();
    const attempts: number[] = [];
    socket.on("reconnecting", ({ attempt }) => attempts.push(attempt));
    const port = fake.port;
    await fake.stop();
    await vi.waitFor(() => expect(attempts.length).toBeGreaterThanOrEqual(2)); // refused while down
    randomFlow(fake, "ETH-USD", 20, random);
    await fake.start();
    expect(fake.port).toBe(port);
    await vi.waitFor(() => expect(resyncs).toHaveLength(2));
    await expectBooksCorrect(books);
    await closeAndCheck(socket, books);
  });

  it("a gap in message ids: detected, and the books resync from fresh snapshots", async () => {
    const { socket, books, resyncs } = await connectWithBooks();
    const causes: string[] = [];
    socket.on("disconnect", ({ cause }) => causes.push(cause));
    fake.skipIds(1);
    fake.setLevel("BTC-USD", "bids", "95", "7");
    await vi.waitFor(() => expect(resyncs.sort()).toEqual(["BTC-USD:gap", "ETH-USD:gap"]));
    expect(causes).toEqual(["gap"]);
    await expectBooksCorrect(books);
    await closeAndCheck(socket, books);
  });

  it("a burst over the subscription limit: refused locally with a typed error; rapid resubscribes are paced", async () => {
    const { socket, books } = await connectWithBooks();
    const closes: number[] = [];
    socket.on("disconnect", ({ code }) => closes.push(code ?? 0));
    const more: LiveOrderBook[] = [];
    const refused: unknown[] = [];
    for (let i = 0; i < 40; i++) {
      try {
        more.push(watchOrderBook(socket, { market: `M${i}-USD` }));
      } catch (error) {
        refused.push(error);
      }
    }
    expect(more).toHaveLength(30); // 32 per connection, 2 already taken
    expect(refused).toHaveLength(10);
    expect(refused.every(isSubscriptionLimitError)).toBe(true);
    await Promise.all(more.map((live) => live.ready()));
    // Unsubscribe and subscribe the same market five times at once: a third subscribe within 1 s
    // would make the server close the connection (1008); the client spaces them.
    for (let i = 0; i < 5; i++) {
      more[0]!.close();
      more[0] = watchOrderBook(socket, { market: "M0-USD" });
    }
    await more[0]!.ready();
    expect(fake.subscribes.filter((key) => key === "v4_orderbook M0-USD").length).toBeGreaterThanOrEqual(3);
    expect(closes).toEqual([]);
    await vi.waitFor(() => expect(fake.subscribers("v4_orderbook", "M0-USD")).toBe(1));
    await expectBooksCorrect(books);
    await closeAndCheck(socket, [...books, ...more]);
  }, 15_000);
});

describe("close()", () => {
  it("does not wait on a server that never answers the close frame", async () => {
    const { socket, books } = await connectWithBooks();
    fake.stallAll();
    // Timers are faked while it closes: the close grace (1 s) is made to pass and ws's own wait for
    // the answer (30 s) is not, so close() can only resolve through the grace, on any machine.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldClearNativeTimers: true });
    try {
      const closing = socket.close();
      await vi.advanceTimersByTimeAsync(1_000);
      await closing;
    } finally {
      vi.useRealTimers();
    }
    expectNoTimerLeak(baseline);
    fake.dropStalled();
    await vi.waitFor(() => expect(fake.conns.size).toBe(0));
    await expectNoLeaks(baseline);
    expect(books.every((live) => live.subscription.state === "ended")).toBe(true);
  });
});
