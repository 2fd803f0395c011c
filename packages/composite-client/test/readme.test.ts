import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ENDPOINT_ENV_VARS } from "@perpx/core";
import { afterAll, describe, expect, it, vi } from "vitest";
import { startCountingProxy } from "./proxy.js";
import { endpointsOf, useDevnet } from "./support.js";

const net = useDevnet();
const dir = mkdtempSync(join(tmpdir(), "perpx-composite-readme-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The README's first TypeScript block after `heading` (the quick start: the first one of all), or
 * its `nth` one after it.
 */
function snippet(heading = "", nth = 0): string {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const from = heading ? readme.indexOf(heading) : 0;
  const blocks = from < 0 ? [] : [...readme.slice(from).matchAll(/```ts\n([\s\S]*?)```/g)];
  const block = blocks[nth]?.[1];
  if (!block) throw new Error(`the README has no ts block after ${JSON.stringify(heading)}`);
  return block;
}

/** Runs a snippet as a module with the devnet's endpoints in the environment; answers its log lines. */
async function runSnippet(code: string, name: string, nodeRpc?: string): Promise<string[]> {
  const saved = { ...process.env };
  const endpoints = {
    ...endpointsOf(net.devnet),
    grpc: net.devnet.endpoints.grpc,
    ...(nodeRpc ? { nodeRpc } : {}),
  };
  for (const [key, url] of Object.entries(endpoints)) {
    process.env[ENDPOINT_ENV_VARS[key as keyof typeof ENDPOINT_ENV_VARS]] = url;
  }
  process.env.PERPX_NETWORK = "local";
  delete process.env.PERPX_MNEMONIC;
  const lines: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    lines.push(args.join(" "));
  });
  try {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, code);
    await import(file);
  } finally {
    log.mockRestore();
    process.env = saved;
  }
  return lines;
}

describe("the README's quick start", () => {
  it("runs as written against a devnet named by the PERPX_*_URL variables, and exits by itself", async () => {
    const lines = await runSnippet(snippet(), "quick-start");
    expect(lines[0]).toMatch(/^BTC-USD oracle \d+(\.\d+)? USD, height \d+$/);
    expect(lines[1]).toMatch(/^equity \d+(\.\d+)? USDC, 0 positions$/);
    expect(lines[2]).toMatch(/^order \d+: RESTING$/);
    expect(lines[3]).toMatch(/^order \d+: CANCELED$/);
  });

  it("'Connecting' runs as written: a devnet in one line, and testnet with nothing set refused naming every variable", async () => {
    expect(await runSnippet(snippet("## Connecting"), "connect-devnet")).toEqual([]);
    const code = snippet("## Connecting", 1).replace(
      /^(required\.map.*?);/m,
      "console.log(JSON.stringify($1));",
    );
    const [printed] = await runSnippet(code, "connect-testnet");
    expect(JSON.parse(printed ?? "null")).toEqual([
      "PERPX_NODE_RPC_URL",
      "PERPX_INDEXER_URL",
      "PERPX_INDEXER_WS_URL",
    ]);
  });

  it("'When the network fails mid-order' runs as written: placed, or in flight and looked up", async () => {
    const code = snippet("## When the network fails mid-order");
    const answered = await runSnippet(code, "mid-order");
    expect(answered).toEqual([expect.stringMatching(/^order \d+: RESTING$/)]);
    // The node's answer to the order's broadcast (the first one) never comes back: the order was
    // in flight, and is found.
    let swallowed = false;
    const proxy = await startCountingProxy(net.devnet.endpoints.nodeRpc, {
      swallow: (r) => {
        if (swallowed || !r.method?.startsWith("broadcast_tx")) return false;
        swallowed = true;
        return true;
      },
    });
    try {
      const lost = await runSnippet(code, "mid-order-lost", proxy.url);
      expect(lost).toEqual([expect.stringMatching(/^order \d+ was in flight \(tx [0-9A-F]{64}\): RESTING$/)]);
    } finally {
      await proxy.close();
    }
  });
});
