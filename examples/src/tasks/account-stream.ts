/**
 * The account and its positions, live: the indexer's subaccount feed (snapshot, then updates)
 * keeps a view of USDC, positions, orders and fills; a market buy then shows up on it as a fill and
 * a position. `client.account()` gives the same account from the node (equity at the oracle price)
 * with the indexer's entry price and unrealized PnL.
 *
 * Output (checked by tests/examples.test.ts):
 *   feed: equity <amount> USDC, <n> open position(s)
 *   bought 0.001 BTC-USD: FILLED
 *   feed: fill BUY 0.001 BTC-USD @ <price>
 *   feed: position BTC-USD LONG <size>, entry <price>
 *   account: equity <amount> USDC, USDC <amount>, free collateral <amount>
 *   position: BTC-USD LONG <size>, oracle <price>, entry <price>, unrealized PnL <pnl> USD
 */
import { formatPrice, formatSize, formatUsd } from "@perpx/composite-client";
import { connectIndexerSocket, watchSubaccount } from "@perpx/indexer-client";
import { runExample } from "../support/network.js";
import { orderState, waitFor } from "../support/wait.js";

await runExample(async ({ client, wallet, indexerWs }) => {
  if (indexerWs === undefined)
    throw new Error("this network has no indexer WebSocket (PERPX_INDEXER_WS_URL)");
  const socket = await connectIndexerSocket({ url: indexerWs });
  const live = watchSubaccount(socket, { owner: wallet.address, number: 0 });
  try {
    const view = await live.ready();
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const equity = view.equity();
    console.log(
      `feed: equity ${equity === undefined ? "unknown" : formatUsd(equity)} USDC, ${view.positions().filter((p) => p.status === "OPEN").length} open position(s)`,
    );
    const fillsBefore = view.fills().length;

    const order = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      type: "MARKET",
      size: "0.001",
      slippage: "1%",
    });
    console.log(`bought 0.001 BTC-USD: ${(await orderState(order)).status}`);

    const fill = await waitFor("the fill on the feed", () =>
      view
        .fills()
        .slice(fillsBefore)
        .find((f) => f.ticker === "BTC-USD"),
    );
    console.log(`feed: fill ${fill.side} ${fill.size} ${fill.ticker} @ ${formatPrice(fill.price, btc)}`);
    const position = await waitFor("the position on the feed", () =>
      view.positions().find((p) => p.market === "BTC-USD" && p.status === "OPEN"),
    );
    console.log(
      `feed: position ${position.market} ${position.side} ${formatSize(position.size, btc)}, entry ${formatPrice(position.entryPrice, btc)}`,
    );

    // The account's exact figures, rounded for people by its `display`.
    const { display } = await client.account();
    console.log(
      `account: equity ${display.equity} USDC, USDC ${display.usdc}, free collateral ${display.freeCollateral}`,
    );
    for (const p of display.positions) {
      console.log(
        `position: ${p.market} ${p.side} ${p.size}, oracle ${p.oraclePrice}, entry ${p.entryPrice}, unrealized PnL ${p.unrealizedPnl} USD`,
      );
    }
  } finally {
    live.close();
    await socket.close();
  }
});
