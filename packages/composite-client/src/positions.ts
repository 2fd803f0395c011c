import { assertKnownKeys, optionKeys, quantumsToSize } from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";
import { subaccountBalances } from "@perpx/node-client";
import type { ClientContext } from "./client.js";
import type { OrderHandle } from "./handle.js";
import { subaccountOf } from "./trader.js";
import { type PlacedOrders, placeHumanOrder } from "./trading.js";

const CLOSE_KEYS = optionKeys<{ market: string; slippage: string }>({ market: true, slippage: true });

/**
 * Closes the subaccount's position in a market with a reduce-only MARKET order of its whole size,
 * bounded by `slippage`.
 *
 * @param context - the client's context.
 * @param placed - the client's placed orders (the close joins them).
 * @param params - the market and the slippage bound (e.g. `"1%"`).
 * @returns the close order's handle.
 * @throws {InvalidArgumentError} when there is no position in that market.
 *
 * @example
 * ```ts
 * const order = { market: "ETH-USD", side: "BUY", type: "MARKET", size: "0.01", slippage: "1%" } as const;
 * const bought = await placeHumanOrder(context, placed, order);
 * (await bought.result({ timeoutMs: 10_000 })).status; // "FILLED"
 * const close = await closeMarketPosition(context, placed, { market: "ETH-USD", slippage: "1%" });
 * (await close.result({ timeoutMs: 10_000 })).status; // "FILLED"
 * ```
 */
export async function closeMarketPosition(
  context: ClientContext,
  placed: PlacedOrders,
  params: { market: string; slippage: string },
): Promise<OrderHandle> {
  assertKnownKeys(params, CLOSE_KEYS, "closePosition");
  const market = await context.markets.get(params.market);
  const balances = subaccountBalances(await context.node.getSubaccount(subaccountOf(context)));
  const position = balances.perpetuals.find((p) => p.perpetualId === market.perpetualId);
  if (!position || position.quantums === 0n) {
    throw new InvalidArgumentError("market", `no open position in ${market.ticker} to close`);
  }
  const long = position.quantums > 0n;
  return placeHumanOrder(context, placed, {
    market: market.ticker,
    side: long ? "SELL" : "BUY",
    type: "MARKET",
    size: quantumsToSize(long ? position.quantums : -position.quantums, market),
    slippage: params.slippage,
    reduceOnly: true,
  });
}
