/**
 * Market: its parameters, the live order book from the WebSocket (`OrderBook`), recent trades (live),
 * candles at a selectable resolution (an SVG chart with price and time axes, and a table), and
 * funding history; prices in USD, sizes in the base asset. An unknown market says so, listing the
 * markets there are.
 */
import type {
  CandleResolution,
  PerpetualMarketResponseObject,
  TradeResponseObject,
} from "@perpx/core/indexer";
import { watchOrderBook } from "@perpx/indexer-client";
import { candleChart } from "../chart.js";
import type { Explorer } from "../context.js";
import { amount, facts, h, link, section, slot, table } from "../dom.js";
import { baseAsset, percent, time } from "../format.js";

const RESOLUTIONS: readonly CandleResolution[] = [
  "1MIN",
  "5MINS",
  "15MINS",
  "30MINS",
  "1HOUR",
  "4HOURS",
  "1DAY",
];
const LEVELS = 12;
const TRADES = 25;

type Trade = Omit<TradeResponseObject, "createdAtHeight">;

/** Renders the market page of `ticker` (once the indexer's markets say it exists); returns its cleanup. */
export function marketPage(ex: Explorer, root: HTMLElement, ticker: string): () => void {
  const body = slot("market-page");
  root.append(h("h1", { "data-field": "title" }, ticker), body.element);
  let cleanup: (() => void) | undefined;
  let stopped = false;
  ex.markets().then(
    (markets) => {
      if (stopped) return;
      // Only the indexer's own keys: `constructor` or `__proto__` is no market.
      const market = Object.hasOwn(markets, ticker) ? markets[ticker] : undefined;
      if (market === undefined) {
        const known = Object.keys(markets).sort();
        body.fill(
          h("p", { class: "error", "data-field": "not-found" }, `No market ${ticker} on this network.`),
          h(
            "p",
            {},
            known.length === 0 ? "There are no markets." : "Markets: ",
            ...known.flatMap((t, i) => [i === 0 ? "" : ", ", link(`market/${t}`, t)]),
          ),
        );
        return;
      }
      body.element.replaceChildren();
      cleanup = livePage(ex, body.element, market);
    },
    (error: unknown) => body.fail(error),
  );
  return () => {
    stopped = true;
    cleanup?.();
  };
}

/** The page of a known market: its facts, the live book and trades, candles and funding. */
function livePage(ex: Explorer, root: HTMLElement, market: PerpetualMarketResponseObject): () => void {
  const { ticker } = market;
  const base = baseAsset(ticker);
  const info = slot("market");
  const bids = h("div", { class: "bids" });
  const asks = h("div", { class: "asks" });
  const bookState = h("p", { "data-field": "book-state", class: "loading" }, "waiting for the book...");
  const trades = slot("trades");
  const candles = slot("candles");
  const funding = slot("funding");
  const select = h(
    "select",
    { "aria-label": "candle resolution", "data-field": "resolution" },
    ...RESOLUTIONS.map((r) => h("option", { value: r }, r)),
  ) as HTMLSelectElement;
  root.append(
    section("Market", "market", info.element),
    section("Order book", "book", bookState, h("div", { class: "book" }, bids, asks)),
    section("Recent trades", "trades", trades.element),
    section("Candles", "candles", select, candles.element),
    section("Funding history", "funding", funding.element),
  );

  info.fill(
    facts([
      ["Oracle price", "oracle-price", amount(market.oraclePrice, "USD")],
      ["Status", "status", market.status],
      ["24h volume", "volume", amount(market.volume24H, "USD")],
      ["24h trades", "trades-24h", market.trades24H],
      ["Open interest", "open-interest", amount(market.openInterest, base)],
      ["Next funding rate", "next-funding", percent(market.nextFundingRate)],
      ["Tick size", "tick-size", amount(market.tickSize, "USD")],
      ["Step size", "step-size", amount(market.stepSize, base)],
      ["Initial margin", "imf", percent(market.initialMarginFraction)],
      ["Maintenance margin", "mmf", percent(market.maintenanceMarginFraction)],
    ]),
  );

  // The book: the WebSocket's snapshot and updates in an OrderBook, redrawn at most once a frame.
  const live = watchOrderBook(ex.socket, { market: ticker, batched: true });
  let frame = 0;
  const draw = () => {
    frame = 0;
    const side = (name: "bids" | "asks") =>
      table(
        name,
        [name === "bids" ? "Bid (USD)" : "Ask (USD)", `Size (${base})`, `Total (${base})`],
        live.book.depth(name, { levels: LEVELS }).map((level) => [level.price, level.size, level.total]),
        "empty",
      );
    bids.replaceChildren(side("bids"));
    asks.replaceChildren(side("asks"));
    bookState.className = live.synced ? "ok" : "loading";
    bookState.textContent = live.synced
      ? `live · mid ${live.book.mid() ?? "-"} USD · spread ${live.book.spread() ?? "-"} USD`
      : "resyncing...";
  };
  live.on("change", () => {
    if (frame === 0) frame = requestAnimationFrame(draw);
  });

  // Trades: the channel's snapshot, then each update in front.
  let recent: Trade[] = [];
  const drawTrades = () =>
    trades.fill(
      table(
        "trades",
        ["Time", "Side", "Price (USD)", `Size (${base})`],
        recent.slice(0, TRADES).map((t) => [time(t.createdAt), t.side, t.price, t.size]),
      ),
    );
  const tradeFeed = ex.socket.subscribe("v4_trades", ticker, { batched: true });
  tradeFeed.on("snapshot", ({ contents }) => {
    recent = [...contents.trades];
    drawTrades();
  });
  tradeFeed.on("update", ({ contents }) => {
    recent = [...contents.trades, ...recent].slice(0, TRADES);
    drawTrades();
  });

  // Candles: reloaded on a new resolution and on new trades; only the newest request draws.
  let chart: { stop(): void } | undefined;
  let asked = 0;
  const loadCandles = () => {
    const resolution = select.value as CandleResolution;
    const request = ++asked;
    ex.indexer.getCandles({ ticker, resolution, limit: 60 }).then(
      ({ candles: list }) => {
        if (request !== asked) return;
        chart?.stop();
        const drawn = candleChart(list, resolution);
        chart = drawn;
        candles.fill(
          drawn.element,
          table(
            "candles",
            [
              "Start",
              "Open (USD)",
              "High (USD)",
              "Low (USD)",
              "Close (USD)",
              `Volume (${base})`,
              "Volume (USD)",
              "Trades",
            ],
            list
              .slice(0, 20)
              .map((c) => [
                time(c.startedAt),
                c.open,
                c.high,
                c.low,
                c.close,
                c.baseTokenVolume,
                c.usdVolume,
                c.trades,
              ]),
            "no trades yet",
          ),
        );
      },
      (error: unknown) => {
        if (request === asked) candles.fail(error);
      },
    );
  };
  select.addEventListener("change", loadCandles);
  tradeFeed.on("update", loadCandles);
  loadCandles();

  ex.indexer.getHistoricalFunding({ ticker, limit: 20 }).then(
    ({ historicalFunding }) =>
      funding.fill(
        table(
          "funding",
          ["Effective at", "Height", "Rate", "Oracle price (USD)"],
          historicalFunding.map((f) => [
            time(f.effectiveAt),
            link(`block/${f.effectiveAtHeight}`, f.effectiveAtHeight),
            percent(f.rate),
            f.price,
          ]),
        ),
      ),
    (error: unknown) => funding.fail(error),
  );

  return () => {
    if (frame !== 0) cancelAnimationFrame(frame);
    live.close();
    tradeFeed.unsubscribe();
    chart?.stop();
  };
}
