/**
 * Soak: with a small pruning window, the devnet's heap is flat under a steady tx flow once the
 * window has filled. A child process (`--expose-gc`) runs the flow (half short-term orders, asks
 * resting and IOC buys filling them, half bank sends) for 2,000 txs and measures the heap after
 * a full GC at the end of the warm-up and at the end. Without pruning the same flow grows the heap
 * by about 7.5 KB per tx; the tolerance here is a fifth of that.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

interface SoakResult {
  warmHeap: number;
  endHeap: number;
  warmRss: number;
  endRss: number;
  txs: number;
  seconds: number;
  height: string;
  baseHeight: string;
}

function soak(config: Record<string, number | string>): Promise<SoakResult> {
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--import", "tsx", "test/support/soak-child.ts", JSON.stringify(config)],
    { cwd: packageDir, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve, reject) => {
    // 'close', not 'exit': the last line (the result) may still be in the pipe when the child exits.
    child.once("close", (code) => {
      if (code !== 0) reject(new Error(`the soak child exited with ${code}: ${err}`));
      else resolve(JSON.parse(out.trim().split("\n").at(-1) as string) as SoakResult);
    });
  });
}

describe("soak", () => {
  it("keeps the heap flat under a steady order and transfer flow once the pruning window has filled", async () => {
    const keepRecent = 20;
    const result = await soak({
      flow: "orders",
      keepRecent,
      warmBlocks: 3 * keepRecent,
      txs: 2000,
      txsPerBlock: 20,
    });
    const growth = result.endHeap - result.warmHeap;
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    const summary = `${result.txs} txs in ${result.seconds} s: heap ${mb(result.warmHeap)} -> ${mb(result.endHeap)}, rss ${mb(result.warmRss)} -> ${mb(result.endRss)}`;
    expect(result.txs, summary).toBeGreaterThanOrEqual(2000);
    // The window held: only the latest blocks are in memory.
    expect(BigInt(result.height) - BigInt(result.baseHeight) + 1n).toBe(BigInt(keepRecent));
    expect(growth / result.txs, summary).toBeLessThan(1536);
  }, 900_000); // only catches a hang: the flow runs to its count of txs, minutes at load 20
});
