/**
 * What the explorer's Chromium test builds and checks on a page: the app bundled from source, the
 * candle chart's shape, and that addresses, blocks and txs are links and raw chain units folded away.
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { perpxSource } from "../../../../tests/support/source-plugin.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The app bundled for the browser from source, every `@perpx/*` aliased as the tests run. */
export async function bundleApp(): Promise<string> {
  const names = ["errors", "proto", "address", "core", "node-client", "indexer-client"];
  const result = await build({
    entryPoints: [here("../../src/app/main.ts")],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    write: false,
    plugins: [perpxSource(names)],
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** Addresses shown on the page outside a link (titles aside): each should link to its account. */
export const unlinkedAddresses = (tab: Page) =>
  tab.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.querySelector("main")!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      if (node.parentElement?.closest("a, h1") !== null && node.parentElement?.closest("a, h1") !== undefined)
        continue;
      for (const match of (node.textContent ?? "").matchAll(/perpx1[02-9ac-hj-np-z]{38}|0x[0-9a-fA-F]{40}/g))
        found.push(match[0]);
    }
    return found;
  });

/** The page's text as people read it: the folded-away JSON (`<details>`) left out. */
export const readable = (tab: Page) =>
  tab.evaluate(() => {
    const copy = document.querySelector("main")!.cloneNode(true) as HTMLElement;
    for (const folded of copy.querySelectorAll("details")) folded.remove();
    return copy.textContent ?? "";
  });

/** Cells of block, height, tx and hash columns without a link in them. */
export const unlinkedCells = (tab: Page) =>
  tab.evaluate(() => {
    const found: string[] = [];
    for (const table of document.querySelectorAll("main table")) {
      const headers = [...table.querySelectorAll(":scope > thead th")].map((th) => th.textContent ?? "");
      for (const row of table.querySelectorAll(":scope > tbody > tr")) {
        const cells = [...row.children];
        headers.forEach((header, i) => {
          if (/^(Block|Height|Tx|Hash)$/.test(header) && cells[i]?.querySelector("a") === null)
            found.push(`${header}: ${cells[i]?.textContent ?? ""}`);
        });
      }
    }
    return found;
  });

/** The candle chart: a USD price axis of rising round labels, a UTC time axis, candles within the plot. */
export async function expectChartDrawn(tab: Page): Promise<void> {
  const texts = (selector: string) =>
    tab.locator(selector).evaluateAll((nodes) => nodes.map((n) => n.textContent ?? ""));
  const priceLabels = await texts('svg.chart [data-axis="price"] text');
  expect(priceLabels.at(-1)).toBe("USD");
  const prices = priceLabels.slice(0, -1);
  expect(prices.length).toBeGreaterThanOrEqual(2);
  for (const label of prices) expect(label).toMatch(/^\d+(\.\d+)?$/);
  expect(prices.map(Number)).toEqual([...prices.map(Number)].sort((x, y) => x - y));
  const timeLabels = await texts('svg.chart [data-axis="time"] text');
  expect(timeLabels.at(-1)).toBe("UTC");
  expect(timeLabels.length).toBeGreaterThanOrEqual(3);
  for (const label of timeLabels.slice(0, -1)) expect(label).toMatch(/^\d\d:\d\d$/);
  // Every candle's wick lies within the plot, and its body within its wick.
  const boxes = await tab.locator("svg.chart [data-candle]").evaluateAll((gs) =>
    gs.map((g) => {
      const wick = g.querySelector("line")!;
      const body = g.querySelector("rect")!;
      return [
        Number(wick.getAttribute("y1")),
        Number(wick.getAttribute("y2")),
        Number(body.getAttribute("y")),
        Number(body.getAttribute("height")),
      ];
    }),
  );
  const plot = await tab
    .locator("svg.chart rect.plot")
    .evaluate((r) => [Number(r.getAttribute("y")), Number(r.getAttribute("height"))]);
  for (const [high, low, top, height] of boxes) {
    expect(high).toBeGreaterThanOrEqual(plot[0]!);
    expect(low).toBeLessThanOrEqual(plot[0]! + plot[1]!);
    expect(top).toBeGreaterThanOrEqual(high! - 0.5);
    expect(top! + height!).toBeLessThanOrEqual(low! + 1);
  }
}
