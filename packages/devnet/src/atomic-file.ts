/**
 * Atomic file replacement for the state directory (the chain's snapshot, the block log's first
 * header, the cached TLS certificate): write a temp file beside the target, fsync it, rename it
 * over the target. A run killed mid-write leaves only a temp file, which the next run removes.
 */
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/** What marks a temp file of {@link writeFileAtomic} (followed by the writer's pid). */
const TEMP_MARKER = ".tmp-";

/** Writes `data` to `path` atomically: a temp file, fsync, rename. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const temp = `${path}${TEMP_MARKER}${process.pid}`;
  const fd = openSync(temp, "w", 0o600);
  try {
    const buffer = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let offset = 0;
    while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/**
 * Removes the temp files a killed {@link writeFileAtomic} left in `dir` for the files `targets`
 * (`<target>.tmp-<pid>`), and nothing else: the directory may hold files of its own.
 */
export function removeAtomicTemps(dir: string, targets: readonly string[]): void {
  for (const name of readdirSync(dir)) {
    const marker = name.lastIndexOf(TEMP_MARKER);
    if (marker < 0 || !/^\d+$/.test(name.slice(marker + TEMP_MARKER.length))) continue;
    if (targets.includes(name.slice(0, marker))) rmSync(join(dir, name), { force: true });
  }
}
