/**
 * Markets and a live order book: a market's grid and oracle price from the client's cache, then
 * the market's order book streamed by the client (`client.orderBook`, over its own indexer socket),
 * printed as it changes.
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
import type { OrderBook } from "@perpx/indexer-client";
import { runExample } from "../support/network.js";

await runExample(async ({ client }) => {
  for (const ticker of ["BTC-USD", "ETH-USD"]) {
    const market = await client.getMarket({ ticker });
    const base = ticker.split("-")[0];
    console.log(
      `${ticker}: oracle ${market.oraclePrice} USD, tick ${tickSize(market)} USD, step ${stepSize(market)} ${base}, status ${market.status}`,
    );
  }
  // The book streams over the client's own indexer socket: no second connection.
  const live = await client.orderBook({ market: "BTC-USD" });
  const line = (book: OrderBook) => {
    const [bid, ask] = [book.bestBid(), book.bestAsk()];
    const side = (level: { price: string; size: string } | undefined) =>
      level ? `${level.size} @ ${level.price}` : "none";
    return `book BTC-USD: best bid ${side(bid)}, best ask ${side(ask)}, spread ${book.spread() ?? "none"}`;
  };
  try {
    // The snapshot, then two changes as the market maker (or other traders) move the book.
    let shown = 0;
    for await (const _top of live.updates()) {
      const book = live.book(); // undefined only while it resyncs after a dropped socket
      if (!book) continue;
      console.log(line(book));
      shown += 1;
      if (shown === 3) break;
    }
    const levels = (live.book()?.depth("bids", { levels: 3 }) ?? []).map((l) => `${l.size} @ ${l.price}`);
    console.log(`top 3 bids: ${levels.join(", ")}`);
  } finally {
    live.close();
  }
});
