/**
 * `pnpm devnet` (scripts/devnet.mjs, on the built packages): the devnet and the explorer start
 * together; the devnet's banner gains an Explorer row and its `--json` ready line an
 * `endpoints.explorer`, whose `/config.json` points at that devnet; Ctrl-C stops both.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { FREE_PORTS } from "../packages/devnet/test/support/cli-child.js";
import { sparePorts } from "./support/spare-ports.js";

const script = join(import.meta.dirname, "..", "scripts", "devnet.mjs");

let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null) {
    child.kill("SIGINT");
    await once(child, "exit");
  }
  child = undefined;
});

/** Runs the script and collects its stdout lines until `done` says so. */
async function run(args: string[], done: (lines: string[]) => boolean): Promise<string[]> {
  child = spawn(process.execPath, [script, ...args, ...FREE_PORTS], { stdio: ["ignore", "pipe", "inherit"] });
  const lines: string[] = [];
  for await (const line of createInterface({ input: child.stdout! })) {
    lines.push(line);
    if (done(lines)) break;
  }
  return lines;
}

describe("pnpm devnet", () => {
  it("prints the explorer's URL in the ready line, and the explorer serves that devnet", async () => {
    // A spare port: once the script stops, a fetch there must be refused, and a port the kernel
    // picked (port 0) could be taken by then by a parallel test's listen(0).
    const [explorerPort] = await sparePorts(1);
    const [line] = await run(
      ["--json", "--explorer-port", String(explorerPort)],
      (lines) => lines.length === 1,
    );
    const ready = JSON.parse(line!);
    expect(ready.ready).toBe(true);
    expect(ready.endpoints.explorer).toBe(`http://127.0.0.1:${explorerPort}/`);
    const config = await (await fetch(`${ready.endpoints.explorer}config.json`)).json();
    expect(config).toEqual({
      network: "local",
      chainId: "perpx-local-1",
      endpoints: {
        nodeRpc: ready.endpoints.nodeRpc,
        nodeRest: ready.endpoints.nodeRest,
        indexer: ready.endpoints.indexer,
        indexerWs: ready.endpoints.indexerWs,
      },
    });
    expect((await fetch(`${ready.endpoints.explorer}app.js`)).ok).toBe(true);
    child!.kill("SIGINT");
    const [code] = await once(child!, "exit");
    expect(code).toBe(0);
    await expect(fetch(ready.endpoints.explorer)).rejects.toThrow();
  }, 60_000);

  it("adds an Explorer row to the devnet's banner, after the indexer's", async () => {
    const lines = await run(["--explorer-port", "0"], (all) => all.includes("Press Ctrl-C to stop."));
    const at = lines.findIndex((l) => /^\s+Indexer WS\s/.test(l));
    expect(lines[at + 1]).toMatch(/^\s+Explorer\s+http:\/\/127\.0\.0\.1:\d+\/$/);
    const url = lines[at + 1]!.trim().split(/\s+/)[1]!;
    expect((await fetch(url)).headers.get("content-type")).toContain("text/html");
  }, 60_000);
});
