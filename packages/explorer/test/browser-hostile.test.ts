/**
 * The explorer in headless Chromium against hostile routes and a lagging feed: a route whose
 * argument is not valid percent-encoding, a market named after an `Object.prototype` key, a block
 * the node has but the (cut) indexer feed has not announced, and an account page left while its
 * first answer is on the way (its subaccount feeds must not be subscribed after it is gone).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Devnet, fundedSubaccountKey, startDevnet } from "@perpx/devnet";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { findChromium } from "../../node-client/test/browser/chromium.js";
import { type BrowserHost, hostPage } from "../../node-client/test/browser/host.js";
import { type ExplorerServer, explorerConfig, startExplorer } from "../src/index.js";
import { bundleApp } from "./support/page.js";
import { type SocketProxy, startSocketProxy } from "./support/socket-proxy.js";

let devnet: Devnet;
let host: BrowserHost | undefined;
let server: ExplorerServer | undefined;
let proxy: SocketProxy | undefined;
let rest: RestProxy | undefined;
let tab: Page;
const problems: string[] = [];

/** An HTTP proxy to the indexer's REST that can hold the answers of one path prefix until released. */
interface RestProxy {
  readonly url: string;
  /** Requests to a path starting with `prefix` wait until {@link release}. */
  hold(prefix: string): void;
  /** How many requests wait. */
  waiting(): number;
  release(): void;
  close(): Promise<void>;
}

async function startRestProxy(target: string): Promise<RestProxy> {
  let prefix: string | undefined;
  let held: Array<() => void> = [];
  const httpServer: Server = createServer((req, res) => {
    if (req.method === "OPTIONS") {
      res
        .writeHead(204, {
          "access-control-allow-origin": "*",
          "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
        })
        .end();
      return;
    }
    const forward = () => {
      fetch(new URL(req.url ?? "/", target), { headers: { accept: "application/json" } }).then(
        async (answer) => {
          const headers: Record<string, string> = { "access-control-allow-origin": "*" };
          const type = answer.headers.get("content-type");
          if (type !== null) headers["content-type"] = type;
          res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
        },
        () => res.writeHead(502).end(),
      );
    };
    if (prefix !== undefined && (req.url ?? "").startsWith(prefix)) held.push(forward);
    else forward();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hold: (p) => {
      prefix = p;
    },
    waiting: () => held.length,
    release: () => {
      prefix = undefined;
      const waiting = held;
      held = [];
      for (const go of waiting) go();
    },
    close: async () => {
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/** Opens a route and waits for the page to have drawn it. */
async function open(route: string): Promise<void> {
  await tab.evaluate((hash) => {
    location.hash = hash;
  }, route);
  await tab.waitForFunction(
    () =>
      document.querySelector("main")?.children.length !== 0 &&
      document.querySelectorAll(".loading").length === 0,
    undefined,
    { timeout: 30_000 },
  );
}

const mainText = () => tab.evaluate(() => document.querySelector("main")?.textContent ?? "");

beforeAll(async () => {
  const executablePath = findChromium();
  let script: string;
  [devnet, script] = await Promise.all([
    startDevnet({ ports: "free", blockTimeMs: 0, fundedSubaccounts: 1 }),
    bundleApp(),
  ]);
  devnet.mine(3);
  const e = devnet.endpoints;
  proxy = await startSocketProxy(e.indexerWs);
  rest = await startRestProxy(e.indexer);
  const config = explorerConfig({
    network: "local",
    endpoints: { nodeRpc: e.nodeRpc, nodeRest: e.nodeRest, indexer: rest.url, indexerWs: proxy.url },
  });
  server = await startExplorer({ config, port: 0, assets: { script } });
  host = await hostPage("", executablePath);
  tab = await host.browser.newPage();
  tab.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  await tab.goto(server.url, { waitUntil: "load", timeout: 60_000 });
  await tab.waitForFunction(() => document.body.dataset.connection === "open", undefined, {
    timeout: 60_000,
  });
}, 240_000);

afterAll(async () => {
  await host?.close();
  await server?.close();
  await proxy?.close();
  await rest?.close();
  await devnet?.stop();
});

it("a route argument that is not valid percent-encoding is taken as typed, not a blank page", async () => {
  await open("#/search/100%");
  expect(await tab.locator('[data-field="not-found"]').count()).toBe(1);
  expect(await mainText()).toContain('"100%" is not a block height');
  await open("#/block/%E0%A4%A");
  expect(await mainText()).toContain("A block height is a positive integer");
  expect(problems).toEqual([]);
});

it("a market named after an Object.prototype key is an unknown market", async () => {
  for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
    await open(`#/market/${name}`);
    expect(await tab.locator('[data-field="not-found"]').textContent(), name).toBe(
      `No market ${name} on this network.`,
    );
    expect(await mainText(), name).toContain("BTC-USD");
  }
  expect(problems).toEqual([]);
});

it("a block the node has but the cut indexer feed has not announced is shown, not 'not yet'", async () => {
  await open("#/");
  proxy!.hold();
  proxy!.dropAll();
  await tab.waitForFunction(() => document.body.dataset.connection === "lost", undefined, {
    timeout: 30_000,
  });
  const [block] = devnet.mine(2).slice(-1);
  const height = String(block!.height);
  await open(`#/block/${height}`);
  expect(await tab.locator('[data-field="height"]').first().textContent()).toBe(height);
  await open(`#/search/${height}`);
  await tab.waitForFunction((h) => location.hash === `#/block/${h}`, height, { timeout: 30_000 });
  // A height above the node's is still not there yet.
  await open(`#/block/${BigInt(height) + 5n}`);
  expect(await tab.locator('[data-field="not-found"]').textContent()).toContain(
    `the chain is at height ${height}`,
  );
  proxy!.release();
  await tab.waitForFunction(() => document.body.dataset.connection === "open", undefined, {
    timeout: 30_000,
  });
  expect(problems).toEqual([]);
});

it("an account page left before its subaccounts came, then opened again, loads (no feed left subscribed)", async () => {
  const { address } = fundedSubaccountKey(0);
  rest!.hold(`/v4/addresses/${address}`);
  await tab.evaluate((hash) => {
    location.hash = hash;
  }, `#/account/${address}`);
  await expect.poll(() => rest!.waiting(), { timeout: 30_000 }).toBeGreaterThan(0);
  await open("#/");
  const answered = tab.waitForResponse((r) => r.url().includes(`/v4/addresses/${address}`));
  rest!.release();
  await answered;
  // The left page has its answer: opened again, the account subscribes to its feed and draws.
  await open(`#/account/${address}`);
  expect(await tab.locator('[data-table="subaccounts"] tbody tr').count()).toBe(1);
  expect(problems).toEqual([]);
});
