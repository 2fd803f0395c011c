/**
 * Close a position: sell 0.003 BTC at market (a short), then `closePosition` buys it back with a
 * reduce-only market order bounded by 1% slippage.
 *
 * Output (checked by tests/examples.test.ts):
 *   opened: SHORT 0.003 BTC-USD (FILLED)
 *   closing: reduce-only market buy, client id <id>
 *   closed: FILLED, filled 0.003 BTC
 *   BTC-USD position: none
 */
import { runExample } from "../support/network.js";
import { orderState } from "../support/wait.js";

await runExample(async ({ client }) => {
  const sell = await client.placeOrder({
    market: "BTC-USD",
    side: "SELL",
    type: "MARKET",
    size: "0.003",
    slippage: "1%",
  });
  const sold = await orderState(sell);
  const opened = (await client.account()).positions.find((p) => p.market === "BTC-USD");
  console.log(`opened: ${opened?.side} ${opened?.size} BTC-USD (${sold.status})`);

  const close = await client.closePosition({ market: "BTC-USD", slippage: "1%" });
  console.log(`closing: reduce-only market buy, client id ${close.clientId}`);
  const closed = await orderState(close);
  console.log(`closed: ${closed.status}, filled ${closed.filledSize} BTC`);
  const after = (await client.account()).positions.find((p) => p.market === "BTC-USD");
  console.log(`BTC-USD position: ${after ? `${after.side} ${after.size}` : "none"}`);
});
