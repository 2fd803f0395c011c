/** A live subaccount view over the loopback indexer: partial order updates merged, resync after a drop. */
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { watchSubaccount } from "../src/account/watch.js";
import { connectIndexerSocket } from "../src/ws/connect.js";
import type { IndexerSocket } from "../src/ws/connection.js";
import { type FakeIndexer, startFakeIndexer } from "./support/fake-indexer.js";

let fake: FakeIndexer;
let socket: IndexerSocket;
beforeEach(async () => {
  fake = await startFakeIndexer();
});
afterEach(async () => {
  await socket?.close();
  await fake.stop();
});

it("merges partial order updates and rebuilds from a fresh snapshot after a reconnect", async () => {
  const order = {
    id: "o1",
    status: "OPEN",
    clientId: "1",
    side: "BUY",
    size: "1",
    price: "100",
    totalFilled: "0",
  };
  const subaccount = {
    address: "perpx1abc",
    subaccountNumber: 0,
    equity: "100",
    freeCollateral: "100",
    openPerpetualPositions: {},
    assetPositions: {},
  };
  fake.snapshots.set("v4_subaccounts perpx1abc/0", { subaccount, orders: [order], blockHeight: "3" });
  socket = await connectIndexerSocket({ url: fake.url, reconnect: { initialDelayMs: 10 } });
  const live = watchSubaccount(socket, { owner: "perpx1abc", number: 0 });
  const view = await live.ready();
  expect(view.openOrders()).toEqual([order]);
  fake.publish("v4_subaccounts", "perpx1abc/0", {
    orders: [{ id: "o1", status: "OPEN", clientId: "1", totalFilled: "0.5" }],
    blockHeight: "4",
  });
  await vi.waitFor(() => expect(view.order("o1")?.totalFilled).toBe("0.5"));
  expect(view.order("o1")?.price).toBe("100");
  // While the client is away the order fills; the fresh snapshot no longer lists it.
  const resyncs: string[] = [];
  live.on("resync", ({ reason }) => resyncs.push(reason));
  fake.snapshots.set("v4_subaccounts perpx1abc/0", { subaccount, orders: [], blockHeight: "6" });
  fake.dropAll();
  await vi.waitFor(() => expect(resyncs).toEqual(["reconnect"]));
  expect(view.openOrders()).toEqual([]);
  expect(view.blockHeight).toBe("6");
  live.close();
  expect(live.subscription.state).toBe("ended");
});
