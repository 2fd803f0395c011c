/**
 * Markets and a live order book: a market's grid and oracle price from the client's cache, then
 * the market's order book from the indexer's WebSocket feed, printed as it changes.
 *
 * Output (checked by tests/examples.test.ts):
 *   BTC-USD: oracle <price> USD, tick <tick> USD, step <step> BTC, status ACTIVE
 *   ETH-USD: oracle <price> USD, tick <tick> USD, step <step> ETH, status ACTIVE
 *   book BTC-USD: best bid <size> @ <price>, best ask <size> @ <price>, spread <spread>
 *   book BTC-USD: best bid <size> @ <price>, best ask <size> @ <price>, spread <spread>
 *   book BTC-USD: best bid <size> @ <price>, best ask <size> @ <price>, spread <spread>
 *   top 3 bids: <levels>
 */
import { stepSize, tickSize } from "@perpx/core";
import { connectIndexerSocket, type OrderBook, watchOrderBook } from "@perpx/indexer-client";
import { runExample } from "../support/network.js";

await runExample(async ({ client, indexerWs }) => {
  for (const ticker of ["BTC-USD", "ETH-USD"]) {
    const market = await client.getMarket({ ticker });
    const base = ticker.split("-")[0];
    console.log(
      `${ticker}: oracle ${market.oraclePrice} USD, tick ${tickSize(market)} USD, step ${stepSize(market)} ${base}, status ${market.status}`,
    );
  }
  if (indexerWs === undefined)
    throw new Error("this network has no indexer WebSocket (PERPX_INDEXER_WS_URL)");

  const socket = await connectIndexerSocket({ url: indexerWs });
  const live = watchOrderBook(socket, { market: "BTC-USD" });
  const line = (book: OrderBook) => {
    const [bid, ask] = [book.bestBid(), book.bestAsk()];
    const side = (level: { price: string; size: string } | undefined) =>
      level ? `${level.size} @ ${level.price}` : "none";
    return `book BTC-USD: best bid ${side(bid)}, best ask ${side(ask)}, spread ${book.spread() ?? "none"}`;
  };
  try {
    // The snapshot, then two changes as the market maker (or other traders) move the book.
    let shown = 0;
    const done = new Promise<void>((resolve) => {
      live.on("change", () => {
        if (shown >= 3) return;
        console.log(line(live.book));
        shown += 1;
        if (shown === 3) resolve();
      });
    });
    await live.ready();
    await done;
    const levels = live.book.depth("bids", { levels: 3 }).map((l) => `${l.size} @ ${l.price}`);
    console.log(`top 3 bids: ${levels.join(", ")}`);
  } finally {
    live.close();
    await socket.close();
  }
});
