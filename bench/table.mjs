// `pnpm bench`: the issue-24 table. Builds the packages (turbo: nothing to do when they are built),
// since the devnet rows measure the devnet as it ships (bench/table/shipped.ts) and the start row
// spawns the built CLI; then runs the seven metrics of `bench/table/` one file at a time (each
// interleaves its own rows with its floor, see bench/table/harness.ts), and prints their rows as one
// table. `pnpm bench --quick` (or PERPX_BENCH_QUICK=1): fewer rounds and a shorter soak. Every other
// bench of the repository: `pnpm bench:all`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";

const build = spawnSync("npx", ["turbo", "run", "build", "--output-logs=errors-only"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const quick = process.argv.includes("--quick") || process.env.PERPX_BENCH_QUICK === "1";
const results = mkdtempSync(join(tmpdir(), "perpx-bench-"));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
const loadBefore = load();
const started = Date.now();
const run = spawnSync(
  "npx",
  ["vitest", "bench", "--run", "--project", "bench", "--no-file-parallelism", "table/"],
  {
    stdio: "inherit",
    env: { ...process.env, PERPX_BENCH_RESULTS: results, ...(quick ? { PERPX_BENCH_QUICK: "1" } : {}) },
  },
);
const rows = readdirSync(results)
  .toSorted()
  .map((file) => JSON.parse(readFileSync(join(results, file), "utf8")));
rmSync(results, { recursive: true, force: true });

const columns = ["metric", "floor", "ours", "ratio", "goal", "met?"];
const cells = rows.map((row) => [
  row.metric,
  row.floor,
  row.ours,
  row.ratio,
  row.goal,
  row.met ? "yes" : "no",
]);
const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i].length)));
const line = (values) => `| ${values.map((value, i) => value.padEnd(widths[i])).join(" | ")} |`;
console.log(
  [
    "",
    `perpx bench${quick ? " (--quick)" : ""}: ${rows.length} rows in ${Math.round((Date.now() - started) / 1000)} s; load average ${loadBefore} before, ${load()} after`,
    line(columns),
    `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
    ...cells.map(line),
    "",
  ].join("\n"),
);
process.exit(run.status ?? 1);
