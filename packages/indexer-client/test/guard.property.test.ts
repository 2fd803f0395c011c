/**
 * Property: whatever JSON a server puts in a message's contents (or in the whole frame), the
 * socket's message handler never throws. A subscription with a live view on it (an order book, a
 * subaccount) either takes the message or reports an `error` and resyncs (an `unsubscribe` goes
 * out); `close()` resolves either way. The socket runs over an in-memory WebSocket, so each case
 * is the real handler called the way `ws` or a browser calls it.
 */
import type { IndexerChannel } from "@perpx/core/indexer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { watchSubaccount } from "../src/account/watch.js";
import { watchOrderBook } from "../src/book/watch.js";
import { connectIndexerSocket } from "../src/ws/connect.js";
import type { IndexerWebSocket } from "../src/ws/transport.js";

const SNAPSHOTS: Record<IndexerChannel, object> = {
  v4_orderbook: { bids: [{ price: "99", size: "1" }], asks: [{ price: "101", size: "1" }] },
  v4_trades: { trades: [] },
  v4_candles: { candles: [] },
  v4_markets: { markets: {} },
  v4_subaccounts: {},
  v4_parent_subaccounts: {},
  v4_block_height: { height: "1", time: "2026-01-01T00:00:00.000Z" },
};
const IDS: Record<IndexerChannel, string> = {
  v4_orderbook: "BTC-USD",
  v4_trades: "BTC-USD",
  v4_candles: "BTC-USD/1MIN",
  v4_markets: "v4_markets",
  v4_subaccounts: "perpx1abc/0",
  v4_parent_subaccounts: "perpx1abc/0",
  v4_block_height: "v4_block_height",
};

/** An in-memory server end: answers `connected` and every subscribe with its snapshot. */
class MemorySocket implements IndexerWebSocket {
  static last: MemorySocket | undefined;
  readyState = 1;
  onopen: IndexerWebSocket["onopen"] = null;
  onmessage: IndexerWebSocket["onmessage"] = null;
  onerror: IndexerWebSocket["onerror"] = null;
  onclose: IndexerWebSocket["onclose"] = null;
  readonly sent: { type: string; channel: string }[] = [];
  private messageId = 0;

  constructor(readonly url: string) {
    MemorySocket.last = this;
    queueMicrotask(() => this.deliver({ type: "connected", connection_id: "m", message_id: 0 }));
  }

  send(data: string): void {
    const message = JSON.parse(data) as { type: string; channel: IndexerChannel };
    this.sent.push(message);
    const reply =
      message.type === "subscribe"
        ? { type: "subscribed", contents: SNAPSHOTS[message.channel] }
        : { type: "unsubscribed" };
    const messageId = ++this.messageId;
    // A real socket answers later, never inside send().
    queueMicrotask(() =>
      this.deliver({
        ...reply,
        connection_id: "m",
        message_id: messageId,
        channel: message.channel,
        id: IDS[message.channel],
      }),
    );
  }

  close(): void {
    this.readyState = 3;
    queueMicrotask(() => this.onclose?.({ code: 1000 }));
  }

  /** Calls the client's handler as a WebSocket would; the property is that this never throws. */
  deliver(frame: unknown): void {
    this.onmessage?.({ data: typeof frame === "string" ? frame : JSON.stringify(frame) });
  }

  data(channel: IndexerChannel, contents: unknown, extra: object = {}): void {
    this.deliver({
      type: "channel_data",
      connection_id: "m",
      message_id: ++this.messageId,
      channel,
      id: IDS[channel],
      contents,
      ...extra,
    });
  }
}

const channels = fc.constantFrom<IndexerChannel>(
  "v4_orderbook",
  "v4_trades",
  "v4_candles",
  "v4_markets",
  "v4_subaccounts",
  "v4_parent_subaccounts",
  "v4_block_height",
);
const level = fc.tuple(
  fc.oneof(fc.jsonValue(), fc.constant("100")),
  fc.oneof(fc.jsonValue(), fc.constant("1")),
);
/** Arbitrary JSON, and JSON shaped like each channel's contents with arbitrary leaves. */
const contents = fc.oneof(
  fc.jsonValue(),
  fc.record({ bids: fc.array(level, { maxLength: 3 }), asks: fc.jsonValue() }, { requiredKeys: [] }),
  fc.record({
    trades: fc.array(fc.dictionary(fc.constantFrom("id", "price", "size", "side"), fc.jsonValue())),
  }),
  fc.dictionary(
    fc.constantFrom("perpetualPositions", "assetPositions", "orders", "fills", "blockHeight", "transfers"),
    fc.oneof(
      fc.jsonValue(),
      fc.array(fc.dictionary(fc.constantFrom("id", "size", "market", "status", "symbol"), fc.jsonValue())),
    ),
  ),
  fc.record(
    { trading: fc.dictionary(fc.string(), fc.jsonValue()), oraclePrices: fc.jsonValue() },
    { requiredKeys: [] },
  ),
);

let cases = 0;
let refused = 0;

describe("the message handler never throws", () => {
  it("arbitrary JSON as a channel's contents, single or batched, with views on the subscriptions", async () => {
    await fc.assert(
      fc.asyncProperty(
        channels,
        fc.array(contents, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (channel, bodies, batched) => {
          cases++;
          const socket = await connectIndexerSocket({ url: "ws://memory/v4/ws", WebSocket: MemorySocket });
          const server = MemorySocket.last as MemorySocket;
          const errors: unknown[] = [];
          socket.on("error", (error) => errors.push(error));
          const sub =
            channel === "v4_orderbook"
              ? watchOrderBook(socket, { market: IDS[channel] }).subscription
              : channel === "v4_subaccounts"
                ? watchSubaccount(socket, { owner: "perpx1abc", number: 0 }).subscription
                : socket.subscribe(
                    channel,
                    ...((IDS[channel] === channel ? [] : [IDS[channel]]) as [string]),
                  );
          await sub.ready();
          expect(() => {
            if (batched) server.data(channel, bodies, { type: "channel_batch_data" });
            else for (const body of bodies) server.data(channel, body, { subaccountNumber: 0 });
          }).not.toThrow();
          if (errors.length) {
            refused++;
            expect(server.sent.some((m) => m.type === "unsubscribe")).toBe(true);
          }
          await socket.close();
        },
      ),
      { numRuns: 300 },
    );
    expect(cases).toBeGreaterThanOrEqual(300);
    process.stdout.write(`guard property: ${cases} cases, ${refused} refused and resynced, 0 thrown\n`);
  }, 120_000);

  it("arbitrary JSON as a whole frame", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue(),
          fc.string(),
          fc.record({
            type: fc.constantFrom("channel_data", "subscribed", "error", "connected"),
            message_id: fc.jsonValue(),
            channel: fc.jsonValue(),
            id: fc.jsonValue(),
            contents: fc.jsonValue(),
          }),
        ),
        async (frame) => {
          const socket = await connectIndexerSocket({ url: "ws://memory/v4/ws", WebSocket: MemorySocket });
          const server = MemorySocket.last as MemorySocket;
          socket.subscribe("v4_orderbook", "BTC-USD");
          expect(() => server.deliver(frame)).not.toThrow();
          await socket.close();
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});
