/**
 * The explorer's server and configuration: `/config.json` carries the network's endpoints from the
 * presets (or the environment), the page and its script are served, anything else is refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isMissingEndpointError } from "@perpx/core";
import { isInvalidArgumentError } from "@perpx/errors";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openSlowClients } from "../../../tests/support/slowloris.js";
import { searchKind } from "../src/app/pages/search.js";
import { parseRoute } from "../src/app/router.js";
import {
  contentSecurityPolicy,
  type ExplorerServer,
  explorerConfig,
  loadBuiltAssets,
  pageHtml,
  startExplorer,
} from "../src/index.js";

let server: ExplorerServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("explorerConfig", () => {
  it("takes the local preset's endpoints, the full socket URL, and the environment's overrides", () => {
    expect(explorerConfig({ network: "local" })).toEqual({
      network: "local",
      chainId: "perpx-local-1",
      endpoints: {
        nodeRpc: "http://127.0.0.1:26657",
        nodeRest: "http://127.0.0.1:1317",
        indexer: "http://127.0.0.1:3002",
        indexerWs: "ws://127.0.0.1:3003/v4/ws",
      },
    });
    const config = explorerConfig({
      network: "testnet",
      env: {
        PERPX_NODE_RPC_URL: "https://rpc.example",
        PERPX_NODE_REST_URL: "https://rest.example",
        PERPX_INDEXER_URL: "https://indexer.example",
        PERPX_INDEXER_WS_URL: "wss://indexer.example",
      },
    });
    expect(config.chainId).toBe("perpx-testnet-1");
    expect(config.endpoints.indexerWs).toBe("wss://indexer.example/v4/ws");
  });

  it("names the missing endpoint of a preset without defaults", () => {
    const error = (() => {
      try {
        return explorerConfig({ network: "mainnet" });
      } catch (e) {
        return e;
      }
    })();
    expect(isMissingEndpointError(error)).toBe(true);
    expect(String((error as Error).message)).toContain("PERPX_NODE_RPC_URL");
  });
});

describe("startExplorer", () => {
  it("serves the page, its script and the configuration; refuses other paths and methods", async () => {
    const config = explorerConfig({ network: "local" });
    server = await startExplorer({ config, port: 0, assets: { script: "export const page = 1;" } });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    const page = await fetch(server.url);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toBe(pageHtml("perpx-local-1"));
    const script = await fetch(`${server.url}app.js`);
    expect(script.headers.get("content-type")).toContain("text/javascript");
    expect(await script.text()).toBe("export const page = 1;");
    expect(await (await fetch(`${server.url}config.json`)).json()).toEqual(config);
    expect((await fetch(`${server.url}nope`)).status).toBe(404);
    const post = await fetch(server.url, { method: "POST", body: "x" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
  });

  it("sends a CSP without inline script or style, no framing, no referrer and nosniff on every answer", async () => {
    const config = explorerConfig({ network: "local" });
    server = await startExplorer({ config, port: 0, assets: { script: "" } });
    const csp = contentSecurityPolicy(config);
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).not.toContain("unsafe");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self' http://127.0.0.1:26657 http://127.0.0.1:1317");
    for (const path of ["", "app.js", "app.css", "config.json", "nope"]) {
      const answer = await fetch(`${server.url}${path}`);
      await answer.body?.cancel();
      expect(answer.headers.get("content-security-policy"), path).toBe(csp);
      expect(answer.headers.get("x-frame-options"), path).toBe("DENY");
      expect(answer.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(answer.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
    const style = await fetch(`${server.url}app.css`);
    expect(style.headers.get("content-type")).toContain("text/css");
    expect(await style.text()).toContain("#banner");
    // The document itself holds no inline script or style.
    expect(pageHtml(config.chainId)).not.toMatch(/<script(?![^>]*\ssrc=)|<style|\sstyle=|\son[a-z]+=/i);
  });

  it("refuses an endpoint that is not an http(s) or ws(s) URL, naming it", () => {
    const config = explorerConfig({ network: "local" });
    const bad = { ...config, endpoints: { ...config.endpoints, indexer: "javascript:alert(1)" } };
    expect(() => contentSecurityPolicy(bad)).toThrow(/config\.endpoints\.indexer/);
  });

  it("closes 200 slowloris sockets at its header timeout while it keeps answering", async () => {
    const config = explorerConfig({ network: "local" });
    server = await startExplorer({ config, port: 0, assets: { script: "" } });
    const slow = await openSlowClients(server.port, 200);
    try {
      expect(slow.open()).toBe(200);
      expect((await fetch(`${server.url}config.json`)).status).toBe(200);
      // 20 s bounds a hang only: the default header timeout (10 s) is what must end them.
      await vi.waitFor(
        async () => {
          expect((await fetch(`${server?.url}config.json`)).status).toBe(200);
          expect(slow.closedByServer()).toBe(200);
        },
        { timeout: 20_000, interval: 250 },
      );
    } finally {
      slow.stop();
    }
  }, 60_000);

  it("refuses timeouts out of range, naming them", async () => {
    const config = explorerConfig({ network: "local" });
    const assets = { script: "" };
    for (const [options, field] of [
      [{ headersTimeoutMs: 0 }, "headersTimeoutMs"],
      [{ requestTimeoutMs: 1.5 }, "requestTimeoutMs"],
      [{ headersTimeoutMs: 5_000, requestTimeoutMs: 4_000 }, "requestTimeoutMs"],
    ] as const) {
      const error = await startExplorer({ config, port: 0, assets, ...options }).catch((e: unknown) => e);
      expect(isInvalidArgumentError(error)).toBe(true);
      expect(String(error)).toContain(field);
    }
  });

  it("refuses a bad port before listening, and reports a port in use", async () => {
    const config = explorerConfig({ network: "local" });
    const assets = { script: "" };
    for (const port of [-1, 65_536, 1.5]) {
      const error = await startExplorer({ config, port, assets }).catch((e: unknown) => e);
      expect(isInvalidArgumentError(error)).toBe(true);
    }
    server = await startExplorer({ config, port: 0, assets });
    await expect(startExplorer({ config, port: server.port, assets })).rejects.toThrow(/EADDRINUSE/);
  });

  it("escapes the chain id in the title", () => {
    expect(pageHtml('<script>"x"</script>')).toContain("<title>perpx explorer: scriptx/script</title>");
  });
});

describe("the page's routes and search", () => {
  it("parses hash routes", () => {
    expect(parseRoute("")).toEqual({ page: "", argument: "" });
    expect(parseRoute("#/")).toEqual({ page: "", argument: "" });
    expect(parseRoute("#/market/BTC-USD")).toEqual({ page: "market", argument: "BTC-USD" });
    expect(parseRoute("#/search/a%20b")).toEqual({ page: "search", argument: "a b" });
  });

  it("classifies the five kinds of query", () => {
    expect(searchKind("42")).toBe("height");
    expect(searchKind("A".repeat(64))).toBe("tx");
    expect(searchKind(`0x${"ab".repeat(32)}`)).toBe("tx");
    expect(searchKind("perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc")).toBe("address");
    expect(searchKind(`0x${"00".repeat(20)}`)).toBe("address");
    expect(searchKind("0b4a5c2e-9f1d-5e6a-8b7c-1d2e3f405162")).toBe("order");
    expect(searchKind("perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc/0/900000077")).toBe("client-id");
    expect(searchKind(`0x${"00".repeat(20)}/3/7`)).toBe("client-id");
    expect(searchKind("perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc/0/x")).toBe("unknown");
    expect(searchKind("nope/0/7")).toBe("unknown");
    expect(searchKind("hello")).toBe("unknown");
  });
});

describe("loadBuiltAssets", () => {
  it("reads app.js from a folder, and names a missing bundle", async () => {
    const dir = mkdtempSync(join(tmpdir(), "perpx-explorer-"));
    try {
      writeFileSync(join(dir, "app.js"), "export {};");
      expect(await loadBuiltAssets(pathToFileURL(`${dir}/`))).toEqual({ script: "export {};" });
      rmSync(join(dir, "app.js"));
      const error = await loadBuiltAssets(pathToFileURL(`${dir}/`)).catch((e: unknown) => e);
      expect(isInvalidArgumentError(error)).toBe(true);
      expect(String(error)).toContain("build the package first");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
