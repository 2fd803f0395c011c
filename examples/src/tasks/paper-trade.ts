/**
 * Paper trading at real prices: fork the network into a local devnet with this wallet's account
 * (same key, same balances), trade a round there (a market buy, then a market sell of the same
 * size), and print its PnL at the live network's prices. The fork's oracle and book follow the live
 * network's; nothing is sent to the live network.
 *
 * Output (checked by tests/examples.test.ts):
 *   forked <network> at height <height>: moniker perpx-FORK, account <address>
 *   live BTC-USD oracle <price> USD, fork oracle <price> USD
 *   paper buy 0.002 BTC-USD at <price>, sell at <price>
 *   round PnL <pnl> USDC (fees <fees> USDC) at live prices
 *   live position unchanged: <position>
 */
import type { CompositeClient, OrderHandle } from "@perpx/composite-client";
import { Exact } from "@perpx/core";
import { startFork } from "@perpx/fork";
import { connectPatiently, runExample } from "../support/network.js";
import { orderState, patiently, waitFor } from "../support/wait.js";

const position = async (client: CompositeClient) =>
  (await client.account()).positions.find((p) => p.market === "BTC-USD")?.size ?? "none";

await runExample(async ({ name, client, wallet, devnet }) => {
  const before = await position(client);
  const fork = await startFork({
    from: name,
    env: process.env,
    ...(devnet === undefined ? {} : { endpoints: devnet.endpoints }),
    accounts: [wallet.address],
    ports: "free",
    blockTimeMs: 200,
  });
  try {
    // The fork runs in this process (its blocks, its mirror maker's orders): on a loaded machine a
    // read may be answered after the client's per-call deadline, so reads go `patiently`.
    const paper = await connectPatiently({ network: name, endpoints: fork.devnet.endpoints, wallet });
    try {
      console.log(
        `forked ${fork.state.source} at height ${fork.state.height}: moniker ${fork.devnet.app.info.moniker}, account ${wallet.address}`,
      );
      // The fork's oracle follows the live one (the shadow sets each live price on the fork), and
      // its book too: the mirror maker rests the live book's best levels, which the paper trades
      // fill against (a market order sent before they rest finds no book to fill on).
      const live = await patiently(() => client.getMarket({ ticker: "BTC-USD", refresh: true }));
      await waitFor("the fork's oracle to follow", () =>
        fork.shadow === undefined || fork.shadow.status().oracleUpdates > 0 ? true : undefined,
      );
      await waitFor("the fork's book to hold the live levels", async () => {
        const book = await paper.context.indexer?.getOrderbook({ ticker: "BTC-USD" });
        return book === undefined || (book.asks.length > 0 && book.bids.length > 0) ? true : undefined;
      });
      const shadowed = await patiently(() => paper.getMarket({ ticker: "BTC-USD", refresh: true }));
      console.log(`live BTC-USD oracle ${live.oraclePrice} USD, fork oracle ${shadowed.oraclePrice} USD`);

      const trade = async (
        side: "BUY" | "SELL",
      ): Promise<{ price: string; fees: string; handle: OrderHandle }> => {
        const handle = await paper.placeOrder({
          market: "BTC-USD",
          side,
          type: "MARKET",
          size: "0.002",
          slippage: "1%",
        });
        const result = await orderState(handle);
        if (result.status !== "FILLED")
          throw new Error(`the paper ${side} ended ${result.status} (${result.reason ?? "no reason"})`);
        return { price: result.averagePrice ?? "0", fees: result.fees, handle };
      };
      const buy = await trade("BUY");
      const sell = await trade("SELL");
      console.log(`paper buy 0.002 BTC-USD at ${buy.price}, sell at ${sell.price}`);
      const fees = new Exact(buy.fees).plus(sell.fees);
      const pnl = new Exact(sell.price).minus(buy.price).times("0.002").minus(fees);
      console.log(`round PnL ${pnl.toString()} USDC (fees ${fees.toString()} USDC) at live prices`);
    } finally {
      paper.close();
    }
  } finally {
    await fork.stop();
  }
  console.log(`live position unchanged: ${(await position(client)) === before ? before : "CHANGED"}`);
});
