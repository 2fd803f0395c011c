/**
 * The built `perpx-devnet start` (`pnpm --filter @perpx/devnet build` first) stopped by SIGTERM during
 * its start-up exits 0 and leaves nothing held (no state directory lock, no port), as a stop once it
 * is ready does. The signal is sent at states of the start-up, never after a sleep: while the
 * launcher reads its program bundle (the child sends it to itself from a preloaded hook, the one way
 * to hit that moment), once the state directory is locked, and once its first server listens. A
 * signal before Node runs the program's first line takes Node's default action: no program can
 * handle it (see src/cli-signals.ts).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isPortFree, sparePorts } from "../../../tests/support/spare-ports.js";
import { LOCK_FILE } from "../src/state-lock.js";
import { FREE_PORTS, killChildren, spawnCli } from "./support/cli-child.js";

const dirs: string[] = [];
afterAll(() => {
  killChildren();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A spare port for every server, as flags, and the ports. */
async function sparePortFlags(): Promise<{ flags: string[]; ports: number[] }> {
  const names = FREE_PORTS.filter((arg) => arg.startsWith("--port-"));
  const ports = await sparePorts(names.length);
  return { flags: names.flatMap((name, i) => [name, String(ports[i])]), ports };
}

/** Whether something accepts connections on `port` (a probe that never binds the port itself). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Starts the built CLI on spare ports with a state directory; nothing is awaited. */
async function startBuilt(env?: NodeJS.ProcessEnv) {
  const stateDir = tempDir("perpx-devnet-sigterm-");
  const { flags, ports } = await sparePortFlags();
  const run = spawnCli(["start", "--json", "--block-time-ms", "5", "--state", stateDir, ...flags], {
    built: true,
    ...(env === undefined ? {} : { env }),
  });
  return { ...run, stateDir, ports };
}

/** What the stopped CLI left: its exit, whether the lock is gone, and whether every port is free. */
async function leftBehind(run: Awaited<ReturnType<typeof startBuilt>>) {
  const exit = await run.exited;
  const free = await Promise.all(run.ports.map((port) => isPortFree(port)));
  return {
    exit,
    locked: existsSync(join(run.stateDir, LOCK_FILE)),
    held: run.ports.filter((_, i) => !free[i]),
    stderr: run.stderr(),
  };
}

const clean = { exit: { code: 0, signal: null }, locked: false, held: [], stderr: "" };

describe("perpx-devnet start stopped by SIGTERM during its start-up", () => {
  it("while it loads its program: exits 0 before starting anything", async () => {
    // Preloaded into the child: sends itself SIGTERM as the launcher reads the program bundle.
    const hook = join(tempDir("perpx-devnet-hook-"), "sigterm-at-load.cjs");
    writeFileSync(
      hook,
      `const fs = require("node:fs");
const read = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (typeof file === "string" && file.endsWith("cli-main.cjs")) {
    fs.readFileSync = read;
    process.kill(process.pid, "SIGTERM");
  }
  return read.call(this, file, ...rest);
};
`,
    );
    const run = await startBuilt({ NODE_OPTIONS: `--require ${hook}` });
    expect(await leftBehind(run)).toEqual(clean);
    expect(run.stdout()).toBe(""); // never ready
    expect(readdirSync(run.stateDir)).toEqual([]);
  }, 150_000);

  it("once its state directory is locked: stops what started, releases the lock and every port", async () => {
    const run = await startBuilt();
    await expect
      .poll(() => existsSync(join(run.stateDir, LOCK_FILE)), { timeout: 120_000, interval: 1 })
      .toBe(true);
    run.child.kill("SIGTERM");
    expect(await leftBehind(run)).toEqual(clean);
  }, 150_000);

  it("once its first server listens: stops what started, releases the lock and every port", async () => {
    const run = await startBuilt();
    await expect
      .poll(async () => (await Promise.all(run.ports.map(listening))).some(Boolean), {
        timeout: 120_000,
        interval: 1,
      })
      .toBe(true);
    run.child.kill("SIGTERM");
    expect(await leftBehind(run)).toEqual(clean);
  }, 150_000);
});
