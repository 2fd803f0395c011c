/**
 * Stop and take-profit orders: after buying 0.002 BTC, a stop-market sell triggers 5% under the
 * oracle price (its worst price 1% under the trigger) and a take-profit limit sell triggers 5%
 * over it. Both are conditional orders: stateful, they wait in the chain's state until the oracle
 * price crosses their trigger. Here both are cancelled before that. (The chain takes reduce-only
 * only on immediate-or-cancel orders: the stop-market order is one, the take-profit limit is not.)
 *
 * Output (checked by tests/examples.test.ts):
 *   bought 0.002 BTC-USD: FILLED
 *   stop-market sell 0.002 @ trigger <price>: conditional, client id <id>
 *   take-profit sell 0.002 @ <price>, trigger <price>: conditional, client id <id>
 *   stop: RESTING, take-profit: RESTING
 *   cancelled both: CANCELED, CANCELED
 */
import { Exact } from "@perpx/core";
import { runExample } from "../support/network.js";
import { orderState } from "../support/wait.js";

await runExample(async ({ client }) => {
  const bought = await client.placeOrder({
    market: "BTC-USD",
    side: "BUY",
    type: "MARKET",
    size: "0.002",
    slippage: "1%",
  });
  console.log(`bought 0.002 BTC-USD: ${(await orderState(bought)).status}`);

  const oracle = new Exact((await client.getMarket({ ticker: "BTC-USD", refresh: true })).oraclePrice);
  const stopTrigger = oracle.times("0.95").toFixed(0, "halfExpand");
  const stop = await client.placeOrder({
    market: "BTC-USD",
    side: "SELL",
    type: "STOP_MARKET",
    size: "0.002",
    triggerPrice: stopTrigger,
    slippage: "1%",
    reduceOnly: true,
    rounding: "down",
  });
  console.log(`stop-market sell 0.002 @ trigger ${stopTrigger}: ${stop.kind}, client id ${stop.clientId}`);

  const takeTrigger = oracle.times("1.05").toFixed(0, "halfExpand");
  const take = await client.placeOrder({
    market: "BTC-USD",
    side: "SELL",
    type: "TAKE_PROFIT",
    size: "0.002",
    price: takeTrigger,
    triggerPrice: takeTrigger,
  });
  console.log(
    `take-profit sell 0.002 @ ${takeTrigger}, trigger ${takeTrigger}: ${take.kind}, client id ${take.clientId}`,
  );
  const [stopNow, takeNow] = await Promise.all([
    orderState(stop, (s) => s.status === "RESTING"),
    orderState(take, (s) => s.status === "RESTING"),
  ]);
  console.log(`stop: ${stopNow.status}, take-profit: ${takeNow.status}`);

  await client.cancelOrder({ market: "BTC-USD", clientId: stop.clientId });
  await client.cancelOrder({ market: "BTC-USD", clientId: take.clientId });
  const [stopEnd, takeEnd] = await Promise.all([orderState(stop), orderState(take)]);
  console.log(`cancelled both: ${stopEnd.status}, ${takeEnd.status}`);
});
