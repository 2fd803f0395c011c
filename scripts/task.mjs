#!/usr/bin/env node
// Runs the project's two top-level jobs on a machine that has only Node.js and npm:
//   node scripts/task.mjs demo   install, build what the demo runs, run the demo
//   node scripts/task.mjs test   install, regenerate-and-diff, build, typecheck, lint, knip, bundle
//                                size, tests (layering, docs and the `*.test-d.ts` type
//                                tests among them), packaging
// pnpm is fetched with npx at exactly the version pinned in package.json's packageManager.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const pnpmSpec = pkg.packageManager;
if (typeof pnpmSpec !== "string" || !pnpmSpec.startsWith("pnpm@")) {
  throw new Error("package.json must pin pnpm in packageManager");
}

/** Each step run so far, with its wall seconds and CPU seconds, printed at the end (and on a failure). */
const timings = [];
const started = performance.now();

/**
 * CPU seconds used by the finished children of this process (and theirs), from Linux's
 * /proc/self/stat (cutime + cstime, in clock ticks of 1/100 s); undefined elsewhere.
 */
function childCpuSeconds() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

function printTimings() {
  const column = (seconds) => (seconds === undefined ? "" : seconds.toFixed(1)).padStart(7);
  console.log("\nstep times (wall s, CPU s):");
  for (const { step, wall, cpu } of timings) console.log(`${column(wall)} ${column(cpu)}  ${step}`);
  const cpu = childCpuSeconds();
  console.log(`${column((performance.now() - started) / 1000)} ${column(cpu)}  total`);
}

function run(command, args) {
  const step = [command, ...args].join(" ");
  console.log(`\n$ ${step}`);
  const start = performance.now();
  const cpuBefore = childCpuSeconds();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env });
  const cpuAfter = childCpuSeconds();
  timings.push({
    step,
    wall: (performance.now() - start) / 1000,
    cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
  });
  if (result.status !== 0) {
    printTimings();
    console.error(`\n${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

const pnpm = (...args) => run("npx", ["-y", pnpmSpec, ...args]);

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function chromiumPath() {
  if (process.env.CHROMIUM_PATH)
    return isExecutable(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : undefined;
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const dir of dirs) {
    for (const name of ["chromium", "chromium-browser"]) {
      if (isExecutable(join(dir, name))) return join(dir, name);
    }
  }
  return undefined;
}

// The node client's browser test drives Debian's `chromium` (headless, through playwright-core):
// installed here when missing and we may (root on Debian); otherwise stop and say what to install.
function ensureChromium() {
  if (chromiumPath()) return;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (root && existsSync("/etc/debian_version")) {
    run("apt-get", ["update"]);
    run("apt-get", ["install", "-y", "chromium"]);
    if (chromiumPath()) return;
  }
  console.error(
    "\nThe browser test needs Chromium and it is not installed. On Debian, as root: " +
      "apt-get update && apt-get install -y chromium\n(or set CHROMIUM_PATH to a Chromium executable)",
  );
  process.exit(1);
}

const steps = {
  demo() {
    pnpm("install", "--frozen-lockfile");
    // Only the packages the demo runs (and what they need): not the MCP server.
    pnpm("run", "build:demo");
    pnpm("--filter", "@perpx/examples", "run", "demo", ...process.argv.slice(3));
  },
  test() {
    ensureChromium();
    pnpm("install", "--frozen-lockfile");
    pnpm("run", "generate");
    run("git", ["diff", "--exit-code", "--stat", "--", "packages/proto/src/gen"]);
    // git diff ignores untracked files: a newly generated file that was not committed fails here.
    const untracked = spawnSync("git", ["status", "--porcelain", "--", "packages/proto/src/gen"], {
      cwd: root,
      encoding: "utf8",
    });
    if (untracked.status !== 0 || untracked.stdout.trim() !== "") {
      console.error(`\ngenerated code is not committed:\n${untracked.stdout}${untracked.stderr ?? ""}`);
      process.exit(1);
    }
    pnpm("run", "build");
    pnpm("run", "typecheck");
    pnpm("run", "lint");
    pnpm("run", "check:knip");
    pnpm("run", "check:size");
    pnpm("run", "test");
    pnpm("run", "packaging");
  },
};

const task = process.argv[2];
const step = task ? steps[task] : undefined;
if (!step) {
  console.error(`usage: node scripts/task.mjs <${Object.keys(steps).join("|")}>`);
  process.exit(2);
}
step();
printTimings();
