/**
 * Batch cancel and cancel-all: a ladder of three short-term bids under the oracle price, cancelled
 * in one transaction (`batchCancel`, at CheckTx); then a short-term bid on BTC-USD and a long-term
 * bid on ETH-USD, both cancelled by `cancelAll()` (every order this client placed that may still
 * be open, per market).
 *
 * Output (checked by tests/examples.test.ts):
 *   ladder: 3 short-term bids at <prices>
 *   batch cancel: 3 orders, status CANCELED, CANCELED, CANCELED
 *   open: short-term BTC-USD <id>, long-term ETH-USD <id>
 *   cancel all: BTC-USD 1, ETH-USD 1
 *   status: CANCELED, CANCELED
 */
import { Exact } from "@perpx/core";
import { runExample } from "../support/network.js";
import { orderState } from "../support/wait.js";

await runExample(async ({ client }) => {
  const btc = new Exact((await client.getMarket({ ticker: "BTC-USD" })).oraclePrice);
  const prices = ["0.9", "0.85", "0.8"].map((f) => btc.times(f).toFixed(0, "halfExpand"));
  const ladder = await Promise.all(
    prices.map((price) =>
      client.placeOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price, goodTil: { blocks: 20 } }),
    ),
  );
  console.log(`ladder: 3 short-term bids at ${prices.join(", ")}`);
  await client.batchCancel({ market: "BTC-USD", clientIds: ladder.map((o) => o.clientId) });
  const ended = await Promise.all(ladder.map((o) => orderState(o)));
  console.log(`batch cancel: 3 orders, status ${ended.map((r) => r.status).join(", ")}`);

  const eth = new Exact((await client.getMarket({ ticker: "ETH-USD" })).oraclePrice);
  const short = await client.placeOrder({
    market: "BTC-USD",
    side: "BUY",
    size: "0.001",
    price: btc.times("0.9").toFixed(0, "halfExpand"),
    goodTil: { blocks: 20 },
  });
  const long = await client.placeOrder({
    market: "ETH-USD",
    side: "BUY",
    size: "0.01",
    price: eth.times("0.9").toFixed(1, "halfExpand"),
  });
  console.log(`open: ${short.kind} BTC-USD ${short.clientId}, ${long.kind} ETH-USD ${long.clientId}`);
  const cancelled = await client.cancelAll();
  const counts = Object.entries(cancelled)
    .map(([market, ids]) => `${market} ${ids.length}`)
    .sort();
  console.log(`cancel all: ${counts.join(", ")}`);
  const results = await Promise.all([orderState(short), orderState(long)]);
  console.log(`status: ${results.map((r) => r.status).join(", ")}`);
});
