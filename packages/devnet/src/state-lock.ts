/**
 * The lock of a state directory: one devnet at a time may use it. The lock is a file,
 * {@link LOCK_FILE}, holding the holder's pid, host and start time; it appears complete or not at
 * all (written to a private temp file, then hard-linked into place, which fails when the lock
 * exists). A lock whose holder is a dead process of this host (a devnet killed with SIGKILL) is
 * stale and taken over: under a short takeover guard (itself a file created exclusively), the stale
 * lock is re-read, removed only if unchanged, and the lock is created again.
 */

import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { errorGuard, PerpxError } from "@perpx/errors";
import { DevnetError } from "./devnet-error.js";

/**
 * The lock file in the state directory, present while a devnet uses it.
 *
 * @example
 * ```ts
 * import { mkdtempSync, readFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const stateDir = mkdtempSync(join(tmpdir(), "perpx-state-"));
 * const lock = lockStateDirectory(stateDir);
 * const holder = JSON.parse(readFileSync(join(stateDir, LOCK_FILE), "utf8")); // { pid, host, startedAt }
 * holder.pid === process.pid; // true
 * lock.release();
 * ```
 */
export const LOCK_FILE = "devnet.lock";

/** The guard a stale lock is taken over under. */
const TAKEOVER_FILE = `${LOCK_FILE}.takeover`;

/**
 * Who holds a state directory's lock.
 *
 * @example
 * ```ts
 * const holder: LockHolder = { pid: 4242, host: "laptop", startedAt: "2026-01-01T00:00:00.000Z" };
 * ```
 */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the holder took the lock. */
  startedAt: string;
}

/**
 * Another devnet (alive, or on another host) holds the state directory's lock.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const stateDir = mkdtempSync(join(tmpdir(), "perpx-state-"));
 * const first = await startDevnet({ ports: "free", blockTimeMs: 0, stateDir });
 * try {
 *   await startDevnet({ ports: "free", stateDir }); // throws DevnetStateLockedError
 * } finally {
 *   await first.stop();
 * }
 * ```
 */
export class DevnetStateLockedError extends PerpxError {
  override name = "DevnetStateLockedError";
  /** The path of the lock file. */
  readonly lockFile: string;
  /** The devnet that holds the lock. */
  readonly holder: LockHolder;

  /**
   * @param lockFile - the path of the lock file.
   * @param holder - who holds it.
   */
  constructor(lockFile: string, holder: LockHolder) {
    const sameHost = holder.host === hostname();
    super(
      "DEVNET",
      `The state directory is in use: ${lockFile} is held by pid ${holder.pid} on ${holder.host} since ${holder.startedAt}`,
      {
        details: sameHost
          ? `stop that devnet (kill ${holder.pid}) or use another --state directory`
          : `a devnet on host ${holder.host} uses this directory; stop it, or delete ${lockFile} if it is gone`,
      },
    );
    this.lockFile = lockFile;
    this.holder = holder;
  }
}

/**
 * True when `value` is a {@link DevnetStateLockedError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * import { mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const stateDir = mkdtempSync(join(tmpdir(), "perpx-state-"));
 * const lock = lockStateDirectory(stateDir);
 * let refusal: unknown;
 * try {
 *   lockStateDirectory(stateDir); // a second devnet on the same directory
 * } catch (error) {
 *   refusal = error;
 * }
 * isDevnetStateLockedError(refusal); // true
 * isDevnetStateLockedError(refusal) && refusal.holder.pid === process.pid; // true
 * isDevnetStateLockedError(new Error("busy")); // false
 * lock.release();
 * ```
 */
export const isDevnetStateLockedError = errorGuard<DevnetStateLockedError>("DevnetStateLockedError");

/** A held lock; `release` removes the lock file if it is still this holder's. */
export interface StateLock {
  readonly holder: LockHolder;
  release(): void;
}

/** Whether `pid` is a live process of this host (EPERM: alive, owned by someone else). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(path: string): { text: string; holder: LockHolder | undefined } | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (
      typeof value.pid === "number" &&
      Number.isSafeInteger(value.pid) &&
      typeof value.host === "string" &&
      typeof value.startedAt === "string"
    ) {
      return { text, holder: { pid: value.pid, host: value.host, startedAt: value.startedAt } };
    }
  } catch {
    // Not a lock this devnet wrote: reported as held by an unknown holder below.
  }
  return { text, holder: undefined };
}

/** Creates `path` holding `text`, complete, or throws EEXIST when it exists. */
function createExclusive(path: string, text: string): void {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}`;
  const fd = openSync(temp, "wx", 0o644);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    linkSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}

function isExists(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "EEXIST";
}

/**
 * The lock files this process holds (by real path), shared by every copy of this module loaded in
 * it: a lock naming this process's pid that is not among them was left by an earlier process that
 * had the same pid (a container restarted after a kill runs the devnet under the same pid).
 */
const HELD_LOCKS = Symbol.for("@perpx/devnet.heldStateLocks");

/** The set of {@link HELD_LOCKS}, made by the first lock taken (importing this module changes no global). */
function held(): Set<string> {
  const registry = globalThis as { [HELD_LOCKS]?: Set<string> };
  registry[HELD_LOCKS] ??= new Set<string>();
  return registry[HELD_LOCKS];
}

/**
 * Whether `holder`, of the lock (or guard) file at real path `key`, is gone, so its lock is stale:
 * a dead process of this host, or this process's pid when this process does not hold `key`.
 */
function stale(holder: LockHolder, key: string): boolean {
  if (holder.host !== hostname()) return false;
  return holder.pid === process.pid ? !held().has(key) : !alive(holder.pid);
}

/**
 * Removes a stale lock file whose content is still `text`, under the takeover guard. Returns
 * false when another process is taking it over right now.
 */
function removeStale(dir: string, text: string): boolean {
  const guard = join(dir, TAKEOVER_FILE);
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString() });
  try {
    createExclusive(guard, mine);
  } catch (error) {
    if (!isExists(error)) throw error;
    const other = readHolder(guard)?.holder;
    // A guard left by a process killed mid-takeover is removed; the next attempt takes it.
    if (other !== undefined && stale(other, guard)) rmSync(guard, { force: true });
    return false;
  }
  try {
    const path = join(dir, LOCK_FILE);
    if (readHolder(path)?.text === text) rmSync(path, { force: true });
    return true;
  } finally {
    rmSync(guard, { force: true });
  }
}

/**
 * Takes the lock of state directory `dir` for this process.
 *
 * @param dir - the state directory (it exists).
 * @returns the held lock.
 * @throws {DevnetStateLockedError} when a live devnet (or one on another host) holds it.
 */
export function lockStateDirectory(dir: string, now: () => Date = () => new Date()): StateLock {
  const path = join(dir, LOCK_FILE);
  const key = join(realpathSync(dir), LOCK_FILE); // of `held`, the same through any symlink
  const holder: LockHolder = { pid: process.pid, host: hostname(), startedAt: now().toISOString() };
  const text = `${JSON.stringify(holder)}\n`;
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      createExclusive(path, text);
      held().add(key);
      return {
        holder,
        release: () => {
          held().delete(key);
          if (readHolder(path)?.text === text) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if (!isExists(error)) throw error;
    }
    const current = readHolder(path);
    if (current === undefined) continue; // released in between: try again
    const other = current.holder ?? { pid: 0, host: "an unknown host", startedAt: "an unknown time" };
    if (current.holder === undefined || !stale(other, key)) throw new DevnetStateLockedError(path, other);
    removeStale(dir, current.text);
  }
  throw new DevnetError("unavailable", `could not take the lock ${path}: other devnets keep taking it over`);
}
