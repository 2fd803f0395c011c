/**
 * @perpx/node-client in real headless Chromium (Debian's `chromium`, driven by playwright-core): a
 * page bundled from the package's browser entry, served from its own origin, creates a wallet,
 * reads the chain over RPC (fetch and WebSocket) and gRPC-web (cross-origin, so CORS is exercised),
 * and places and cancels a long-term order on a devnet.
 */
import { fileURLToPath } from "node:url";
import { type Devnet, startDevnet } from "@perpx/devnet";
import { build, type Metafile } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perpxSource } from "../../../tests/support/source-plugin.js";
import { findChromium, INSTALL_CHROMIUM } from "./browser/chromium.js";
import { type BrowserHost, hostPage } from "./browser/host.js";
import type { ScenarioConfig, ScenarioReport } from "./browser/page.js";

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
    plugins: [perpxSource(["errors", "proto", "address", "core", "node-client"])],
    logLevel: "silent",
  });
  return { code: result.outputFiles[0]!.text, metafile: result.metafile };
}

let devnet: Devnet;
let page: { code: string; metafile: Metafile };
let host: BrowserHost | undefined;
let pageUrl: string;
let browser: Browser;
const consoleLines: string[] = [];

beforeAll(async () => {
  const executablePath = findChromium(); // throws with what to install: never a silent skip
  [devnet, page] = await Promise.all([
    startDevnet({ ports: "free", blockTimeMs: 200, faucetWindowMs: 0 }),
    bundlePage(),
  ]);
  host = await hostPage(page.code, executablePath);
  ({ browser, pageUrl } = host);
}, 180_000);

afterAll(async () => {
  await host?.close();
  await devnet?.stop();
});

describe("in headless Chromium", () => {
  it("finds Chromium or says what to install", () => {
    expect(() => findChromium({ PATH: "/nonexistent" })).toThrow(INSTALL_CHROMIUM);
    expect(() => findChromium({ CHROMIUM_PATH: "/nonexistent/chromium" })).toThrow(
      /apt-get install -y chromium/,
    );
  });

  it("bundles with no node: module, cosmjs, connect-node or native addon in the graph", () => {
    const inputs = Object.keys(page.metafile.inputs);
    expect(inputs.some((input) => input.includes("src/transport/platform-browser.ts"))).toBe(true);
    expect(inputs.some((input) => input.includes("src/crypto/platform-browser.ts"))).toBe(true);
    expect(
      inputs.filter((input) =>
        /^node:|@cosmjs|connect-node|secp256k1@|node_modules\/(\.pnpm\/)?ws[@/]|platform-node/.test(input),
      ),
    ).toEqual([]);
    expect(page.code).not.toMatch(/["']node:[a-z_/]+["']/);
    expect(page.code).not.toMatch(/\brequire\(/);
  });

  it("creates a wallet, reads the chain, places and cancels a long-term order", async () => {
    const tab = await browser.newPage();
    tab.on("console", (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
    tab.on("pageerror", (error) => consoleLines.push(`pageerror: ${error.message}`));
    await tab.goto(pageUrl, { waitUntil: "load", timeout: 60_000 });
    await tab.waitForFunction(() => "perpxScenario" in globalThis, undefined, { timeout: 60_000 });
    const alice = devnet.accounts[0]!;
    const config: ScenarioConfig = {
      rpc: devnet.endpoints.nodeRpc,
      rpcWebsocket: devnet.endpoints.nodeRpcWs,
      grpcWeb: devnet.endpoints.nodeRest,
      mnemonic: alice.mnemonic,
    };
    const report = await tab.evaluate(
      (c) =>
        (
          globalThis as unknown as { perpxScenario(c: ScenarioConfig): Promise<ScenarioReport> }
        ).perpxScenario(c),
      config,
    );
    expect(report.error, `${String(report.error)}\nconsole:\n${consoleLines.join("\n")}`).toBeUndefined();
    expect(report.origin).toBe(pageUrl.replace(/\/$/, ""));
    expect(new URL(devnet.endpoints.nodeRest).origin).not.toBe(report.origin); // cross-origin calls
    expect(report.address).toBe(alice.address);
    expect(report.signerBackend).toBe("js");
    expect(report.chainId).toBe("perpx-local-1");
    expect(BigInt(report.height as string)).toBeGreaterThan(0n);
    expect(BigInt(report.balance as string)).toBeGreaterThan(0n);
    expect(report.ticker).toMatch(/-USD$/);
    expect(BigInt(report.oraclePrice as string)).toBeGreaterThan(0n);
    expect(BigInt(report.wsHeight as string)).toBeGreaterThanOrEqual(BigInt(report.height as string));
    expect(BigInt(report.subscribedHeight as string)).toBeGreaterThan(0n);
    expect(report.depositCode).toBe(0);
    expect(report.placeCode).toBe(0);
    expect(BigInt(report.placeHeight as string)).toBeGreaterThan(0n);
    expect(report.storedClientId).toBeGreaterThan(0);
    expect(report.cancelCode).toBe(0);
    expect(report.goneAfterCancel).toBe(true);
    await tab.close();
  }, 240_000);
});
