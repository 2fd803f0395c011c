/**
 * A process may exit while its signature workers are at work (`process.exit()` during order flow):
 * the `secp256k1` addon aborts a process whose thread Node tears down inside it, so the exit first
 * holds the workers out of the addon (`src/app/lib/signature-worker.ts`). Before that hold, 7 of 150
 * such processes aborted here (8 workers each), and this test failed 2 runs of 3. Child processes exit
 * at different points of their workers' start and checks: every one must exit with code 0.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { secp256k1AddonPath } from "../src/app/lib/crypto.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const addon = secp256k1AddonPath();

/** Runs the child; resolves with its exit code, or the signal that ended it. */
function exitDuringChecks(delayMs: number): Promise<number | string> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ["--import", "tsx", "test/support/worker-exit-child.ts", addon as string, String(delayMs)],
      { cwd: packageDir },
    );
    child.on("exit", (code, signal) => resolve(code ?? signal ?? "no code"));
  });
}

describe.runIf(addon !== undefined)("a process exiting while its signature workers check", () => {
  it("exits with its own code, never an abort (10 processes of 16 workers)", async () => {
    const outcomes: Array<number | string> = [];
    for (let pair = 0; pair < 5; pair++) {
      outcomes.push(
        ...(await Promise.all([exitDuringChecks(4 * pair + 2), exitDuringChecks(4 * pair + 20)])),
      );
    }
    expect(outcomes).toEqual(Array(10).fill(0));
  }, 120_000);
});
