/**
 * The chain's limits on cancels, over the wire: a `MsgBatchCancel` carries at most 100 cancels
 * (`MaxMsgBatchCancelBatchSize`), and a short-term cancel removes an order only when its
 * good-til-block is at or above the order's. `cancel_all_orders` on a market holding more short-term
 * orders than one batch, each living the 40 blocks the chain allows, must still remove every one.
 */
import { setTimeout as delay } from "node:timers/promises";
import { Exact } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { call, useMcpNet } from "./support.js";

const net = useMcpNet();

/** A hang, not a duration. */
const HANG_MS = 240_000;
/** More short-term orders than one batch cancel may carry. */
const ORDERS = 101;

describe("cancels within the chain's batch limit", () => {
  it(
    `cancel_all_orders removes ${ORDERS} resting short-term orders of one market living 40 blocks`,
    async () => {
      const account = await net.account();
      const server = await net.startServer();
      const client = await net.connect(account.credential, server);
      const oracle = new Exact((await call(client, "get_market", { ticker: "BTC-USD" })).market.oraclePrice);
      const price = oracle.times("0.5").toFixed(0, "floor");
      const openCount = async () =>
        (await call(client, "get_open_orders", { ticker: "BTC-USD" })).orders.length;
      // No block from here until the cancels are in: no order can expire, only a cancel removes one.
      net.devnet.producer.setBlockTimeMs(0);
      try {
        for (let i = 0; i < ORDERS; i++) {
          await account.client.placeOrder({
            market: "BTC-USD",
            side: "BUY",
            type: "LIMIT",
            size: "0.001",
            price,
            goodTil: { blocks: 40 },
          });
        }
        await expect.poll(openCount, { timeout: HANG_MS, interval: 250 }).toBe(ORDERS);

        const cancelling = call(client, "cancel_all_orders", { ticker: "BTC-USD", verifyTimeoutMs: 60_000 });
        // The call fails at once if it sends nothing; else the memclob drops every order at CheckTx.
        let failure: unknown;
        cancelling.catch((error: unknown) => {
          failure = error;
        });
        const deadline = Date.now() + HANG_MS;
        while ((await openCount()) > 0) {
          if (failure !== undefined) throw failure;
          expect(Date.now(), "the cancelled orders are still open").toBeLessThan(deadline);
          await delay(250);
        }
        net.devnet.producer.setBlockTimeMs(100);
        const cancelled = await cancelling;
        expect(cancelled.results).toHaveLength(ORDERS);
        expect(cancelled.results.filter((r: { cancelled: boolean }) => !r.cancelled)).toEqual([]);
      } finally {
        net.devnet.producer.setBlockTimeMs(100);
      }
    },
    HANG_MS,
  );
});
