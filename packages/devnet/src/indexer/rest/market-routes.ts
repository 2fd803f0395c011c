/**
 * The market-data routes (`spec/indexer-api.md` 1.8): perpetual markets, order books, trades,
 * candles and sparklines.
 */
import { INDEXER_ROUTES } from "@perpx/core/indexer";
import { type CandleResolution, RESOLUTIONS } from "../models/candles.js";
import { invalidParam, notFound, ok, okJson, paginate, type Route } from "./routes.js";

const TICKER_MESSAGE = "ticker must be a valid ticker (BTC-USD, etc)";
const RESOLUTION_MESSAGE = `resolution must be a valid Candle Resolution, one of ${RESOLUTIONS.join(",")}`;
const SPARKLINE_PERIODS = {
  ONE_DAY: { resolution: "1HOUR", spanMs: 86_400_000 },
  SEVEN_DAYS: { resolution: "4HOURS", spanMs: 7 * 86_400_000 },
} as const;

/** The market-data routes. */
export const marketRoutes: readonly Route[] = [
  {
    path: INDEXER_ROUTES.getPerpetualMarkets.path,
    cache: 1,
    handler: (checks, indexer) => {
      const limit = checks.limit();
      const known = (t: string) => indexer.markets.market(t) !== undefined;
      const ticker = checks.oneOf("ticker", known, TICKER_MESSAGE, "query", true);
      // The reference checks `market` with the ticker rule, message and all.
      const market = checks.oneOf("market", known, TICKER_MESSAGE, "query", true);
      if (ticker !== undefined && market !== undefined)
        return invalidParam("Only one of ticker or market may be provided");
      const one = ticker ?? market;
      if (one === undefined) return okJson(indexer.perpetualMarketsJson(limit));
      const body = indexer.perpetualMarket(one);
      return body === undefined
        ? notFound(`${one} not found in markets of type PERPETUAL`)
        : ok({ markets: { [one]: body } });
    },
  },
  {
    path: INDEXER_ROUTES.getOrderbook.path,
    cache: 1,
    handler: (checks, indexer) => {
      const ticker = checks.raw("ticker", "params") ?? "";
      const book = indexer.orderbook(ticker);
      return book === undefined ? notFound(`${ticker} not found in markets of type PERPETUAL`) : ok(book);
    },
  },
  {
    path: INDEXER_ROUTES.getTrades.path,
    cache: 1,
    handler: (checks, indexer) => {
      const limit = checks.limit();
      const before = checks.createdBeforeOrAt();
      const page = checks.page();
      const ticker = checks.oneOf(
        "ticker",
        (t) => indexer.markets.market(t) !== undefined,
        TICKER_MESSAGE,
        "params",
      );
      const trades = ticker === undefined ? undefined : indexer.tradesOf(ticker);
      if (trades === undefined) return notFound(`${ticker} not found in tickers of type PERPETUAL`);
      const filtered = trades.filter(
        (t) =>
          (before.height === undefined || BigInt(t.createdAtHeight) <= before.height) &&
          (before.time === undefined || Date.parse(t.createdAt) <= before.time.getTime()),
      );
      const { items, paging } = paginate(filtered, limit, page);
      return ok({ trades: items, ...paging });
    },
  },
  {
    path: INDEXER_ROUTES.getCandles.path,
    cache: 1,
    handler: (checks, indexer) => {
      const limit = checks.limit();
      const ticker = checks.oneOf(
        "ticker",
        (t) => indexer.markets.market(t) !== undefined,
        TICKER_MESSAGE,
        "params",
      );
      const rawResolution = checks.raw("resolution");
      if (rawResolution === undefined) checks.fail("resolution", RESOLUTION_MESSAGE, undefined, "query");
      const resolution = checks.oneOf(
        "resolution",
        (r) => RESOLUTIONS.includes(r as CandleResolution),
        RESOLUTION_MESSAGE,
        "query",
      );
      const from = checks.optionalIso("fromISO");
      const to = checks.optionalIso("toISO");
      if (ticker === undefined || resolution === undefined) return ok({ candles: [] });
      const candles = (indexer.candlesOf(ticker, resolution as CandleResolution) ?? []).filter(
        (c) =>
          (from === undefined || Date.parse(c.startedAt) >= from.getTime()) &&
          (to === undefined || Date.parse(c.startedAt) < to.getTime()),
      );
      return ok({ candles: candles.slice(0, limit) });
    },
  },
  {
    path: INDEXER_ROUTES.getSparklines.path,
    cache: 10,
    handler: (checks, indexer) => {
      const period = checks.oneOf(
        "timePeriod",
        (p) => p in SPARKLINE_PERIODS,
        `timePeriod must be a valid Time Period, one of ${Object.keys(SPARKLINE_PERIODS)}`,
        "query",
      );
      if (period === undefined) return ok({});
      const { resolution, spanMs } = SPARKLINE_PERIODS[period as keyof typeof SPARKLINE_PERIODS];
      const since = (indexer.head?.time.getTime() ?? 0) - spanMs;
      const body: Record<string, string[]> = {};
      for (const market of indexer.markets.markets()) {
        body[market.ticker] = (indexer.candlesOf(market.ticker, resolution) ?? [])
          .filter((c) => Date.parse(c.startedAt) > since)
          .map((c) => c.close);
      }
      return ok(body);
    },
  },
];
