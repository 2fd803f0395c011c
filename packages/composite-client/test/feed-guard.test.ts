/**
 * Following an order on the feed never hands a caller's failure to the feed: an `onUpdate` that
 * throws ends that wait with its error, and the subscription delivering the update is untouched
 * (before, the throw went up the subscription's listener, where it escaped the socket's message
 * handler or, caught there, forced a resync of the account).
 */
import { LiveSubaccount } from "@perpx/indexer-client";
import { Subscription } from "@perpx/indexer-client/ws";
import { expect, it } from "vitest";
import { followOnFeed } from "../src/orderOutcome.js";
import { planOrder } from "../src/orderPlan.js";
import { btc, planContext } from "./fixtures/btc-market.js";

it("an onUpdate that throws rejects followOnFeed and leaves the subscription alone", async () => {
  const subscription = new Subscription("v4_subaccounts", "perpx1owner/0", false, () => {});
  const sink = subscription.sink();
  const live = new LiveSubaccount(subscription);
  const wire = planOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" }, planContext);
  const order = {
    wire,
    orderId: {} as never,
    market: btc,
    placedAtHeight: 1_000n,
    canceled: () => false,
  };
  const following = followOnFeed({
    live,
    order,
    onUpdate: () => {
      throw new Error("a caller's bug");
    },
    signal: new AbortController().signal,
  });
  const resting = {
    id: "o1",
    subaccountId: "s",
    clientId: String(wire.clientId),
    clobPairId: "0",
    status: "OPEN",
    orderFlags: "64",
    size: "0.001",
    totalFilled: "0",
  } as const;
  expect(() => sink.snapshot({})).not.toThrow();
  expect(() => sink.update({ orders: [resting] }, 1)).not.toThrow();
  await expect(following).rejects.toThrow("a caller's bug");
  expect(live.listenerCount("change")).toBe(0);
  expect(subscription.state).toBe("live");
});
