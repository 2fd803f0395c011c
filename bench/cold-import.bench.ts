/**
 * Cold import, hyperfine-style: every sample is a fresh Node process that loads one package (built
 * `dist/`, so run `pnpm build` first) and reports how long the `require` / `import` took; the
 * summary prints the median and the minimum of the samples beside the process's whole wall time.
 *
 * - `@perpx/core` (goal: under 60 ms) and `@perpx/node-client` (goal: under 100 ms), by `require`
 *   and by `import`;
 * - the incumbent `@dydxprotocol/v4-client-js` by `require`, as its users load it.
 */
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { afterAll, bench, describe } from "vitest";

const cwd = fileURLToPath(new URL(".", import.meta.url));
const RUNS = 15;

interface Target {
  label: string;
  specifier: string;
  mode: "require" | "import";
  goalMs?: number;
}

const targets: Target[] = [
  { label: "@perpx/core (require)", specifier: "@perpx/core", mode: "require", goalMs: 60 },
  { label: "@perpx/core (import)", specifier: "@perpx/core", mode: "import", goalMs: 60 },
  { label: "@perpx/node-client (require)", specifier: "@perpx/node-client", mode: "require", goalMs: 100 },
  { label: "@perpx/node-client (import)", specifier: "@perpx/node-client", mode: "import", goalMs: 100 },
  { label: "@perpx/node-client/wallets (require)", specifier: "@perpx/node-client/wallets", mode: "require" },
  { label: "@dydxprotocol/v4-client-js (require)", specifier: "@dydxprotocol/v4-client-js", mode: "require" },
];

/**
 * The child's program: load the package, print how long that took (wall clock, ms) and the CPU time
 * it used (user + system, ms: steadier than the wall clock when other processes share the cores).
 */
function programOf(target: Target): string[] {
  const load =
    target.mode === "require"
      ? `require(${JSON.stringify(target.specifier)})`
      : `await import(${JSON.stringify(target.specifier)})`;
  const code = `const c = process.cpuUsage(); const t = performance.now(); ${load}; const w = performance.now() - t; const u = process.cpuUsage(c); console.log(w, (u.user + u.system) / 1000);`;
  return target.mode === "require" ? ["-e", code] : ["--input-type=module", "-e", code];
}

const samples = new Map<string, { importMs: number[]; cpuMs: number[]; processMs: number[] }>();

function runOnce(target: Target): void {
  const start = performance.now();
  const child = spawnSync(process.execPath, programOf(target), { cwd, encoding: "utf8" });
  const processMs = performance.now() - start;
  if (child.status !== 0) throw new Error(`${target.label} failed to load: ${child.stderr}`);
  const [importMs, cpuMs] = (child.stdout.trim().split("\n").at(-1) ?? "").split(" ").map(Number);
  let entry = samples.get(target.label);
  if (!entry) {
    entry = { importMs: [], cpuMs: [], processMs: [] };
    samples.set(target.label, entry);
  }
  entry.importMs.push(importMs ?? Number.NaN);
  entry.cpuMs.push(cpuMs ?? Number.NaN);
  entry.processMs.push(processMs);
}

function median(values: readonly number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

describe("cold import (fresh process per sample)", () => {
  for (const target of targets) {
    bench(target.label, () => runOnce(target), {
      iterations: RUNS,
      warmupIterations: 0,
      time: 0,
      warmupTime: 0,
    });
  }
});

afterAll(() => {
  const lines = [
    "",
    `cold import, ${RUNS} fresh processes each (ms): the require/import call's wall time (median, min) and CPU time (median), the whole process's wall time (median)`,
  ];
  lines.push(
    `  ${"".padEnd(40)} ${"median".padStart(8)} ${"min".padStart(8)} ${"cpu".padStart(8)} ${"process".padStart(9)}  goal`,
  );
  for (const target of targets) {
    const entry = samples.get(target.label);
    if (!entry) continue;
    const goal = target.goalMs === undefined ? "" : `  < ${target.goalMs}`;
    lines.push(
      `  ${target.label.padEnd(40)} ${median(entry.importMs).toFixed(1).padStart(8)} ${Math.min(
        ...entry.importMs,
      )
        .toFixed(1)
        .padStart(
          8,
        )} ${median(entry.cpuMs).toFixed(1).padStart(8)} ${median(entry.processMs).toFixed(1).padStart(9)}${goal}`,
    );
  }
  console.log(lines.join("\n"));
});
