import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startDevnet } from "./devnet.js";
import {
  DevnetStateLockedError,
  isDevnetStateLockedError,
  LOCK_FILE,
  lockStateDirectory,
} from "./state-lock.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "perpx-devnet-lock-"));
  dirs.push(dir);
  return dir;
}

function deadPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid;
}

function lockError(dir: string): DevnetStateLockedError {
  try {
    lockStateDirectory(dir).release();
  } catch (error) {
    if (error instanceof DevnetStateLockedError) return error;
    throw error;
  }
  throw new Error("the lock was taken");
}

describe("the state directory lock", () => {
  it("writes the holder's pid, host and start time, and removes the file on release", () => {
    const dir = tempDir();
    const lock = lockStateDirectory(dir, () => new Date("2026-01-02T03:04:05Z"));
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8"))).toEqual({
      pid: process.pid,
      host: hostname(),
      startedAt: "2026-01-02T03:04:05.000Z",
    });
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a second holder while the first lives, naming the holder", () => {
    const dir = tempDir();
    const lock = lockStateDirectory(dir);
    const error = lockError(dir);
    expect(isDevnetStateLockedError(error)).toBe(true);
    expect(error.holder).toEqual(lock.holder);
    expect(error.message).toContain(`held by pid ${process.pid} on ${hostname()}`);
    lock.release();
    lockStateDirectory(dir).release();
  });

  it("takes over the stale lock of a dead process", () => {
    const dir = tempDir();
    const pid = deadPid();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid, host: hostname(), startedAt: "then" }));
    const lock = lockStateDirectory(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("takes over a lock and a takeover guard naming its own pid that it does not hold (a restarted container)", () => {
    // A container killed and started again runs the devnet under the same pid and hostname: the
    // lock its first run left names this very process, which is not the one holding it.
    const dir = tempDir();
    const before = JSON.stringify({ pid: process.pid, host: hostname(), startedAt: "before the restart" });
    writeFileSync(join(dir, LOCK_FILE), before);
    writeFileSync(join(dir, `${LOCK_FILE}.takeover`), before);
    const lock = lockStateDirectory(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).startedAt).toBe(lock.holder.startedAt);
    // Held now by this process: a second holder in it is still refused.
    expect(lockError(dir).holder).toEqual(lock.holder);
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("removes a takeover guard its dead holder left, then takes over", () => {
    const dir = tempDir();
    const stale = JSON.stringify({ pid: deadPid(), host: hostname(), startedAt: "then" });
    writeFileSync(join(dir, LOCK_FILE), stale);
    writeFileSync(join(dir, `${LOCK_FILE}.takeover`), stale);
    const lock = lockStateDirectory(dir);
    expect(lock.holder.pid).toBe(process.pid);
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a lock of another host (whose pid cannot be checked) and a lock it cannot read", () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: deadPid(), host: "elsewhere.example", startedAt: "then" }),
    );
    expect(lockError(dir).message).toMatch(/on elsewhere\.example since then/);
    expect(lockError(dir).details).toContain(`delete ${join(dir, LOCK_FILE)}`);
    writeFileSync(join(dir, LOCK_FILE), "not json");
    expect(lockError(dir).message).toMatch(/held by pid 0 on an unknown host/);
  });

  it("release leaves a lock that is no longer this holder's", () => {
    const dir = tempDir();
    const lock = lockStateDirectory(dir);
    const other = JSON.stringify({ pid: 1, host: hostname(), startedAt: "later" });
    writeFileSync(join(dir, LOCK_FILE), other);
    lock.release();
    expect(readFileSync(join(dir, LOCK_FILE), "utf8")).toBe(other);
  });

  it("makes a second startDevnet on the same directory fail, and frees it on stop", async () => {
    const dir = tempDir();
    const first = await startDevnet({ ports: "free", blockTimeMs: 0, stateDir: dir });
    const refused = await startDevnet({ ports: "free", blockTimeMs: 0, stateDir: dir }).then(
      (devnet) => devnet.stop().then(() => undefined),
      (error: unknown) => error,
    );
    expect(isDevnetStateLockedError(refused)).toBe(true);
    first.mine(2);
    await first.stop();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const second = await startDevnet({ ports: "free", blockTimeMs: 0, stateDir: dir });
    expect(second.app.latestBlock().height).toBe(3n);
    await second.stop();
  }, 30_000);
});
