/**
 * Cold import, hyperfine-style: every sample is a fresh Node process that loads one package (built
 * `dist/`, so run `pnpm build` first) and reports how long the `require` / `import` took; the
 * summary prints the median and the minimum of the samples beside the process's whole wall time, the
 * CPU time of the load and how many modules it loaded (CommonJS and `require`d ESM files, counted in
 * `require.cache`; an `import` is not counted there, so its row shows none).
 *
 * - `@perpx/core` (goal: under 60 ms), `@perpx/node-client` (goal: under 100 ms) and
 *   `@perpx/composite-client` (goal: under 150 ms), by `require` and by `import`;
 * - the incumbent `@dydxprotocol/v4-client-js` by `require`, as its users load it.
 */
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { afterAll, bench, describe } from "vitest";

const benchDir = fileURLToPath(new URL(".", import.meta.url));
// `@perpx/core` is no dependency of this package: it is loaded from where node-client's users get
// it, node-client's own directory (the same files; ESM resolution needs a declared dependency).
const nodeClientDir = fileURLToPath(new URL("../packages/node-client/", import.meta.url));
const RUNS = 15;

interface Target {
  label: string;
  specifier: string;
  mode: "require" | "import";
  goalMs?: number;
  /** Where the child resolves `specifier` from. @default the bench's directory */
  cwd?: string;
}

const targets: Target[] = [
  {
    label: "@perpx/core (require)",
    specifier: "@perpx/core",
    mode: "require",
    goalMs: 60,
    cwd: nodeClientDir,
  },
  { label: "@perpx/core (import)", specifier: "@perpx/core", mode: "import", goalMs: 60, cwd: nodeClientDir },
  { label: "@perpx/node-client (require)", specifier: "@perpx/node-client", mode: "require", goalMs: 100 },
  { label: "@perpx/node-client (import)", specifier: "@perpx/node-client", mode: "import", goalMs: 100 },
  { label: "@perpx/node-client/wallets (require)", specifier: "@perpx/node-client/wallets", mode: "require" },
  {
    label: "@perpx/composite-client (require)",
    specifier: "@perpx/composite-client",
    mode: "require",
    goalMs: 150,
  },
  {
    label: "@perpx/composite-client (import)",
    specifier: "@perpx/composite-client",
    mode: "import",
    goalMs: 150,
  },
  { label: "@dydxprotocol/v4-client-js (require)", specifier: "@dydxprotocol/v4-client-js", mode: "require" },
];

/**
 * The child's program: load the package, print how long that took (wall clock, ms), the CPU time
 * it used (user + system, ms: steadier than the wall clock when other processes share the cores)
 * and, for `require`, how many modules it added to `require.cache` (-1 for `import`).
 */
function programOf(target: Target): string[] {
  const load =
    target.mode === "require"
      ? `require(${JSON.stringify(target.specifier)})`
      : `await import(${JSON.stringify(target.specifier)})`;
  const count = target.mode === "require" ? "Object.keys(require.cache).length" : "-1";
  const code = `const m0 = ${count}; const c = process.cpuUsage(); const t = performance.now(); ${load}; const w = performance.now() - t; const u = process.cpuUsage(c); const m = ${count}; console.log(w, (u.user + u.system) / 1000, m < 0 ? -1 : m - m0);`;
  return target.mode === "require" ? ["-e", code] : ["--input-type=module", "-e", code];
}

const samples = new Map<
  string,
  { importMs: number[]; cpuMs: number[]; processMs: number[]; modules: number[] }
>();

function runOnce(target: Target): void {
  const start = performance.now();
  const child = spawnSync(process.execPath, programOf(target), {
    cwd: target.cwd ?? benchDir,
    encoding: "utf8",
  });
  const processMs = performance.now() - start;
  if (child.status !== 0) throw new Error(`${target.label} failed to load: ${child.stderr}`);
  const [importMs, cpuMs, modules] = (child.stdout.trim().split("\n").at(-1) ?? "").split(" ").map(Number);
  let entry = samples.get(target.label);
  if (!entry) {
    entry = { importMs: [], cpuMs: [], processMs: [], modules: [] };
    samples.set(target.label, entry);
  }
  entry.importMs.push(importMs ?? Number.NaN);
  entry.cpuMs.push(cpuMs ?? Number.NaN);
  entry.processMs.push(processMs);
  entry.modules.push(modules ?? Number.NaN);
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
    `cold import, ${RUNS} fresh processes each (ms): the require/import call's wall time (median, min) and CPU time (median), the whole process's wall time (median), modules loaded (require only)`,
  ];
  lines.push(
    `  ${"".padEnd(40)} ${"median".padStart(8)} ${"min".padStart(8)} ${"cpu".padStart(8)} ${"process".padStart(9)} ${"modules".padStart(8)}  goal`,
  );
  for (const target of targets) {
    const entry = samples.get(target.label);
    if (!entry) continue;
    const goal = target.goalMs === undefined ? "" : `  < ${target.goalMs} (cpu)`;
    const modules = Math.max(...entry.modules);
    lines.push(
      [
        `  ${target.label.padEnd(40)}`,
        median(entry.importMs).toFixed(1).padStart(8),
        Math.min(...entry.importMs)
          .toFixed(1)
          .padStart(8),
        median(entry.cpuMs).toFixed(1).padStart(8),
        median(entry.processMs).toFixed(1).padStart(9),
        (modules < 0 ? "-" : String(modules)).padStart(8),
      ].join(" ") + goal,
    );
  }
  console.log(lines.join("\n"));
});
