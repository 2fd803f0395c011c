/**
 * `close()` ends everything: a process that connected, kept a book and closed the socket exits by
 * itself, with no timer, socket or listener left to hold it.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type FakeIndexer, startFakeIndexer } from "./support/fake-indexer.js";

let fake: FakeIndexer;
beforeAll(async () => {
  fake = await startFakeIndexer();
});
afterAll(() => fake.stop());

it("a process exits by itself after close()", async () => {
  const child = fileURLToPath(new URL("./fixtures/close-child.ts", import.meta.url));
  const result = await new Promise<{ code: number | null; afterCloseMs: number; stderr: string }>(
    (resolve, reject) => {
      const proc = spawn(process.execPath, ["--import", "tsx", child, fake.url], {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let closedAt: number | undefined;
      let stderr = "";
      proc.stdout.on("data", (chunk: Buffer) => {
        const text = chunk.toString();
        if (text.includes("ready")) fake.setLevel("BTC-USD", "bids", "100", "1");
        if (text.includes("closed")) closedAt = performance.now();
      });
      proc.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      // A process that does not exit is killed after 15 s; the assertion below then fails.
      const guard = setTimeout(() => proc.kill("SIGKILL"), 15_000);
      proc.on("error", reject);
      proc.on("exit", (code) => {
        clearTimeout(guard);
        resolve({
          code,
          afterCloseMs: closedAt === undefined ? Number.POSITIVE_INFINITY : performance.now() - closedAt,
          stderr,
        });
      });
    },
  );
  expect(result.code, result.stderr).toBe(0);
  // The child pinged every 50 ms and had a 5 s idle timeout: exiting well before either could
  // fire again shows that close() cleared them.
  expect(result.afterCloseMs).toBeLessThan(2_000);
}, 30_000);
