/**
 * `close()` ends everything: a process that connected, kept a book and closed the socket exits by
 * itself, with no timer, socket or listener left to hold it.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { exitAfterClose } from "../../../tests/support/exit-after-close.js";
import { type FakeIndexer, startFakeIndexer } from "./support/fake-indexer.js";

let fake: FakeIndexer;
beforeAll(async () => {
  fake = await startFakeIndexer();
});
afterAll(() => fake.stop());

it("a process exits by itself after close()", async () => {
  const child = fileURLToPath(new URL("./fixtures/close-child.ts", import.meta.url));
  const result = await exitAfterClose({
    script: child,
    args: [fake.url],
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    killAfterMs: 15_000,
    onOutput: (text) => {
      if (text.includes("ready")) fake.setLevel("BTC-USD", "bids", "100", "1");
    },
  });
  expect(result.code, result.stderr).toBe(0);
  // The child pinged every 50 ms and had a 5 s idle timeout: exiting well before either could
  // fire again shows that close() cleared them.
  expect(result.afterCloseMs).toBeLessThan(2_000);
}, 30_000);
