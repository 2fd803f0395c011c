/**
 * Start-up time of the devnet: `startDevnet` until every server listens (the budget is 1 s), then
 * `stop()`. With a state directory the second start resumes from the state and the cached TLS
 * certificate.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, bench, describe } from "vitest";
import { startDevnet } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "perpx-devnet-bench-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("devnet start-up", () => {
  bench(
    "startDevnet + stop (in memory)",
    async () => {
      const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
      await devnet.stop();
    },
    { iterations: 20, warmupIterations: 2 },
  );

  bench(
    "startDevnet + stop (resuming from a state directory)",
    async () => {
      const devnet = await startDevnet({ ports: "free", blockTimeMs: 0, stateDir: dir });
      devnet.mine(1);
      await devnet.stop();
    },
    { iterations: 20, warmupIterations: 2 },
  );
});
