/**
 * The built command line (`pnpm --filter @perpx/devnet run build` first) is one self-contained
 * bundle: a start reads and compiles `dist/cli-main.cjs` and Node's built-ins, nothing from
 * node_modules but optional native addons (`secp256k1`; ws's `bufferutil` and `utf-8-validate`), and `dist/cli.cjs` (the launcher) loads
 * only that bundle.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dist = new URL("../dist/", import.meta.url);
const builtin = (specifier: string) =>
  specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0] as string);

/** The module specifiers a built file loads: `require("x")`, `import ... from "x"`, `import "x"`. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(new URL(file, dist), "utf8");
  const found = new Set<string>();
  for (const match of text.matchAll(
    /\brequire\(\s*["']([^"']+)["']\s*\)|\bfrom\s*["']([^"']+)["']|\bimport\s*["']([^"']+)["']/g,
  )) {
    found.add((match[1] ?? match[2] ?? match[3]) as string);
  }
  return [...found].sort();
}

describe("the built perpx-devnet", () => {
  it("bundles every dependency: the program requires only Node built-ins", () => {
    const loaded = specifiersOf("cli-main.cjs");
    expect(loaded.length).toBeGreaterThan(0);
    // ws tries its optional native speed-ups (inside a try, as it does from node_modules).
    const wsOptional = ["bufferutil", "utf-8-validate"];
    expect(loaded.filter((specifier) => !builtin(specifier) && !wsOptional.includes(specifier))).toEqual([]);
    // The optional addon is required at run time, relative to the package, not bundled.
    expect(readFileSync(new URL("cli-main.cjs", dist), "utf8")).toContain('"secp256k1/bindings"');
  });

  it("the launcher loads Node built-ins only (the bundle is read as a file, through the code cache)", () => {
    expect(specifiersOf("cli.cjs").filter((specifier) => !builtin(specifier))).toEqual([]);
    expect(readFileSync(new URL("cli.cjs", dist), "utf8")).toContain("cli-main.cjs");
  });

  it("runs as CommonJS from the bin on: no ES module job, as in a bare node", () => {
    const dir = mkdtempSync(join(tmpdir(), "perpx-devnet-bin-"));
    try {
      // A preload that reports, at exit, the built-in modules the process loaded.
      const preload = join(dir, "report.cjs");
      writeFileSync(
        preload,
        'process.on("exit", () => process.stderr.write("loaded:" + process.moduleLoadList.join(",")));',
      );
      const bin = fileURLToPath(new URL("../bin/perpx-devnet.js", import.meta.url));
      const run = spawnSync(process.execPath, ["--require", preload, bin, "--help"], { encoding: "utf8" });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain("perpx-devnet");
      const loaded = run.stderr.slice(run.stderr.lastIndexOf("loaded:")).split(",");
      expect(loaded).toContain("NativeModule vm");
      expect(loaded.filter((name) => /esm\/(module_job|translators)/.test(name))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
