/**
 * Per-call timings taken inside vitest benches, so one run can print rates and ratios between
 * benches (vitest's own table does not compute ratios across rows). The first `warmupCalls` calls of
 * each bench are dropped; rates come from the median call time, robust to a busy machine.
 */
import { performance } from "node:perf_hooks";

export interface Ratio {
  label: string;
  numerator: string;
  denominator: string;
  goal?: string;
}

export class Timings {
  readonly #samples = new Map<string, number[]>();

  /**
   * @param warmupCalls - calls dropped from the start of each bench.
   * @param clock - the time source, in milliseconds: wall time by default; a CPU-time clock
   *   (`process.cpuUsage`) gives the cost to this process whatever else runs on the machine.
   */
  constructor(
    readonly warmupCalls = 200,
    readonly clock: () => number = () => performance.now(),
  ) {}

  #record(name: string): number[] {
    let samples = this.#samples.get(name);
    if (samples === undefined) {
      samples = [];
      this.#samples.set(name, samples);
    }
    return samples;
  }

  /** Wraps a synchronous bench body so each call's duration is recorded under `name`. */
  sync(name: string, body: () => unknown): () => void {
    const samples = this.#record(name);
    return () => {
      const start = this.clock();
      body();
      samples.push(this.clock() - start);
    };
  }

  /** Wraps an async bench body so each call's duration (until it settles) is recorded under `name`. */
  async(name: string, body: () => Promise<unknown>): () => Promise<void> {
    const samples = this.#record(name);
    return async () => {
      const start = this.clock();
      await body();
      samples.push(this.clock() - start);
    };
  }

  /** Median call time of `name`, in milliseconds (warm-up calls dropped). */
  medianMs(name: string): number {
    const all = this.#samples.get(name) ?? [];
    const kept = (all.length > this.warmupCalls * 2 ? all.slice(this.warmupCalls) : all).toSorted(
      (a, b) => a - b,
    );
    if (kept.length === 0) return Number.NaN;
    const middle = kept.length >> 1;
    return kept.length % 2 ? kept[middle]! : (kept[middle - 1]! + kept[middle]!) / 2;
  }

  /** Operations per second of `name` from its median call time. */
  rate(name: string): number {
    return 1000 / this.medianMs(name);
  }

  /** A printable table: each bench's median and rate, then each ratio of rates with its goal. */
  summary(ratios: readonly Ratio[]): string {
    const lines = ["", "summary (median per call; rate = 1 / median):"];
    for (const name of this.#samples.keys()) {
      const median = this.medianMs(name) * 1000;
      lines.push(
        `  ${name.padEnd(14)} ${median.toFixed(1).padStart(8)} µs/op ${Math.round(this.rate(name)).toLocaleString("en-US").padStart(9)} ops/s`,
      );
    }
    for (const ratio of ratios) {
      const value = this.rate(ratio.numerator) / this.rate(ratio.denominator);
      const goal = ratio.goal === undefined ? "" : `  (goal ${ratio.goal})`;
      lines.push(`  ${ratio.label.padEnd(36)} ${value.toFixed(2)}x${goal}`);
    }
    return lines.join("\n");
  }
}
