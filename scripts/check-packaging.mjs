#!/usr/bin/env node
// publint and attw (are-the-types-wrong) on the packed tarball of every publishable package.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const packagesDir = join(import.meta.dirname, "..", "packages");
const bin = (name) => join(import.meta.dirname, "..", "node_modules", ".bin", name);
let failed = 0;

for (const name of readdirSync(packagesDir).sort()) {
  const dir = join(packagesDir, name);
  if (!existsSync(join(dir, "package.json"))) continue;
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (pkg.private) continue;
  for (const [tool, args] of [
    ["publint", ["--strict"]],
    ["attw", ["--pack", ".", "--profile", "node16", "--format", "table-flipped"]],
  ]) {
    const result = spawnSync(bin(tool), args, { cwd: dir, encoding: "utf8" });
    const ok = result.status === 0;
    console.log(`${ok ? "ok  " : "FAIL"} ${tool} ${pkg.name}`);
    if (!ok) {
      failed++;
      console.log(result.stdout, result.stderr);
    }
  }
}
if (failed > 0) {
  console.error(`${failed} packaging check(s) failed`);
  process.exit(1);
}
