/**
 * Import time of the SDK's entries against bare Node, interleaved: every round starts one fresh
 * Node process per lane, in turn (`node -e 0`, then `import("@perpx/core")`, `@perpx/core/evm`,
 * `@perpx/node-client`, `@perpx/composite-client`), the order reversed every other round, so a
 * machine that gets busier or quieter moves every lane alike. Each lane reports the process's wall
 * time and its CPU time (user + system of the whole process, bootstrap included: steadier than the
 * wall clock on a shared machine); the row is the median's ratio to the bare-Node floor.
 *
 * Built `dist/` is what loads (Node's `import` condition: the CommonJS build under its ES module
 * wrapper), so build first. `PERPX_IMPORT_BASE=/path/to/other/checkout` adds the same lanes loaded
 * from another built checkout (say, a detached worktree of an older commit) to the same rounds, for
 * a before/after comparison on one machine state:
 *
 *   npx vitest bench --run --project bench import-time
 *   PERPX_IMPORT_BASE=/work/wt/base npx vitest bench --run --project bench import-time
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { bench, describe } from "vitest";
import { interleave, median, ONE_CALL, once, QUICK } from "./table/harness.js";

const ROUNDS = QUICK ? 5 : 15;
const ENTRIES = ["@perpx/core", "@perpx/core/evm", "@perpx/node-client", "@perpx/composite-client"];

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/**
 * One fresh process: `node -e 0` when `specifier` is undefined, else an ES module that imports it
 * (resolved from `cwd`, the bench directory of a checkout). Prints the process's CPU time.
 */
function spawnOnce(specifier: string | undefined, cwd: string): Sample {
  const cpu = "const u = process.cpuUsage(); console.log((u.user + u.system) / 1000);";
  const args =
    specifier === undefined
      ? ["-e", cpu]
      : ["--input-type=module", "-e", `await import(${JSON.stringify(specifier)}); ${cpu}`];
  const start = performance.now();
  const child = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
  const wallMs = performance.now() - start;
  if (child.status !== 0) throw new Error(`${specifier ?? "node -e 0"} failed in ${cwd}: ${child.stderr}`);
  return { wallMs, cpuMs: Number(child.stdout.trim().split("\n").at(-1)) };
}

const here = fileURLToPath(new URL(".", import.meta.url));
const base = process.env.PERPX_IMPORT_BASE;
const checkouts: Record<string, string> = { "": here };
if (base !== undefined && base !== "") {
  const baseBench = join(base, "bench");
  if (!existsSync(baseBench)) throw new Error(`PERPX_IMPORT_BASE: no bench directory in ${base}`);
  checkouts["base "] = baseBench;
}

const measure = once(async () => {
  const samples = new Map<string, Sample[]>();
  const lanes: Record<string, () => number> = {
    "node -e 0": () => {
      const sample = spawnOnce(undefined, here);
      samples.set("node -e 0", [...(samples.get("node -e 0") ?? []), sample]);
      return sample.wallMs;
    },
  };
  for (const [prefix, cwd] of Object.entries(checkouts)) {
    for (const entry of ENTRIES) {
      const name = `${prefix}${entry}`;
      lanes[name] = () => {
        const sample = spawnOnce(entry, cwd);
        samples.set(name, [...(samples.get(name) ?? []), sample]);
        return sample.wallMs;
      };
    }
  }
  await interleave(ROUNDS, lanes);
  // interleave drops its warm-up round from what it returns; drop it here too.
  const of = (name: string, key: keyof Sample) =>
    median((samples.get(name) ?? []).slice(1).map((s) => s[key]));
  const floorWall = of("node -e 0", "wallMs");
  const floorCpu = of("node -e 0", "cpuMs");
  const lines = [
    "",
    `import time, ${ROUNDS} interleaved rounds of fresh processes (median; ratio to bare node -e 0)`,
    `  ${"".padEnd(32)} ${"wall ms".padStart(9)} ${"x node".padStart(7)} ${"cpu ms".padStart(9)} ${"x node".padStart(7)}`,
  ];
  for (const name of Object.keys(lanes)) {
    const wall = of(name, "wallMs");
    const cpu = of(name, "cpuMs");
    lines.push(
      `  ${name.padEnd(32)} ${wall.toFixed(1).padStart(9)} ${(wall / floorWall).toFixed(2).padStart(7)} ${cpu.toFixed(1).padStart(9)} ${(cpu / floorCpu).toFixed(2).padStart(7)}`,
    );
  }
  console.log(lines.join("\n"));
});

describe("import time against bare node (fresh processes, interleaved)", () => {
  bench("import time", measure, ONE_CALL);
});
