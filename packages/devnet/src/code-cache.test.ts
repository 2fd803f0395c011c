import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultCodeCacheDir, loadCommonJs } from "./code-cache.js";

let root: string;
let cacheDir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "perpx-code-cache-"));
  cacheDir = join(root, "cache");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes a CommonJS file that exports what its scope gives it, and a value computed at load. */
function program(name: string, value: number): string {
  const file = join(root, name);
  writeFileSync(
    file,
    `#!/usr/bin/env node
const { basename } = require("node:path");
function twice(x) { return 2 * x; }
module.exports = { value: twice(${value}), file: basename(__filename), dir: __dirname, self: this === exports, "é": "ü" };
`,
  );
  return file;
}

/**
 * `loadCommonJs(file, cacheDir)` in a fresh process, then `save()`: what V8 does with cached data
 * shows only there (inside one process, V8 reuses its own compilation of the same source).
 */
function loadInChild(file: string): { cache: string; value: number } {
  const module = fileURLToPath(new URL("./code-cache.ts", import.meta.url));
  const script = `import { loadCommonJs } from ${JSON.stringify(module)};
const loaded = loadCommonJs(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)});
loaded.save();
process.stdout.write(JSON.stringify({ cache: loaded.cache, value: loaded.exports.value }));`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    encoding: "utf8",
  });
  return JSON.parse(out);
}

describe("loadCommonJs", () => {
  it("runs the file as CommonJS: module, exports, require, __filename and __dirname are its own", () => {
    const loaded = loadCommonJs(program("a.cjs", 21), cacheDir);
    expect(loaded.exports).toEqual({ value: 42, file: "a.cjs", dir: root, self: true, é: "ü" });
  });

  it("misses and saves; the next process compiles from the cache, with the same result", () => {
    const file = program("a.cjs", 21);
    const first = loadCommonJs(file, cacheDir);
    expect(first.cache).toBe("miss");
    expect(readdirSync(cacheDir)).toEqual([]);
    first.save();
    expect(readdirSync(cacheDir)).toEqual([first.cacheFile.slice(cacheDir.length + 1)]);
    expect(loadInChild(file)).toEqual({ cache: "hit", value: 42 });
  });

  it("never reads the cache of other bytes: a changed file has another cache file", () => {
    const file = program("a.cjs", 21);
    const before = loadCommonJs(file, cacheDir);
    before.save();
    program("a.cjs", 22);
    const after = loadCommonJs(file, cacheDir);
    expect(after.cacheFile).not.toBe(before.cacheFile);
    expect(after.cache).toBe("miss");
    expect((after.exports as { value: number }).value).toBe(44);
  });

  it("runs a file whose cache V8 refuses (corrupt), and replaces that cache", () => {
    const file = program("a.cjs", 21);
    const { cacheFile } = loadCommonJs(file, cacheDir);
    writeFileSync(cacheFile, Buffer.from("not a code cache at all"));
    expect(loadInChild(file)).toEqual({ cache: "rejected", value: 42 });
    expect(loadInChild(file)).toEqual({ cache: "hit", value: 42 });
  });

  it("uses no cache directory that others can write", () => {
    mkdirSync(cacheDir, { mode: 0o700 });
    chmodSync(cacheDir, 0o777);
    const file = program("a.cjs", 21);
    const loaded = loadCommonJs(file, cacheDir);
    expect(loaded.cache).toBe("miss");
    loaded.save();
    expect(readdirSync(cacheDir)).toEqual([]);
    expect((loaded.exports as { value: number }).value).toBe(42);
  });

  it("keeps the newest cache files only", () => {
    for (let i = 0; i < 12; i++) loadCommonJs(program(`p${i}.cjs`, i), cacheDir).save();
    expect(readdirSync(cacheDir).length).toBeLessThanOrEqual(8);
  });

  it("defaults to a directory of this user under the temp directory", () => {
    expect(defaultCodeCacheDir().startsWith(tmpdir())).toBe(true);
    expect(defaultCodeCacheDir()).toContain("perpx-devnet-code-cache-");
  });
});
