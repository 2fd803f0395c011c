#!/usr/bin/env node
// Runs the project's two top-level jobs on a machine that has only Node.js and npm:
//   node scripts/task.mjs demo   install, build, run the demo
//   node scripts/task.mjs test   install, regenerate-and-diff, build, typecheck, lint, knip, bundle
//                                size, tests (layering, docs and the `*.test-d.ts` type
//                                tests among them), packaging
// pnpm is fetched with npx at exactly the version pinned in package.json's packageManager.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const pnpmSpec = pkg.packageManager;
if (typeof pnpmSpec !== "string" || !pnpmSpec.startsWith("pnpm@")) {
  throw new Error("package.json must pin pnpm in packageManager");
}

function run(command, args) {
  console.log(`\n$ ${[command, ...args].join(" ")}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    console.error(`\n${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

const pnpm = (...args) => run("npx", ["-y", pnpmSpec, ...args]);

const steps = {
  demo() {
    pnpm("install", "--frozen-lockfile");
    pnpm("run", "build");
    pnpm("--filter", "@perpx/examples", "run", "demo", ...process.argv.slice(3));
  },
  test() {
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
