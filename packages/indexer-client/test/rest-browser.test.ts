/**
 * @perpx/indexer-client in real headless Chromium (Debian's `chromium`, driven by playwright-core):
 * a page bundled for the browser from source, served from its own origin, reads markets, an order
 * book and a walk of fills from a cross-origin indexer stand-in with the browser's `fetch`, and
 * gets the typed errors, the timeout and the abort there too.
 */
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perpxSource } from "../../../tests/support/source-plugin.js";
import { findChromium } from "../../node-client/test/browser/chromium.js";
import { type BrowserHost, hostPage } from "../../node-client/test/browser/host.js";
import type { PageReport } from "./rest-browser/page.js";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

async function bundlePage(): Promise<{ code: string; metafile: Metafile }> {
  const result = await build({
    entryPoints: [here("./rest-browser/page.ts")],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    metafile: true,
    plugins: [perpxSource(["errors", "address", "core", "indexer-client"])],
    logLevel: "silent",
  });
  return { code: result.outputFiles[0]?.text ?? "", metafile: result.metafile };
}

const CORS = { "access-control-allow-origin": "*" };
const fills = [
  { id: "a", createdAtHeight: "10" },
  { id: "b", createdAtHeight: "9" },
  { id: "c", createdAtHeight: "9" },
  { id: "d", createdAtHeight: "4" },
];

let indexer: FixtureServer;
let page: { code: string; metafile: Metafile };
let host: BrowserHost | undefined;
let pageUrl: string;
let browser: Browser;

beforeAll(async () => {
  const executablePath = findChromium();
  [indexer, page] = await Promise.all([
    startFixtureServer({
      "/v4/perpetualMarkets": (url) =>
        url.searchParams.get("ticker") === "NOPE-USD"
          ? {
              status: 400,
              headers: CORS,
              body: {
                errors: [
                  {
                    value: "NOPE-USD",
                    msg: "ticker must be a valid ticker (BTC-USD, etc)",
                    param: "ticker",
                    location: "query",
                  },
                ],
              },
            }
          : { headers: CORS, body: { markets: { "BTC-USD": {}, "ETH-USD": {} } } },
      "/v4/orderbooks/perpetualMarket/BTC-USD": {
        headers: CORS,
        body: { bids: [{ price: "64999", size: "1" }], asks: [{ price: "65001", size: "2" }] },
      },
      "/v4/fills": (url) => {
        const before = Number(url.searchParams.get("createdBeforeOrAtHeight") ?? Number.POSITIVE_INFINITY);
        const limit = Number(url.searchParams.get("limit") ?? 1000);
        return {
          headers: CORS,
          body: { fills: fills.filter((f) => Number(f.createdAtHeight) <= before).slice(0, limit) },
        };
      },
      "/v4/height": { status: 404, headers: CORS, body: { errors: [{ msg: "No blocks found" }] } },
      "/v4/time": {
        headers: CORS,
        body: { iso: "2026-01-01T00:00:00.000Z", epoch: 1767225600 },
        delayMs: 30_000,
      },
    }),
    bundlePage(),
  ]);
  host = await hostPage(page.code, executablePath);
  ({ browser, pageUrl } = host);
}, 180_000);

afterAll(async () => {
  await host?.close();
  await indexer?.close();
});

describe("in headless Chromium", () => {
  it("bundles for the browser with no node: module and no ws in the graph", () => {
    const inputs = Object.keys(page.metafile.inputs);
    expect(inputs.some((input) => input.includes("indexer-client/src/rest/connection.ts"))).toBe(true);
    expect(inputs.filter((input) => /^node:|node_modules\/(\.pnpm\/)?ws[@/]/.test(input))).toEqual([]);
    expect(page.code).not.toMatch(/["']node:[a-z_/]+["']/);
  });

  it("reads markets, a book and a fill walk cross-origin, with typed errors, timeout and abort", async () => {
    const tab = await browser.newPage();
    const lines: string[] = [];
    tab.on("pageerror", (error) => lines.push(`pageerror: ${error.message}`));
    await tab.goto(pageUrl, { waitUntil: "load", timeout: 60_000 });
    await tab.waitForFunction(() => "perpxScenario" in globalThis, undefined, { timeout: 60_000 });
    const report = await tab.evaluate(
      (baseUrl) =>
        (globalThis as unknown as { perpxScenario(url: string): Promise<PageReport> }).perpxScenario(baseUrl),
      indexer.baseUrl,
    );
    expect(report.error, `${String(report.error)}\n${lines.join("\n")}`).toBeUndefined();
    expect(report.origin).not.toBe(new URL(indexer.baseUrl).origin);
    expect(report.markets).toEqual(["BTC-USD", "ETH-USD"]);
    expect(report.bestAsk).toBe("65001");
    expect(report.fills).toEqual(["a", "b", "c", "d"]);
    expect(report.notFound).toBe(true);
    expect(report.validationParam).toBe("ticker");
    expect(report.timedOut).toBe(true);
    expect(report.aborted).toBe(true);
    await tab.close();
  }, 120_000);
});
