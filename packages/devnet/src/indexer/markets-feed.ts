/**
 * The contents of the `v4_markets` updates, as the reference sends them: ender publishes each
 * oracle price update as its own message, `{oraclePrices: {ticker: {oraclePrice, effectiveAt,
 * effectiveAtHeight, marketId}}}`, and roundtable's market updater the trading figures that
 * changed, `{trading: {ticker: {...changed}}}`, in another.
 */
import type { MarketsModel, OraclePriceBody, PerpetualMarketBody } from "./models/markets.js";

/** The contents of one oracle price update of `marketId`, keyed by the tickers priced by it. */
export function oraclePriceContents(
  markets: MarketsModel,
  marketId: number,
): { oraclePrices: Record<string, OraclePriceBody> } | undefined {
  const price = markets.oraclePriceBody(marketId);
  if (price === undefined) return undefined;
  const oraclePrices: Record<string, OraclePriceBody> = {};
  for (const market of markets.markets()) {
    if (market.marketId === marketId) oraclePrices[market.ticker] = price;
  }
  return Object.keys(oraclePrices).length === 0 ? undefined : { oraclePrices };
}

/**
 * The trading figures that changed between two sets of market bodies (the oracle price apart,
 * which goes in its own messages), each market's with its ticker; undefined when none changed.
 */
export function tradingContents(
  markets: MarketsModel,
  before: ReadonlyMap<string, PerpetualMarketBody>,
  after: ReadonlyMap<string, PerpetualMarketBody>,
): { trading: Record<string, Partial<PerpetualMarketBody>> } | undefined {
  const trading: Record<string, Partial<PerpetualMarketBody>> = {};
  for (const market of markets.markets()) {
    const now = after.get(market.ticker);
    if (now === undefined) continue;
    const was = before.get(market.ticker);
    const changed: Partial<PerpetualMarketBody> = {};
    for (const key of Object.keys(now) as (keyof PerpetualMarketBody)[]) {
      if (key === "oraclePrice") continue;
      if (was === undefined || was[key] !== now[key]) Object.assign(changed, { [key]: now[key] });
    }
    if (Object.keys(changed).length > 0) trading[market.ticker] = { ...changed, ticker: market.ticker };
  }
  return Object.keys(trading).length === 0 ? undefined : { trading };
}
