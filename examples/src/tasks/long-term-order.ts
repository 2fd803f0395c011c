/**
 * Place and cancel a long-term order: a post-only limit sell 10% over the oracle price, good for an
 * hour (`goodTil: { seconds: 3600 }`). Long-term orders are stateful: placing and cancelling each
 * land in a block.
 *
 * Output (checked by tests/examples.test.ts):
 *   BTC-USD oracle <price> USD
 *   placed long-term sell 0.001 BTC-USD @ <price> (post-only), client id <id>
 *   status: RESTING
 *   cancelled client id <id> in block <height>
 *   status: CANCELED
 */
import { Exact } from "@perpx/core";
import { runExample } from "../support/network.js";
import { orderState } from "../support/wait.js";

await runExample(async ({ client }) => {
  const btc = await client.getMarket({ ticker: "BTC-USD" });
  console.log(`BTC-USD oracle ${btc.oraclePrice} USD`);
  const price = new Exact(btc.oraclePrice).times("1.1").toFixed(0, "halfExpand");
  const order = await client.placeOrder({
    market: "BTC-USD",
    side: "SELL",
    size: "0.001",
    price,
    postOnly: true,
    goodTil: { seconds: 3_600 },
    rounding: "up",
  });
  console.log(`placed ${order.kind} sell 0.001 BTC-USD @ ${price} (post-only), client id ${order.clientId}`);
  console.log(`status: ${(await orderState(order, (s) => s.status === "RESTING")).status}`);

  const cancel = await client.cancelOrder({ market: "BTC-USD", clientId: order.clientId });
  console.log(`cancelled client id ${order.clientId} in block ${cancel.height}`);
  console.log(`status: ${(await orderState(order)).status}`);
});
