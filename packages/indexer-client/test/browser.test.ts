/**
 * @perpx/indexer-client in real headless Chromium (Debian's `chromium`, driven by playwright-core):
 * a page bundled for the browser from the package entry connects to an indexer WebSocket with the
 * page's own `WebSocket`, keeps an order book through updates and a dropped connection, and reads
 * it. The server is the loopback indexer of the fault tests.
 */
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perpxSource } from "../../../tests/support/source-plugin.js";
// The node client's finder: CHROMIUM_PATH, else chromium on the PATH; it throws with what to install.
import { findChromium } from "../../node-client/test/browser/chromium.js";
import { type BrowserHost, hostPage } from "../../node-client/test/browser/host.js";
import type { PageConfig, PageReport } from "./browser/page.js";
import { truthLevels } from "./support/books.js";
import { type FakeIndexer, startFakeIndexer } from "./support/fake-indexer.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Bundles the page for the browser: every `@perpx/*` from source, as the tests run. */
async function bundlePage(): Promise<{ code: string; metafile: Metafile }> {
  const result = await build({
    entryPoints: [here("./browser/page.ts")],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    write: false,
    metafile: true,
    plugins: [perpxSource(["errors", "address", "core"])],
    logLevel: "silent",
  });
  return { code: result.outputFiles[0]!.text, metafile: result.metafile };
}

let fake: FakeIndexer;
let page: { code: string; metafile: Metafile };
let host: BrowserHost | undefined;
let pageUrl: string;
let browser: Browser;
let tab: Page;
const consoleLines: string[] = [];

type Api = {
  indexerPage: { start(c: PageConfig): Promise<PageReport>; read(): PageReport; close(): Promise<void> };
};

beforeAll(async () => {
  const executablePath = findChromium();
  [fake, page] = await Promise.all([startFakeIndexer({ snapshotDelayMs: 5 }), bundlePage()]);
  host = await hostPage(page.code, executablePath);
  ({ browser, pageUrl } = host);
}, 180_000);

afterAll(async () => {
  await host?.close();
  await fake?.stop();
});

describe("in headless Chromium", () => {
  it("bundles with no node: module and no ws in the graph", () => {
    const inputs = Object.keys(page.metafile.inputs);
    expect(inputs.some((input) => input.includes("src/ws/platform-browser.ts"))).toBe(true);
    expect(
      inputs.filter((input) => /^node:|node_modules\/(\.pnpm\/)?ws[@/]|platform-node/.test(input)),
    ).toEqual([]);
    expect(page.code).not.toMatch(/["']node:[a-z_/]+["']/);
    expect(page.code).not.toMatch(/\brequire\(/);
  });

  it("keeps an order book over the page's WebSocket, through updates and a dropped connection", async () => {
    for (const [price, size] of [
      ["99", "1"],
      ["98", "2"],
    ] as const)
      fake.setLevel("BTC-USD", "bids", price, size);
    for (const [price, size] of [
      ["101", "1.5"],
      ["102", "3"],
    ] as const)
      fake.setLevel("BTC-USD", "asks", price, size);
    tab = await browser.newPage();
    tab.on("console", (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
    tab.on("pageerror", (error) => consoleLines.push(`pageerror: ${error.message}`));
    await tab.goto(pageUrl, { waitUntil: "load", timeout: 60_000 });
    await tab.waitForFunction(() => "indexerPage" in globalThis, undefined, { timeout: 60_000 });
    const started = await tab.evaluate((c) => (globalThis as unknown as Api).indexerPage.start(c), {
      url: fake.url,
      market: "BTC-USD",
    });
    expect(started.error, consoleLines.join("\n")).toBeUndefined();
    expect(started.snapshotBids).toBe(2);
    const read = () => tab.evaluate(() => (globalThis as unknown as Api).indexerPage.read());

    fake.setLevel("BTC-USD", "bids", "100", "4");
    fake.setLevel("BTC-USD", "asks", "101", "0");
    await expect.poll(async () => (await read()).bestAsk, { timeout: 10_000 }).toBe("102");
    let report = await read();
    expect(report).toMatchObject({ bestBid: "100", bestAsk: "102", mid: "101", resyncs: [] });
    expect({ bids: report.bids, asks: report.asks }).toEqual(truthLevels(fake, "BTC-USD"));

    // The server drops the page's connection; the book changes meanwhile; the page resyncs.
    fake.dropAll();
    fake.setLevel("BTC-USD", "bids", "100.5", "1");
    await expect.poll(async () => (await read()).resyncs, { timeout: 10_000 }).toEqual(["reconnect"]);
    fake.setLevel("BTC-USD", "asks", "101.5", "2");
    await expect.poll(async () => (await read()).bestAsk, { timeout: 10_000 }).toBe("101.5");
    report = await read();
    expect(report.connectionId).not.toBe(started.connectionId);
    expect({ bids: report.bids, asks: report.asks }).toEqual(truthLevels(fake, "BTC-USD"));

    await tab.evaluate(() => (globalThis as unknown as Api).indexerPage.close());
    await expect.poll(() => fake.conns.size).toBe(0);
    await tab.close();
  }, 120_000);
});
