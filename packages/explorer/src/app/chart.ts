/**
 * The candle chart: an SVG of OHLC candles (a wick from low to high, a body from open to close,
 * green when the close is not below the open) over a price axis in USD and a UTC time axis, with
 * the volume of each candle as a bar below. Drawn at the width of its container, and again when
 * that width changes. Styled by class from `/app.css` (the CSP allows no inline style).
 */
import type { CandleResolution, CandleResponseObject } from "@perpx/core/indexer";
import { priceTicks, RESOLUTION_MS, timeTicks } from "./chart-scale.js";

const NS = "http://www.w3.org/2000/svg";
/** Candle slots the time axis shows at least, so that a young market's few candles sit at the right. */
const MIN_SLOTS = 24;
const HEIGHT = 320;
const PAD = { left: 8, right: 72, top: 12, bottom: 26 };
/** The share of the plot's height the volume bars take at most. */
const VOLUME_SHARE = 0.22;

type Attrs = Record<string, string | number>;

function svg(tag: string, attrs: Attrs, ...children: Array<SVGElement | string>): SVGElement {
  const element = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** Draws `candles` (newest first, as the indexer lists them) `width` pixels wide. */
function draw(
  candles: readonly CandleResponseObject[],
  resolution: CandleResolution,
  width: number,
): SVGElement {
  const root = svg("svg", {
    class: "chart",
    viewBox: `0 0 ${width} ${HEIGHT}`,
    width,
    height: HEIGHT,
    role: "img",
    "aria-label": `candles, ${resolution}`,
  });
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const priceH = plotH * (1 - VOLUME_SHARE) - 6;
  const bottom = PAD.top + plotH;
  root.append(svg("rect", { class: "plot", x: PAD.left, y: PAD.top, width: plotW, height: plotH }));
  if (candles.length === 0) {
    root.append(
      svg(
        "text",
        { class: "label", x: PAD.left + plotW / 2, y: PAD.top + plotH / 2, "text-anchor": "middle" },
        "no trades yet",
      ),
    );
    return root;
  }
  const ordered = [...candles].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
  const slot = RESOLUTION_MS[resolution];
  const last = Date.parse(ordered[ordered.length - 1]!.startedAt);
  const from = Math.min(Date.parse(ordered[0]!.startedAt), last - (MIN_SLOTS - 1) * slot);
  const to = last + slot;
  const x = (ms: number) => PAD.left + ((ms - from) / (to - from)) * plotW;
  const slotW = (slot / (to - from)) * plotW;

  let low = Math.min(...ordered.map((c) => Number(c.low)));
  let high = Math.max(...ordered.map((c) => Number(c.high)));
  const pad = high > low ? (high - low) * 0.08 : Math.max(Math.abs(high) * 0.001, 1e-9);
  low -= pad;
  high += pad;
  const y = (price: number) => PAD.top + ((high - price) / (high - low)) * priceH;

  const grid = svg("g", { "data-axis": "price" });
  for (const tick of priceTicks(low, high, 5)) {
    const at = y(tick.value);
    grid.append(
      svg("line", { class: "grid", x1: PAD.left, x2: PAD.left + plotW, y1: at, y2: at }),
      svg("text", { class: "label", x: PAD.left + plotW + 6, y: at + 4 }, tick.label),
    );
  }
  grid.append(svg("text", { class: "label unit", x: PAD.left + plotW + 6, y: PAD.top + priceH + 14 }, "USD"));
  const times = svg("g", { "data-axis": "time" });
  for (const tick of timeTicks(from, to, Math.max(2, Math.floor(plotW / 90)))) {
    const at = x(tick.ms);
    times.append(
      svg("line", { class: "grid", x1: at, x2: at, y1: PAD.top, y2: bottom }),
      svg("text", { class: "label", x: at, y: bottom + 17, "text-anchor": "middle" }, tick.label),
    );
  }
  times.append(svg("text", { class: "label unit", x: PAD.left + plotW + 6, y: bottom + 17 }, "UTC"));
  root.append(grid, times);

  const maxVolume = Math.max(...ordered.map((c) => Number(c.usdVolume)), 0);
  const volumeH = plotH * VOLUME_SHARE;
  const body = Math.max(1, slotW * 0.7);
  const bars = svg("g", { "data-series": "volume" });
  const sticks = svg("g", { "data-series": "candles" });
  for (const c of ordered) {
    const mid = x(Date.parse(c.startedAt)) + slotW / 2;
    const up = Number(c.close) >= Number(c.open);
    const kind = up ? "up" : "down";
    const v = maxVolume > 0 ? (Number(c.usdVolume) / maxVolume) * volumeH : 0;
    bars.append(
      svg(
        "rect",
        {
          class: `volume ${kind}`,
          "data-volume": c.usdVolume,
          x: mid - body / 2,
          y: bottom - v,
          width: body,
          height: v,
        },
        svg("title", {}, `${c.usdVolume} USD`),
      ),
    );
    const top = y(Math.max(Number(c.open), Number(c.close)));
    const base = y(Math.min(Number(c.open), Number(c.close)));
    sticks.append(
      svg(
        "g",
        { class: `candle ${kind}`, "data-candle": c.startedAt },
        svg("line", { class: "wick", x1: mid, x2: mid, y1: y(Number(c.high)), y2: y(Number(c.low)) }),
        svg("rect", {
          class: "body",
          x: mid - body / 2,
          y: top,
          width: body,
          height: Math.max(1, base - top),
        }),
        svg(
          "title",
          {},
          `${c.startedAt}  O ${c.open}  H ${c.high}  L ${c.low}  C ${c.close} USD  volume ${c.usdVolume} USD`,
        ),
      ),
    );
  }
  // The last close: a dashed line across the plot and its price tagged on the axis.
  const lastClose = ordered[ordered.length - 1]!.close;
  const at = y(Number(lastClose));
  root.append(
    bars,
    sticks,
    svg("text", { class: "label", x: PAD.left + 4, y: bottom - volumeH - 2 }, "volume (USD)"),
    svg(
      "g",
      { "data-field": "last-close" },
      svg("line", { class: "last", x1: PAD.left, x2: PAD.left + plotW, y1: at, y2: at }),
      svg("rect", {
        class: "last-tag",
        x: PAD.left + plotW + 1,
        y: at - 9,
        width: PAD.right - 2,
        height: 18,
        rx: 3,
      }),
      svg("text", { class: "last-text", x: PAD.left + plotW + 6, y: at + 4 }, lastClose),
    ),
  );
  return root;
}

/**
 * A candle chart of `candles` in a container that redraws it at its own width; `stop` ends the
 * watching of that width.
 */
export function candleChart(
  candles: readonly CandleResponseObject[],
  resolution: CandleResolution,
): { element: HTMLElement; stop(): void } {
  const element = document.createElement("div");
  element.className = "chart-box";
  let width = 0;
  const redraw = () => {
    const next = Math.max(280, Math.floor(element.clientWidth || 800));
    if (next === width) return;
    width = next;
    element.replaceChildren(draw(candles, resolution, width));
  };
  const observer = new ResizeObserver(redraw);
  observer.observe(element);
  element.append(draw(candles, resolution, 800));
  return { element, stop: () => observer.disconnect() };
}
