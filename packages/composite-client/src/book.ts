import { InvalidOrderError, priceToSubticks, sizeToQuantums } from "@perpx/core";
import type { IndexerClient } from "@perpx/indexer-client";
import type { Market } from "@perpx/node-client";
import type { WireOrder } from "./orderPlan.js";

/**
 * Checks that a MARKET order's worst price reaches enough of the indexer's book to fill its size:
 * walks the asks (a buy) or the bids (a sell) from the best level until the size is covered, and
 * refuses the order when that takes a price beyond the bound, or the book is too thin.
 *
 * @param params - the indexer client, the market, the planned wire order and its human size.
 * @throws {InvalidOrderError} naming the price the size needs and the bound, before anything is signed.
 *
 * @example
 * ```ts
 * const buy = { market: "BTC-USD", side: "BUY", type: "MARKET", slippage: "1%" } as const;
 * const plan = { market: btc, height: client.height(), nowMs: Date.now(), clientId: 1, subaccount };
 * const small = planOrder({ ...buy, size: "0.001" }, plan);
 * await checkBookReach({ indexer, market: btc, wire: small, size: "0.001" }); // resolves: the asks cover it
 * const huge = planOrder({ ...buy, size: "1000" }, plan);
 * await checkBookReach({ indexer, market: btc, wire: huge, size: "1000" }); // throws InvalidOrderError
 * ```
 */
export async function checkBookReach(params: {
  indexer: IndexerClient;
  market: Market;
  wire: WireOrder;
  size: string;
}): Promise<void> {
  const { indexer, market, wire } = params;
  const book = await indexer.getOrderbook({ ticker: market.ticker });
  const buy = wire.side === "BUY";
  const levels = buy ? book.asks : book.bids;
  let covered = 0n;
  for (const level of levels) {
    const subticks = priceToSubticks(level.price, market, { rounding: "nearest" });
    if (buy ? subticks > wire.subticks : subticks < wire.subticks) {
      throw new InvalidOrderError(
        "slippage",
        `filling ${params.size} ${market.ticker} needs a price of ${level.price} or ${buy ? "more" : "less"}, beyond the slippage bound; widen it or give a worst price`,
      );
    }
    covered += sizeToQuantums(level.size, market, { rounding: "down" });
    if (covered >= wire.quantums) return;
  }
  throw new InvalidOrderError(
    "size",
    `the ${market.ticker} book holds less than ${params.size} on the ${buy ? "ask" : "bid"} side`,
  );
}
