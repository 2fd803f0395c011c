/**
 * Market: its parameters, the live order book from the WebSocket (`OrderBook`), recent trades (live),
 * candles at a selectable resolution (an SVG chart and a table), and funding history.
 */
import type { CandleResolution, CandleResponseObject, TradeResponseObject } from "@perpx/core/indexer";
import { watchOrderBook } from "@perpx/indexer-client";
import type { Explorer } from "../context.js";
import { facts, h, section, slot, table } from "../dom.js";
import { percent, time } from "../format.js";

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

/** A line of closes over time, newest candle last. */
function chart(candles: readonly CandleResponseObject[]): SVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "chart");
  svg.setAttribute("viewBox", "0 0 300 100");
  svg.setAttribute("preserveAspectRatio", "none");
  const points = [...candles].reverse().map((c) => Number(c.close));
  if (points.length > 0) {
    const low = Math.min(...points);
    const high = Math.max(...points);
    const span = high - low || 1;
    const step = points.length > 1 ? 300 / (points.length - 1) : 0;
    // One candle: a dot in the middle (a line needs two points).
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", "#0b57d0");
    line.setAttribute("stroke-width", "1.5");
    line.setAttribute("vector-effect", "non-scaling-stroke");
    line.setAttribute(
      "points",
      points.map((p, i) => `${(i * step).toFixed(1)},${(95 - ((p - low) / span) * 90).toFixed(1)}`).join(" "),
    );
    svg.append(line);
    if (points.length === 1) {
      const dot = document.createElementNS(ns, "circle");
      dot.setAttribute("cx", "150");
      dot.setAttribute("cy", "50");
      dot.setAttribute("r", "2");
      dot.setAttribute("fill", "#0b57d0");
      svg.append(dot);
    }
  }
  return svg;
}

/** Renders the market page of `ticker`; returns its cleanup. */
export function marketPage(ex: Explorer, root: HTMLElement, ticker: string): () => void {
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
    h("h1", { "data-field": "title" }, ticker),
    section("Market", "market", info.element),
    section("Order book", "book", bookState, h("div", { class: "book" }, bids, asks)),
    section("Recent trades", "trades", trades.element),
    section("Candles", "candles", select, candles.element),
    section("Funding history", "funding", funding.element),
  );

  ex.markets().then(
    (markets) => {
      const market = markets[ticker];
      if (market === undefined) {
        info.fail(new Error(`No market ${ticker}`));
        return;
      }
      info.fill(
        facts([
          ["Oracle price", "oracle-price", market.oraclePrice],
          ["Status", "status", market.status],
          ["24h volume", "volume", market.volume24H],
          ["Open interest", "open-interest", market.openInterest],
          ["Next funding rate", "next-funding", percent(market.nextFundingRate)],
          ["Tick size", "tick-size", market.tickSize],
          ["Step size", "step-size", market.stepSize],
          ["Initial margin", "imf", market.initialMarginFraction],
        ]),
      );
    },
    (error: unknown) => info.fail(error),
  );

  // The book: the WebSocket's snapshot and updates in an OrderBook, redrawn at most once a frame.
  const live = watchOrderBook(ex.socket, { market: ticker, batched: true });
  let frame = 0;
  const draw = () => {
    frame = 0;
    const side = (name: "bids" | "asks") =>
      table(
        name,
        [name === "bids" ? "Bid" : "Ask", "Size", "Total"],
        live.book.depth(name, { levels: LEVELS }).map((level) => [level.price, level.size, level.total]),
        "empty",
      );
    bids.replaceChildren(side("bids"));
    asks.replaceChildren(side("asks"));
    bookState.className = live.synced ? "ok" : "loading";
    bookState.textContent = live.synced
      ? `live · mid ${live.book.mid() ?? "-"} · spread ${live.book.spread() ?? "-"}`
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
        ["Time", "Side", "Price", "Size"],
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

  const loadCandles = () => {
    const resolution = select.value as CandleResolution;
    ex.indexer.getCandles({ ticker, resolution, limit: 60 }).then(
      ({ candles: list }) =>
        candles.fill(
          chart(list),
          table(
            "candles",
            ["Start", "Open", "High", "Low", "Close", "Volume (USD)", "Trades"],
            list
              .slice(0, 20)
              .map((c) => [time(c.startedAt), c.open, c.high, c.low, c.close, c.usdVolume, c.trades]),
          ),
        ),
      (error: unknown) => candles.fail(error),
    );
  };
  select.addEventListener("change", loadCandles);
  loadCandles();

  ex.indexer.getHistoricalFunding({ ticker, limit: 20 }).then(
    ({ historicalFunding }) =>
      funding.fill(
        table(
          "funding",
          ["Effective at", "Height", "Rate", "Price"],
          historicalFunding.map((f) => [time(f.effectiveAt), f.effectiveAtHeight, percent(f.rate), f.price]),
        ),
      ),
    (error: unknown) => funding.fail(error),
  );

  return () => {
    if (frame !== 0) cancelAnimationFrame(frame);
    live.close();
    tradeFeed.unsubscribe();
  };
}
