#!/usr/bin/env node
// publint and attw (are-the-types-wrong) on the packed tarball of every publishable package. The
// checks are independent processes that each keep one core busy, so they run one per core at a
// time; their lines print in the same order as when they ran one by one.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";

const packagesDir = join(import.meta.dirname, "..", "packages");
const bin = (name) => join(import.meta.dirname, "..", "node_modules", ".bin", name);

/** Every check: a tool, its arguments and the package folder it runs in. */
const checks = [];
for (const name of readdirSync(packagesDir).sort()) {
  const dir = join(packagesDir, name);
  if (!existsSync(join(dir, "package.json"))) continue;
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (pkg.private) continue;
  checks.push({ tool: "publint", args: ["--strict"], dir, name: pkg.name });
  checks.push({
    tool: "attw",
    args: ["--pack", ".", "--profile", "node16", "--format", "table-flipped"],
    dir,
    name: pkg.name,
  });
}

/** Runs one check and resolves with whether it passed and what it printed. */
function run({ tool, args, dir }) {
  return new Promise((resolve) => {
    const child = spawn(bin(tool), args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", (error) => resolve({ ok: false, stdout, stderr: `${stderr}${error}` }));
    child.on("close", (code) => resolve({ ok: code === 0, stdout, stderr }));
  });
}

const results = new Array(checks.length);
let next = 0;
const worker = async () => {
  while (next < checks.length) {
    const index = next++;
    results[index] = await run(checks[index]);
  }
};
await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));

let failed = 0;
checks.forEach(({ tool, name }, index) => {
  const { ok, stdout, stderr } = results[index];
  console.log(`${ok ? "ok  " : "FAIL"} ${tool} ${name}`);
  if (!ok) {
    failed++;
    console.log(stdout, stderr);
  }
});
if (failed > 0) {
  console.error(`${failed} packaging check(s) failed`);
  process.exit(1);
}
