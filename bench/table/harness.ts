/**
 * The harness of the issue-24 table: every metric measures its own row and its floor interleaved in
 * one run (rounds A, B, A, B, ...), so a machine that gets busier or quieter during the run moves
 * both alike, and the ratio between them is what the row reports. Each metric writes its row as JSON
 * to `PERPX_BENCH_RESULTS` (a directory, when set) and prints it; `bench/table.mjs` (`pnpm bench`)
 * runs the seven metrics one after the other and prints them as one table.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

/** `PERPX_BENCH_QUICK=1` (`pnpm bench --quick`): fewer rounds, a shorter soak. */
export const QUICK = process.env.PERPX_BENCH_QUICK === "1";

/** One row of the table. */
export interface Row {
  /** File-safe id (the results file's name). */
  id: string;
  metric: string;
  /** The floor's value as printed, with its unit. */
  floor: string;
  /** Ours, as printed, with its unit. */
  ours: string;
  /** The ratio as printed (e.g. `1.42x`), or a slope. */
  ratio: string;
  goal: string;
  met: boolean;
  /** Anything else the row's bench wants to say (rounds, spreads). */
  note?: string;
}

/** The median of `values` (NaN when empty). */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** The `q` quantile (0..1) of `values`, nearest rank (NaN when empty). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = values.toSorted((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/**
 * Runs `rounds` rounds; each round runs every lane once, in turn (A, B, A, B, ...), the lanes'
 * order swapped every other round so neither always goes first. A lane returns its round's value
 * (a duration, a rate); the values come back per lane, the first `warmup` rounds dropped.
 */
export async function interleave<K extends string>(
  rounds: number,
  lanes: Record<K, () => Promise<number> | number>,
  warmup = 1,
): Promise<Record<K, number[]>> {
  const names = Object.keys(lanes) as K[];
  const values = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < warmup + rounds; round++) {
    const order = round % 2 === 0 ? names : names.toReversed();
    for (const name of order) {
      const value = await lanes[name]();
      if (round >= warmup) values[name].push(value);
    }
  }
  return values;
}

/** Milliseconds that `body` took (wall time). */
export async function timed(body: () => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  await body();
  return performance.now() - start;
}

/** Formats a number of milliseconds or a rate with sensible digits. */
export function fmt(value: number, unit: string): string {
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : value >= 1 ? 2 : 3;
  return `${value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })} ${unit}`;
}

/** Writes the row where `bench/table.mjs` collects it, and prints it. */
export function report(row: Row): void {
  const dir = process.env.PERPX_BENCH_RESULTS;
  if (dir !== undefined && dir !== "") {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${row.id}.json`), `${JSON.stringify(row)}\n`);
  }
  console.log(
    `\n${row.metric}: ours ${row.ours}, floor ${row.floor}, ratio ${row.ratio}, goal ${row.goal}: ${
      row.met ? "met" : "not met"
    }${row.note === undefined ? "" : `\n  ${row.note}`}\n`,
  );
}

/**
 * The body of a table bench: vitest's bench runner may call a task more than once, so the
 * measurement runs once and every call awaits it.
 */
export function once(measure: () => Promise<void>): () => Promise<void> {
  let run: Promise<void> | undefined;
  return () => {
    run ??= measure();
    return run;
  };
}

/** The vitest bench options of a table bench: one call (the measurement interleaves its own rounds). */
export const ONE_CALL = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 } as const;
