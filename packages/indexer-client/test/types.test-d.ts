/** The socket's public types: per-channel snapshot and update contents, and the id rules. */
import type {
  IndexerChannelSnapshot,
  OrderbookUpdateContents,
  SubaccountUpdateContents,
} from "@perpx/core/indexer";
import { describe, expectTypeOf, it } from "vitest";
import type { IndexerSocket } from "../src/index.js";
import type { Subscription, SubscriptionEvent } from "../src/ws.js";

declare const socket: IndexerSocket;

describe("IndexerSocket.subscribe", () => {
  it("types each channel's snapshot and updates", () => {
    const book = socket.subscribe("v4_orderbook", "BTC-USD", { batched: true });
    expectTypeOf(book).toEqualTypeOf<Subscription<"v4_orderbook">>();
    expectTypeOf(book.ready()).resolves.toEqualTypeOf<IndexerChannelSnapshot<"v4_orderbook">>();
    book.on("update", ({ contents }) => expectTypeOf(contents).toEqualTypeOf<OrderbookUpdateContents>());
    const heights = socket.subscribe("v4_block_height");
    heights.on("snapshot", ({ contents }) => expectTypeOf(contents.height).toBeString());
    heights.on("update", ({ contents }) => expectTypeOf(contents.blockHeight).toBeString());
    const parent = socket.subscribe("v4_parent_subaccounts", "perpx1abc/0");
    parent.on("update", (event) => {
      expectTypeOf(event.contents).toEqualTypeOf<SubaccountUpdateContents>();
      expectTypeOf(event.subaccountNumber).toEqualTypeOf<number | undefined>();
    });
    expectTypeOf<SubscriptionEvent<"v4_trades">["type"]>().toEqualTypeOf<"snapshot" | "update" | "reset">();
  });

  it("requires an id exactly where the channel takes one", () => {
    // @ts-expect-error v4_trades needs a ticker
    socket.subscribe("v4_trades");
    // @ts-expect-error v4_markets takes no id
    socket.subscribe("v4_markets", "BTC-USD");
    // @ts-expect-error not a channel
    socket.subscribe("v4_nope", "x");
  });
});
