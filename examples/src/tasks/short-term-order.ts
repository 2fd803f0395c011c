/**
 * Place and cancel a short-term order: a limit buy 10% under the oracle price that lives 20 blocks
 * (`goodTil: { blocks: 20 }`). The chain accepts it at CheckTx, in its memclob; it rests until
 * cancelled (also at CheckTx) or until its good-til-block passes. A short-term order's handle
 * follows its fills block by block; that it rests is seen on the indexer (the live book).
 *
 * Output (checked by tests/examples.test.ts):
 *   BTC-USD oracle <price> USD, height <height>
 *   placed short-term buy 0.001 BTC-USD @ <price>, client id <id>
 *   on the indexer: BUY 0.001 @ <price>, <status>
 *   cancelled client id <id>
 *   status: CANCELED
 */
import { Exact } from "@perpx/core";
import { runExample } from "../support/network.js";
import { orderState, waitFor } from "../support/wait.js";

await runExample(async ({ client, wallet }) => {
  const btc = await client.getMarket({ ticker: "BTC-USD" });
  console.log(`BTC-USD oracle ${btc.oraclePrice} USD, height ${client.height()}`);
  const price = new Exact(btc.oraclePrice).times("0.9").toFixed(0, "halfExpand");
  const order = await client.placeOrder({
    market: "BTC-USD",
    side: "BUY",
    size: "0.001",
    price,
    goodTil: { blocks: 20 },
    rounding: "down",
  });
  console.log(`placed ${order.kind} buy 0.001 BTC-USD @ ${price}, client id ${order.clientId}`);
  const indexer = client.context.indexer;
  if (indexer) {
    const seen = await waitFor("the order on the indexer", async () => {
      const orders = await indexer.getOrders({
        owner: wallet.address,
        number: 0,
        ticker: "BTC-USD",
      });
      return orders.find((o) => o.clientId === String(order.clientId));
    });
    console.log(`on the indexer: ${seen.side} ${seen.size} @ ${seen.price}, ${seen.status}`);
  }

  await client.cancelOrder({ market: "BTC-USD", clientId: order.clientId });
  console.log(`cancelled client id ${order.clientId}`);
  console.log(`status: ${(await orderState(order)).status}`);
});
