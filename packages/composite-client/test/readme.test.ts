import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ENDPOINT_ENV_VARS } from "@perpx/core";
import { afterAll, describe, expect, it, vi } from "vitest";
import { endpointsOf, useDevnet } from "./support.js";

const net = useDevnet();
const dir = mkdtempSync(join(tmpdir(), "perpx-composite-readme-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The README's quick start: its first TypeScript block. */
function quickStart(): string {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("the README has no ts block");
  return block;
}

describe("the README's quick start", () => {
  it("runs as written against a devnet named by the PERPX_*_URL variables, and exits by itself", async () => {
    const saved = { ...process.env };
    const endpoints = { ...endpointsOf(net.devnet), grpc: net.devnet.endpoints.grpc };
    for (const [name, url] of Object.entries(endpoints)) {
      process.env[ENDPOINT_ENV_VARS[name as keyof typeof ENDPOINT_ENV_VARS]] = url;
    }
    process.env.PERPX_NETWORK = "local";
    delete process.env.PERPX_MNEMONIC;
    const lines: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
      lines.push(args.join(" "));
    });
    try {
      const file = join(dir, "quick-start.ts");
      writeFileSync(file, quickStart());
      await import(file);
    } finally {
      log.mockRestore();
      process.env = saved;
    }
    expect(lines[0]).toMatch(/^BTC-USD oracle \d+(\.\d+)? USD, height \d+$/);
    expect(lines[1]).toMatch(/^equity \d+(\.\d+)? USDC, 0 positions$/);
    expect(lines[2]).toMatch(/^order \d+: RESTING$/);
    expect(lines[3]).toMatch(/^order \d+: CANCELED$/);
  });
});
