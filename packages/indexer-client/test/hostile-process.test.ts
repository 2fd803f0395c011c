/**
 * A process fed hostile frames keeps running: a child keeps a book while the server sends it a bad
 * update after each (re)sync; it reports each one, resyncs, and ends by itself after three, with
 * exit code 0 and nothing on stderr. Before the guarded path, the first bad level ended it.
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

const HOSTILE = [{ bids: [[null, "2"]] }, { asks: "all" }, { bids: [["1", { size: 1 }]] }];

it(
  "a bot's process survives hostile frames and exits by itself after close()",
  async () => {
    const child = fileURLToPath(new URL("./fixtures/hostile-child.ts", import.meta.url));
    let sent = 0;
    let output = "";
    const result = await exitAfterClose({
      script: child,
      args: [fake.url],
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      onOutput: (text) => {
        output += text;
        const synced = (output.match(/ready|resync true/g) ?? []).length;
        while (sent < synced && sent < HOSTILE.length) {
          fake.publish("v4_orderbook", "BTC-USD", HOSTILE[sent++] as object);
        }
      },
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(output.trim().split("\n")).toEqual([
      "ready",
      "error bids[0][0]",
      "resync true",
      "error asks",
      "resync true",
      "error bids[0][1]",
      "resync true",
      "alive",
      "closed",
    ]);
  },
  CLOSE_TEST_TIMEOUT_MS,
);
