/**
 * The explorer in real headless Chromium (Debian's `chromium`, driven by playwright-core) against a
 * devnet with `--liquidity`: the page is bundled from source for the browser, served by the
 * explorer's own server, and each page is checked against what the node and the indexer answer over
 * REST/RPC; the book follows an order the test places; trades against it draw candles on the chart;
 * orders and fills show in human units with their units; a failed tx shows its error's name; search
 * tells every kind apart and says what it cannot find; every address, block and tx is a link. No console error, no failed request and no Content-Security-Policy violation
 * on any page (the server's CSP allows no inline script or style). Screenshots of every
 * page at desktop and phone width go to test/output/screenshots.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { addressToHex, subticksToPrice } from "@perpx/core";
import { type Devnet, startDevnet } from "@perpx/devnet";
import { createIndexerClient, type IndexerClient } from "@perpx/indexer-client";
import { createNodeClient, isBroadcastTxError, type NodeClient } from "@perpx/node-client";
import { getBlock, getBlockHeaders } from "@perpx/node-client/queries";
import { LocalWallet } from "@perpx/node-client/wallets";
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findChromium } from "../../node-client/test/browser/chromium.js";
import { type BrowserHost, hostPage } from "../../node-client/test/browser/host.js";
import { time as shownTime } from "../src/app/format.js";
import { type ExplorerServer, explorerConfig, startExplorer } from "../src/index.js";
import { bundleApp, expectChartDrawn, readable, unlinkedAddresses, unlinkedCells } from "./support/page.js";
import { type SocketProxy, startSocketProxy } from "./support/socket-proxy.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const SHOTS = here("./output/screenshots/");
const BLOCK_TIME_MS = 250;
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;

let devnet: Devnet;
let host: BrowserHost | undefined;
let server: ExplorerServer | undefined;
let proxy: SocketProxy | undefined;
let node: NodeClient;
let indexer: IndexerClient;
let tab: Page;
let trader: LocalWallet;
const problems: string[] = [];
/** Every `securitypolicyviolation` the page saw, and every console line about the CSP. */
const violations: string[] = [];
/** The headers the page's document was served with. */
let documentHeaders: Record<string, string> = {};

/** Opens a route and waits for the page to have drawn it. */
async function open(route: string): Promise<void> {
  await tab.evaluate((hash) => {
    location.hash = hash;
  }, route);
  await tab.waitForFunction(() => document.querySelectorAll(".loading").length === 0, undefined, {
    timeout: 30_000,
  });
}

/** The text of the element with `data-field="name"`. */
const field = async (name: string) =>
  (await tab.locator(`[data-field="${name}"]`).first().textContent()) ?? "";

/** A client id far above any height this test reaches: typed in search, it is no block. */
const CLIENT_ID = 900_000_077;

/** Screenshots of the current page at both widths. */
async function shoot(name: string): Promise<void> {
  for (const [width, size] of Object.entries(VIEWPORTS)) {
    await tab.setViewportSize(size);
    await tab.screenshot({ path: `${SHOTS}${name}-${width}.png`, fullPage: true });
  }
  await tab.setViewportSize(VIEWPORTS.desktop);
}

beforeAll(async () => {
  const executablePath = findChromium(); // throws with what to install: never a silent skip
  mkdirSync(SHOTS, { recursive: true });
  let script: string;
  [devnet, script] = await Promise.all([
    startDevnet({ ports: "free", blockTimeMs: BLOCK_TIME_MS, faucetWindowMs: 0, liquidity: true }),
    bundleApp(),
  ]);
  const e = devnet.endpoints;
  // The page's indexer socket goes through a proxy the test can cut.
  proxy = await startSocketProxy(e.indexerWs);
  const config = explorerConfig({
    network: "local",
    endpoints: { nodeRpc: e.nodeRpc, nodeRest: e.nodeRest, indexer: e.indexer, indexerWs: proxy.url },
  });
  server = await startExplorer({ config, port: 0, assets: { script } });
  // The shared launcher: its own one-script page is unused; the browser opens the explorer's server.
  host = await hostPage("", executablePath);
  node = createNodeClient({
    nodeRpc: e.nodeRpc,
    nodeRest: e.nodeRest,
    pollIntervalMs: 25,
    commitTimeoutMs: 20_000,
  });
  indexer = createIndexerClient({ baseUrl: e.indexer });
  trader = LocalWallet.fromMnemonic(devnet.accounts[1]!.mnemonic);
  tab = await host.browser.newPage({ viewport: VIEWPORTS.desktop });
  await tab.exposeFunction("reportCspViolation", (text: string) => violations.push(text));
  await tab.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation;
      report(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  tab.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
    if (/Content Security Policy/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
  tab.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  tab.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ""}`));
  tab.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  const served = await tab.goto(server.url, { waitUntil: "load", timeout: 60_000 });
  documentHeaders = (await served?.allHeaders()) ?? {};
  await tab.waitForFunction(() => document.body.dataset.connection === "open", undefined, {
    timeout: 60_000,
  });
}, 240_000);

afterAll(async () => {
  node?.close();
  await host?.close();
  await server?.close();
  await proxy?.close();
  await devnet?.stop();
});

describe("the explorer in headless Chromium", () => {
  it("home: chain id, live height and the markets REST holds", async () => {
    await open("#/");
    expect(await field("chain-id")).toBe("perpx-local-1");
    const first = BigInt(await field("height"));
    await expect.poll(async () => BigInt(await field("height")), { timeout: 20_000 }).toBeGreaterThan(first);
    // Held still, the chain stops at a height the page must come to show (while blocks run, the
    // node's answer and the page's reading are never taken at the same instant).
    devnet.producer.setBlockTimeMs(0);
    try {
      const latest = (await node.getLatestBlock()).height;
      await expect.poll(async () => BigInt(await field("height")), { timeout: 20_000 }).toBe(latest);
    } finally {
      devnet.producer.setBlockTimeMs(BLOCK_TIME_MS);
    }
    // Oracle prices move: the page shows what REST said just before or just after reading it.
    const btcOf = async () => {
      const btc = (await indexer.getPerpetualMarkets({})).markets["BTC-USD"]!;
      return [btc.oraclePrice, btc.volume24H, btc.openInterest].join(" ");
    };
    await expect
      .poll(
        async () => {
          const before = await btcOf();
          const shown = [
            await field("oracle-BTC-USD"),
            await field("volume-BTC-USD"),
            await field("oi-BTC-USD"),
          ];
          const after = await btcOf();
          return [before, after].includes(shown.join(" "));
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const tickers = await tab.locator('[data-field="ticker"]').allInnerTexts();
    expect(tickers.sort()).toEqual(Object.keys((await indexer.getPerpetualMarkets({})).markets).sort());
    // The latest blocks: ten (fewer on a young chain), newest first, each as the node has it.
    // One reading of the table (it moves with every block), against the node's blocks below its top.
    const rows = tab.locator('[data-table="blocks"] tbody tr');
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector("td")?.textContent ?? ""));
    const headers = await getBlockHeaders(node, { maxHeight: BigInt(shown[0] ?? ""), count: 10 });
    expect(shown).toEqual(headers.map((h) => String(h.height)));
    expect(await unlinkedCells(tab)).toEqual([]);
    // Units: prices and volume in USD, open interest in the market's base asset.
    const unitOf = (name: string) => tab.locator(`[data-field="${name}"]`).locator("..").textContent();
    expect(await unitOf("oracle-BTC-USD")).toMatch(/^\d+(\.\d+)? USD$/);
    expect(await unitOf("volume-BTC-USD")).toMatch(/^\d+(\.\d+)? USD$/);
    expect(await unitOf("oi-BTC-USD")).toMatch(/^\d+(\.\d+)? BTC$/);
    expect(await unitOf("oi-ETH-USD")).toMatch(/^\d+(\.\d+)? ETH$/);
    await shoot("home");
  });

  let depositHash = "";
  let orderHash = "";
  let fillHeight = "";
  let orderPrice = "";
  it("market: the live book follows an order the test places; trades, candles and funding from REST", async () => {
    await open("#/market/BTC-USD");
    await expect
      .poll(() => tab.locator('[data-table="bids"] tbody tr').count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(await tab.locator('[data-table="asks"] tbody tr').count()).toBeGreaterThan(0);
    const deposit = await node.depositToSubaccount({
      signer: trader,
      sender: trader.address,
      recipient: { owner: trader.address, number: 0 },
      quantums: 5_000_000_000n,
    });
    depositHash = deposit.hash;
    const btc = await node.getMarket({ ticker: "BTC-USD" });
    const { markets } = await indexer.getPerpetualMarkets({ ticker: "BTC-USD" });
    const bestBid = (await indexer.getOrderbook({ ticker: "BTC-USD" })).bids[0]!.price;
    // One tick above the best bid of the maker: a new top of book, below every ask.
    const ticks = BigInt(Math.round(Number(bestBid) / Number(markets["BTC-USD"]!.tickSize))) + 1n;
    orderPrice = subticksToPrice(btc.subticksPerTick * ticks, btc);
    const { time } = await node.getLatestBlock();
    const placed = await node.placeOrder({
      signer: trader,
      subaccount: { owner: trader.address, number: 0 },
      clientId: CLIENT_ID,
      side: "BUY",
      market: btc,
      size: "0.001",
      price: orderPrice,
      kind: "long-term",
      goodTilBlockTime: Math.floor(time.getTime() / 1000) + 3_600,
    });
    orderHash = placed.hash;
    await expect
      .poll(() => tab.locator('[data-table="bids"] tbody tr td:first-child').allInnerTexts(), {
        timeout: 20_000,
      })
      .toContain(orderPrice);
    // A second trader sells into that bid: the trade shows up live, as REST has it.
    const seller = LocalWallet.fromMnemonic(devnet.accounts[2]!.mnemonic);
    await node.depositToSubaccount({
      signer: seller,
      sender: seller.address,
      recipient: { owner: seller.address, number: 0 },
      quantums: 5_000_000_000n,
    });
    const now = Math.floor((await node.getLatestBlock()).time.getTime() / 1000);
    await node.placeOrder({
      signer: seller,
      subaccount: { owner: seller.address, number: 0 },
      clientId: 78,
      side: "SELL",
      market: btc,
      size: "0.001",
      price: orderPrice,
      kind: "long-term",
      goodTilBlockTime: now + 3_600,
    });
    // The seller's fill is a trade (against our bid, or a maker's bid that moved above it).
    await expect
      .poll(async () => (await indexer.getFills({ owner: seller.address, number: 0 })).fills.length, {
        timeout: 20_000,
      })
      .toBeGreaterThan(0);
    fillHeight = (await indexer.getFills({ owner: seller.address, number: 0 })).fills[0]!.createdAtHeight;
    await expect
      .poll(
        async () => {
          const [newest] = (await indexer.getTrades({ ticker: "BTC-USD" })).trades;
          const row = await tab
            .locator('[data-table="trades"] tbody tr')
            .first()
            .locator("td")
            .allInnerTexts();
          return (
            newest !== undefined &&
            row.slice(1).join(" ") === [newest.side, newest.price, newest.size].join(" ")
          );
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const funding = (await indexer.getHistoricalFunding({ ticker: "BTC-USD", limit: 20 })).historicalFunding;
    const rows = await tab.locator('[data-table="funding"] tbody tr').count();
    expect(rows).toBe(funding.length);
    // The seller also sells into the maker's two best bids: candles with a range, and volume.
    for (const [i, level] of (await indexer.getOrderbook({ ticker: "BTC-USD" })).bids.slice(0, 2).entries()) {
      const at = Math.floor((await node.getLatestBlock()).time.getTime() / 1000);
      await node.placeOrder({
        signer: seller,
        subaccount: { owner: seller.address, number: 0 },
        clientId: 80 + i,
        side: "SELL",
        market: btc,
        size: "0.001",
        price: level.price,
        kind: "long-term",
        goodTilBlockTime: at + 3_600,
      });
    }
    await tab.selectOption('[data-field="resolution"]', "1MIN");
    const candles = async () =>
      (await indexer.getCandles({ ticker: "BTC-USD", resolution: "1MIN", limit: 60 })).candles;
    await expect.poll(async () => (await candles()).length, { timeout: 20_000 }).toBeGreaterThan(0);
    // The chart: one candle and one volume bar per candle REST has, a USD price axis of round,
    // rising labels and a UTC time axis.
    await expect
      .poll(
        async () =>
          (await candles())
            .map((c) => c.startedAt)
            .sort()
            .join() ===
          (await tab.locator("svg.chart [data-candle]").evaluateAll((gs) =>
            gs
              .map((g) => g.getAttribute("data-candle"))
              .sort()
              .join(),
          )),
        { timeout: 20_000 },
      )
      .toBe(true);
    expect(await tab.locator("svg.chart [data-volume]").count()).toBe(
      await tab.locator("svg.chart [data-candle]").count(),
    );
    await expectChartDrawn(tab);
    expect(await tab.locator('[data-table="candles"] tbody tr').count()).toBe(
      Math.min(20, (await candles()).length),
    );
    // Units: prices in USD, sizes in BTC.
    expect(await tab.locator('[data-table="trades"] thead th').allInnerTexts()).toEqual([
      "Time",
      "Side",
      "Price (USD)",
      "Size (BTC)",
    ]);
    expect(await tab.locator('[data-table="bids"] thead th').allInnerTexts()).toEqual([
      "Bid (USD)",
      "Size (BTC)",
      "Total (BTC)",
    ]);
    expect(await tab.locator('[data-field="oracle-price"]').textContent()).toMatch(/^\d+(\.\d+)? USD$/);
    expect(await tab.locator('[data-field="open-interest"]').textContent()).toMatch(/^\d+(\.\d+)? BTC$/);
    expect(await tab.locator('[data-field="step-size"]').textContent()).toBe("0.0001 BTC");
    await shoot("market");
  });

  it("market: an unknown market says so at once and lists the markets there are", async () => {
    await open("#/market/NOPE-USD");
    expect(await field("not-found")).toBe("No market NOPE-USD on this network.");
    const listed = await tab.locator('main a[href^="#/market/"]').allInnerTexts();
    expect(listed.sort()).toEqual(Object.keys((await indexer.getPerpetualMarkets({})).markets).sort());
    await shoot("market-unknown");
  });

  it("tx: an order decoded to market, side, size and price in human units, with its block's time", async () => {
    await open(`#/tx/${orderHash}`);
    const tx = (await node.getTx({ hash: orderHash, transport: "rpc" }))!;
    const [header] = await getBlockHeaders(node, { maxHeight: tx.height, count: 1 });
    expect(await field("time")).toBe(shownTime(header!.time));
    const first = tab.locator('[data-table="orders"] tbody tr').first();
    const row = await first.locator("td").allInnerTexts();
    expect([...row.slice(0, 5), row[6]]).toEqual([
      "place",
      "BTC-USD",
      "BUY",
      "0.001 BTC",
      `${orderPrice} USD`,
      String(CLIENT_ID),
    ]);
    expect(row[5]).toMatch(/\/0$/);
    expect(await first.locator("td").nth(5).locator("a").getAttribute("href")).toBe(
      `#/account/${trader.address}`,
    );
    // What people read carries no raw quantums or subticks (the chain's JSON is folded away).
    expect(await readable(tab)).not.toMatch(/quantums|subticks/);
    expect(await unlinkedAddresses(tab)).toEqual([]);
    await shoot("tx-order");
  });

  it("tx: a deposit decoded in human units with its signer in both forms, gas and events from RPC", async () => {
    await open(`#/tx/${depositHash}`);
    const tx = (await node.getTx({ hash: depositHash, transport: "rpc" }))!;
    expect(await field("code")).toBe("0");
    expect(await field("gas")).toBe(`${tx.gasUsed} / ${tx.gasWanted}`);
    expect(await field("bech32")).toBe(trader.address);
    expect(await field("hex")).toBe(addressToHex(trader.address));
    expect(await field("summary")).toBe(`deposit 5000 USDC from ${trader.address} to ${trader.address}/0`);
    const [header] = await getBlockHeaders(node, { maxHeight: tx.height, count: 1 });
    expect(await field("time")).toBe(shownTime(header!.time));
    expect(await unlinkedAddresses(tab)).toEqual([]);
    expect(await tab.locator('[data-table="events"] tbody tr').count()).toBe(tx.events.length);
    await shoot("tx");
  });

  let failedHash = "";
  it("tx: a failed tx shows its code, codespace and the error's name", async () => {
    const poor = LocalWallet.generate();
    await node.bankSend({
      signer: trader,
      from: trader.address,
      to: poor.address,
      amount: [{ denom: "uusdc", amount: 1_000_000n }],
    });
    const error = await node
      .bankSend({
        signer: poor,
        from: poor.address,
        to: trader.address,
        amount: [{ denom: "uusdc", amount: 10n ** 15n }],
        tx: { gas: 200_000n, feeDenom: "uusdc" },
      })
      .catch((e: unknown) => e);
    expect(isBroadcastTxError(error) && error.phase).toBe("deliverTx");
    if (!isBroadcastTxError(error)) throw error;
    failedHash = error.txHash;
    await open(`#/tx/${failedHash}`);
    const tx = (await node.getTx({ hash: failedHash, transport: "rpc" }))!;
    expect(tx.code).not.toBe(0);
    expect(await field("code")).toBe(String(tx.code));
    expect(await field("codespace")).toBe(tx.codespace);
    expect(await field("error-name")).toBe("insufficient funds");
    await shoot("tx-failed");
  });

  it("account: both address forms, balances, subaccount equity, orders and transfers as REST holds them", async () => {
    // A second subaccount, funded last: its deposit is the newest transfer of the account.
    const second = await node.depositToSubaccount({
      signer: trader,
      sender: trader.address,
      recipient: { owner: trader.address, number: 1 },
      quantums: 25_000_000n,
    });
    await expect
      .poll(async () => (await indexer.getTransfers({ owner: trader.address, number: 1 })).transfers.length, {
        timeout: 20_000,
      })
      .toBe(1);
    await open(`#/account/${addressToHex(trader.address)}`);
    expect(await field("bech32")).toBe(trader.address);
    expect(await field("hex")).toBe(addressToHex(trader.address));
    await open(`#/account/${trader.address}`);
    const sub0 = async () =>
      (await indexer.getAddress({ address: trader.address })).subaccounts.find(
        (s) => s.subaccountNumber === 0,
      )!;
    // Equity and free collateral move with the oracle every block (the trader holds a position)
    // and the page reloads them with each height. Held still, the oracle stops at a price whose
    // figures the page must come to show exactly as REST holds them.
    devnet.producer.setBlockTimeMs(0);
    try {
      await expect
        .poll(
          async () => {
            const rest = await sub0();
            return (
              [await field("equity-0"), await field("free-0")].join(" ") ===
              [rest.equity, rest.freeCollateral].join(" ")
            );
          },
          { timeout: 30_000 },
        )
        .toBe(true);
    } finally {
      devnet.producer.setBlockTimeMs(BLOCK_TIME_MS);
    }
    // Positions are exact: size and entry price as REST holds them.
    const positions = Object.values((await sub0()).openPerpetualPositions);
    const rows = await tab
      .locator('[data-table="positions"] tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")),
      );
    expect(rows.map((r) => [r[1], r[2], r[3], r[4]])).toEqual(
      positions.map((p) => [p.market, p.side, `${p.size} ${p.market.split("-")[0]}`, p.entryPrice]),
    );
    const balances = await node.getBalances({ address: trader.address });
    expect(await tab.locator('[data-table="balances"] tbody tr').count()).toBe(balances.length);
    const orders = (await indexer.getOrders({ owner: trader.address, number: 0, status: ["OPEN"] })).length;
    expect(await tab.locator('[data-table="orders"] tbody tr').count()).toBe(orders);
    const transfers = [
      ...(await indexer.getTransfers({ owner: trader.address, number: 0, limit: 20 })).transfers,
      ...(await indexer.getTransfers({ owner: trader.address, number: 1, limit: 20 })).transfers,
    ];
    await expect
      .poll(() => tab.locator('[data-table="transfers"] tbody tr').count(), { timeout: 20_000 })
      .toBe(transfers.length);
    // Both subaccounts' transfers in one list, newest first: the second subaccount's deposit on top.
    const heights = (await tab.locator('[data-field="transfer-height"]').allInnerTexts()).map(BigInt);
    expect(heights).toEqual([...heights].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    const newestTx = await tab
      .locator('[data-table="transfers"] tbody tr')
      .first()
      .locator('a[href^="#/tx/"]')
      .getAttribute("href");
    expect(newestTx).toBe(`#/tx/${second.hash}`);
    expect(
      await tab.locator('[data-table="transfers"] tbody tr').first().locator("td").nth(3).textContent(),
    ).toBe("25 USDC");
    // Every address and every block and tx is a link; figures carry their units.
    expect(await unlinkedAddresses(tab)).toEqual([]);
    expect(await unlinkedCells(tab)).toEqual([]);
    expect(await tab.locator('[data-table="subaccounts"] thead th').allInnerTexts()).toEqual([
      "Number",
      "Parent",
      "Equity (USDC)",
      "Free collateral (USDC)",
      "USDC",
      "Margin",
    ]);
    await shoot("account");
    // Live: a withdrawal shows up without reopening the page, through the subaccount's feed.
    const usdc = async () =>
      (await indexer.getAddress({ address: trader.address })).subaccounts.find(
        (s) => s.subaccountNumber === 0,
      )!.assetPositions.USDC!.size;
    const before = await usdc();
    const shownUsdc = async () =>
      (await tab.locator('[data-table="subaccounts"] tbody tr').first().locator("td").nth(4).textContent()) ??
      "";
    expect(await shownUsdc()).toBe(before);
    const asked: Promise<Record<string, string>>[] = [];
    const record = (request: Request) => {
      if (request.url().startsWith(`${devnet.endpoints.indexer}/v4/`)) asked.push(request.allHeaders());
    };
    tab.on("request", record);
    await node.withdrawFromSubaccount({
      signer: trader,
      sender: { owner: trader.address, number: 0 },
      recipient: trader.address,
      quantums: 100_000_000n,
    });
    await expect.poll(usdc, { timeout: 20_000 }).toBe(String(Number(before) - 100));
    await expect.poll(shownUsdc, { timeout: 20_000 }).toBe(String(Number(before) - 100));
    tab.off("request", record);
    // The reloads revalidate: the REST answers' one-second max-age never serves a page a stale view.
    expect(asked.length).toBeGreaterThan(0);
    for (const headers of await Promise.all(asked)) expect(headers["cache-control"]).toBe("max-age=0");
  });

  it("block: the header and each tx with its code", async () => {
    const tx = (await node.getTx({ hash: failedHash, transport: "rpc" }))!;
    await open(`#/block/${tx.height}`);
    const block = await getBlock(node, { height: tx.height });
    expect(await field("hash")).toBe(block.header.hash);
    expect(await field("tx-count")).toBe(String(block.txs.length));
    const hashes = await tab
      .locator('[data-field="tx-hash"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(hashes).toContain(`#/tx/${failedHash}`);
    const codes = await tab.locator('[data-field="code"]').allInnerTexts();
    expect(codes.some((c) => c.startsWith(`${tx.code} ${tx.codespace} insufficient funds`))).toBe(true);
    await shoot("block");
    // The block that settled the seller's fill: its proposed operations carry the match.
    await open(`#/block/${fillHeight}`);
    const settled = await getBlock(node, { height: BigInt(fillHeight) });
    expect(settled.txs[0]!.tx?.body?.messages[0]?.typeUrl).toBe("/perpx.clob.v1.MsgProposedOperations");
    expect(await tab.locator('[data-table="txs"] tbody tr').first().textContent()).toMatch(
      /proposed operations: [1-9]\d* fills in [1-9]\d* matches/,
    );
    // Each fill in human units: the seller's 0.001 BTC on BTC-USD, against a maker that is linked.
    // (the subaccount cell's link names its account; the link's text is shortened)
    const fills = await tab
      .locator('[data-table="txs"] [data-table="orders"] tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [
          ...[...tr.querySelectorAll("td")].map((td) => td.textContent ?? ""),
          tr.querySelectorAll("td")[5]?.querySelector("a")?.getAttribute("href") ?? "",
        ]),
      );
    const seller = LocalWallet.fromMnemonic(devnet.accounts[2]!.mnemonic).address;
    const [sold] = (await indexer.getFills({ owner: seller, number: 0 })).fills.filter(
      (f) => f.createdAtHeight === fillHeight,
    );
    expect(
      fills
        .filter((r) => r[0] === "fill" && r[8] === `#/account/${seller}` && r[5]!.endsWith("/0"))
        .map((r) => r.slice(1, 5)),
    ).toEqual([["BTC-USD", "SELL", "0.001 BTC", `${sold!.price} USD`]]);
    expect(await unlinkedAddresses(tab)).toEqual([]);
    expect(await unlinkedCells(tab)).toEqual([]);
    await shoot("block-fills");
    // The same operations on their tx's page: no signed-tx blob, quantums or subticks in sight.
    await open(`#/tx/${settled.txs[0]!.hash}`);
    const page = (await tab.locator("main").textContent()) ?? "";
    expect(page).not.toMatch(/"short_term_order_placement": "/);
    expect(await readable(tab)).not.toMatch(/quantums|subticks/);
    expect(await tab.locator('[data-table="orders"] tbody tr').count()).toBe(fills.length);
    await shoot("tx-fills");
    // A height the chain has not reached: said plainly, no RPC error.
    await open("#/block/900000077");
    expect(await field("not-found")).toMatch(/^No block 900000077 yet: the chain is at height \d+\.$/);
    expect(await tab.locator('[role="alert"]').count()).toBe(0);
  });

  it("search tells heights, tx hashes, addresses, order ids and client ids apart, and says what it cannot find", async () => {
    const search = async (query: string) => {
      await tab.fill('input[name="q"]', query);
      await tab.press('input[name="q"]', "Enter");
      await tab.waitForFunction(
        () =>
          (document.querySelectorAll(".loading").length === 0 && !location.hash.startsWith("#/search/")) ||
          (document.body.dataset.page === "search" && document.querySelectorAll(".loading").length === 0),
      );
      return tab.evaluate(() => location.hash);
    };
    expect(await search("3")).toBe("#/block/3");
    expect(await search(depositHash.toLowerCase())).toBe(`#/tx/${depositHash}`);
    expect(await search(addressToHex(trader.address))).toBe(`#/account/${trader.address}`);
    const order = (await indexer.getOrders({ owner: trader.address, number: 0 })).find(
      (o) => o.price === orderPrice,
    );
    expect(await search(order!.id)).toBe(`#/search/${order!.id}`);
    await expect.poll(() => field("price")).toBe(orderPrice);
    expect(await field("order-id")).toBe(order!.id);
    await shoot("search-order");
    // A client id typed alone is no block: the page says so plainly (no RPC error) and how to look it up.
    expect(await search(String(CLIENT_ID))).toBe(`#/search/${CLIENT_ID}`);
    expect(await field("not-found")).toMatch(
      new RegExp(`^No block at height ${CLIENT_ID}: the chain is at height \\d+\\.$`),
    );
    expect(await tab.locator('[role="alert"]').count()).toBe(0);
    expect(await tab.locator("main").textContent()).toContain(`<address>/<subaccount>/${CLIENT_ID}`);
    await shoot("search-client-id-alone");
    // With its owner and subaccount (either address form), the client id finds the order.
    expect(await search(`${addressToHex(trader.address)}/0/${CLIENT_ID}`)).toBe(
      `#/search/${encodeURIComponent(`${addressToHex(trader.address)}/0/${CLIENT_ID}`)}`,
    );
    await expect.poll(() => field("price")).toBe(orderPrice);
    expect(await field("client-id")).toBe(String(CLIENT_ID));
    expect(await field("order-id")).toBe(order!.id);
    expect(await unlinkedAddresses(tab)).toEqual([]);
    await shoot("search-client-id");
    // Not one of the kinds: said plainly.
    expect(await search("hello")).toBe("#/search/hello");
    expect(await field("not-found")).toMatch(/^"hello" is not a block height, a tx hash, an address/);
  });

  it("shows a lost connection while it reconnects, and the book resyncs", async () => {
    await open("#/market/ETH-USD");
    await expect
      .poll(() => tab.locator('[data-table="bids"] tbody tr').count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    const banner = tab.locator("#banner");
    expect(await banner.isVisible()).toBe(false);
    proxy!.hold();
    proxy!.dropAll();
    await expect.poll(() => banner.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await banner.textContent()).toMatch(/^Connection lost \(closed\): reconnecting/);
    expect(await tab.evaluate(() => document.body.dataset.connection)).toBe("lost");
    await shoot("connection-lost");
    proxy!.release();
    await expect.poll(() => banner.isVisible(), { timeout: 20_000 }).toBe(false);
    await expect.poll(() => field("book-state"), { timeout: 20_000 }).toMatch(/^live/);
    const book = await indexer.getOrderbook({ ticker: "ETH-USD" });
    await expect
      .poll(
        async () => {
          const fresh = await indexer.getOrderbook({ ticker: "ETH-USD" });
          const shown = await tab.locator('[data-table="asks"] tbody tr td:first-child').allInnerTexts();
          return shown[0] === fresh.asks[0]?.price;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    expect(book.asks.length).toBeGreaterThan(0);
  });

  it("had no console error and no failed request on any page", () => {
    expect(problems).toEqual([]);
  });

  it("was served under a CSP without inline script, unframeable, and saw no CSP violation", () => {
    const csp = documentHeaders["content-security-policy"] ?? "";
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(documentHeaders["x-frame-options"]).toBe("DENY");
    expect(documentHeaders["referrer-policy"]).toBe("no-referrer");
    expect(documentHeaders["x-content-type-options"]).toBe("nosniff");
    expect(violations).toEqual([]);
  });
});
