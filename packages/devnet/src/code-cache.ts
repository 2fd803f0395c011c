/**
 * Runs one CommonJS file through V8's code cache, so the next process skips compiling it.
 *
 * Node 20 has no `module.enableCompileCache` (Node 22.1). This does the same for the devnet's
 * command-line bundle: the file is compiled as a `vm.Script` with the cached data an earlier run
 * left, when there is one, and {@link CachedModule.save} (called once the program is up) writes
 * the code V8 has compiled by then, so the functions a start runs come out of the cache too.
 *
 * Never wrong when stale: a cache file is named by the SHA-256 of the file's bytes, the Node
 * version and the architecture, so a rebuilt bundle or another Node never reads it, and V8 checks
 * its own version, flags and the source before using the data (it rejects the rest, the script
 * compiles as usual and `save` replaces the file). The directory is the user's own (mode 0700,
 * owned by this user, checked before every read), since cached data is code. Any failure of the
 * cache (unreadable, unwritable, corrupt) costs only the speed-up: the file still runs.
 */
import { isAscii } from "node:buffer";
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Script } from "node:vm";

/** How many cache files a directory keeps (the newest): one per build a user runs. */
const KEEP_FILES = 8;

/** What {@link loadCommonJs} ran, and how. */
export interface CachedModule {
  /** The file's `module.exports`. */
  readonly exports: unknown;
  /**
   * `hit`: compiled from the cache; `miss`: no cache (or no usable cache directory); `rejected`:
   * V8 refused the cached data (the file compiled as usual).
   */
  readonly cache: "hit" | "miss" | "rejected";
  /** The cache file of this file's bytes, Node version and architecture (written or not). */
  readonly cacheFile: string;
  /**
   * Writes the code compiled so far to {@link cacheFile} when the cache was not a hit; atomic (a
   * reader sees the old file or the new one), silent on failure.
   */
  save(): void;
}

/** The user's private cache directory under the temp directory: `perpx-devnet-code-cache-<uid>`. */
export function defaultCodeCacheDir(): string {
  const user = typeof process.getuid === "function" ? String(process.getuid()) : "user";
  return join(tmpdir(), `perpx-devnet-code-cache-${user}`);
}

/** Whether `dir` exists (or is created) as a directory only this user can write. */
function privateDirectory(dir: string): boolean {
  try {
    // Not `recursive`: the parent (the temp directory) exists, and a recursive mkdir can spin
    // forever under some parents (/proc on Linux).
    if (!existsSync(dir)) mkdirSync(dir, { mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return false;
    if (typeof process.getuid === "function" && stat.uid !== process.getuid()) return false;
    return process.platform === "win32" || (stat.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** Runs `step`; the cache is an optimization, so a failure of it is dropped. */
function ignoreFailure(step: () => void): void {
  try {
    step();
  } catch {
    // nothing to do: the program runs without the cache
  }
}

/** Deletes all but the newest {@link KEEP_FILES} cache files of `dir`. */
function prune(dir: string): void {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".v8cache"))
    .map((name) => ({ path: join(dir, name), mtimeMs: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const stale of files.slice(KEEP_FILES)) rmSync(stale.path, { force: true });
}

/**
 * Compiles and runs the CommonJS file `file` (as Node's `require` would: its own `module`,
 * `exports`, `require`, `__filename` and `__dirname`) with V8's code cache in `cacheDir`.
 *
 * @param file - absolute path of a CommonJS file.
 * @param cacheDir - where cache files live (created 0700 when missing, in an existing parent); {@link defaultCodeCacheDir}
 *   by default. A directory another user owns or can write is not used.
 * @returns the file's exports, whether the cache was used, and `save()` for once it is warm.
 */
export function loadCommonJs(file: string, cacheDir: string = defaultCodeCacheDir()): CachedModule {
  const bytes = readFileSync(file);
  const key = createHash("sha256")
    .update(bytes)
    .update(`\0${process.version}\0${process.arch}`)
    .digest("hex")
    .slice(0, 40);
  const cacheFile = join(cacheDir, `${key}.v8cache`);
  const usable = privateDirectory(cacheDir);
  let cachedData: Buffer | undefined;
  if (usable) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  // ASCII (the devnet's bundle is) reads as Latin-1: a copy, no UTF-8 decoding. A shebang line is
  // not JavaScript inside the wrapper: `//` keeps every position.
  const text = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
  const body = text.startsWith("#!") ? `//${text.slice(2)}` : text;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${body}\n})`, {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const cache = cachedData === undefined ? "miss" : script.cachedDataRejected === true ? "rejected" : "hit";
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  let saved = cache === "hit" || !usable;
  return {
    exports: module.exports,
    cache,
    cacheFile,
    save() {
      if (saved) return;
      saved = true;
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        renameSync(temporary, cacheFile);
        prune(cacheDir);
      } catch {
        ignoreFailure(() => rmSync(temporary, { force: true }));
      }
    },
  };
}
