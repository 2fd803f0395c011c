/**
 * `close()` ends everything: a process that connected, kept a book and closed the socket holds no
 * timer, socket or handle of the client's afterwards and exits by itself. Nothing is timed: the
 * child pinged every 50 ms with a 5 s idle timeout, and either timer left armed shows in its report.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CLOSE_TEST_TIMEOUT_MS, exitAfterClose } from "../../../tests/support/exit-after-close.js";
import { type FakeIndexer, startFakeIndexer } from "./support/fake-indexer.js";

let fake: FakeIndexer;
beforeAll(async () => {
  fake = await startFakeIndexer();
});
afterAll(() => fake.stop());

it(
  "a process exits by itself after close()",
  async () => {
    const child = fileURLToPath(new URL("./fixtures/close-child.ts", import.meta.url));
    const result = await exitAfterClose({
      script: child,
      args: [fake.url],
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      onOutput: (text) => {
        if (text.includes("ready")) fake.setLevel("BTC-USD", "bids", "100", "1");
      },
    });
    expect(result.left, result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
  },
  CLOSE_TEST_TIMEOUT_MS,
);
