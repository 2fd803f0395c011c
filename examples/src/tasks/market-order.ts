/**
 * A market order with a slippage bound: buy 0.002 BTC at any price up to 1% over the oracle price.
 * It is an immediate-or-cancel short-term order whose worst price is that bound; it fills against
 * the book (on a devnet, its market maker's ladder) and the handle reports the fills.
 *
 * Output (checked by tests/examples.test.ts):
 *   BTC-USD oracle <price> USD, best ask <price>
 *   market buy 0.002 BTC-USD, slippage 1%: client id <id>
 *   status: FILLED, filled 0.002 BTC in <n> fill(s)
 *   position: LONG 0.002 BTC-USD
 */
import { runExample } from "../support/network.js";
import { orderState } from "../support/wait.js";

await runExample(async ({ client }) => {
  const btc = await client.getMarket({ ticker: "BTC-USD", refresh: true });
  const book = await client.context.indexer?.getOrderbook({ ticker: "BTC-USD" });
  console.log(`BTC-USD oracle ${btc.oraclePrice} USD, best ask ${book?.asks[0]?.price ?? "unknown"}`);

  const order = await client.placeOrder({
    market: "BTC-USD",
    side: "BUY",
    type: "MARKET",
    size: "0.002",
    slippage: "1%",
  });
  console.log(`market buy 0.002 BTC-USD, slippage 1%: client id ${order.clientId}`);
  const result = await orderState(order);
  console.log(`status: ${result.status}, filled ${result.filledSize} BTC in ${result.fills.length} fill(s)`);

  const { positions } = await client.account();
  const position = positions.find((p) => p.market === "BTC-USD");
  console.log(`position: ${position ? `${position.side} ${position.size} BTC-USD` : "none"}`);
});
