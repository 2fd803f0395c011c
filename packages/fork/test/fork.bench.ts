/**
 * The fork's figures (measured, never asserted):
 * - start time: `startFork` against a live devnet of 3 and of 250 markets (read at one height, the
 *   fork's devnet started, no shadow), to ready;
 * - shadow lag: a live oracle change (set and mined on the live devnet) to the fork's oracle holding
 *   it; a live book change (a new best bid rested by the live devnet's own mirror maker) to the
 *   fork's mirror maker resting it. Each iteration is one change, so its time is the lag; p50 and
 *   p99 are printed after the run.
 *
 * `npx -y pnpm@10.34.9 vitest bench --run --project fork test/fork.bench.ts`
 */
import { type Devnet, startDevnet } from "@perpx/devnet";
import { afterAll, bench, describe } from "vitest";
import { type Fork, type ShadowEvent, startFork } from "../src/index.js";

const percentile = (samples: number[], p: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const report = (name: string, samples: number[]) =>
  process.stdout.write(
    `${name}: n=${samples.length} p50=${percentile(samples, 50).toFixed(1)} ms p99=${percentile(samples, 99).toFixed(1)} ms\n`,
  );

for (const markets of [3, 250]) {
  describe(`fork start, ${markets} markets`, () => {
    let live: Devnet | undefined;
    const samples: number[] = [];
    afterAll(async () => {
      report(`start ${markets} markets`, samples);
      await live?.stop();
    });
    bench(
      `startFork of a ${markets}-market live devnet`,
      async () => {
        live ??= await startDevnet({ ports: "free", blockTimeMs: 0, markets });
        const started = performance.now();
        const fork = await startFork({
          from: "local",
          endpoints: live.endpoints,
          ports: "free",
          shadow: false,
          blockTimeMs: 0,
        });
        samples.push(performance.now() - started);
        await fork.stop();
      },
      { iterations: 5, warmupIterations: 1 },
    );
  });
}

describe("shadow lag", () => {
  let live: Devnet | undefined;
  let fork: Fork | undefined;
  const listeners = new Set<(event: ShadowEvent) => void>();
  const oracle: number[] = [];
  const book: number[] = [];
  let step = 0;
  const setUp = async () => {
    if (fork !== undefined) return;
    live = await startDevnet({ ports: "free", blockTimeMs: 0, mirror: true });
    // Prices move only when set, so the price set is the price the fork must reach.
    live.app.control.setOracleWalk(false);
    fork = await startFork({
      from: "local",
      endpoints: live.endpoints,
      ports: "free",
      blockTimeMs: 0,
      onShadowEvent: (event) => {
        for (const listener of listeners) listener(event);
      },
    });
  };
  const until = (accept: (event: ShadowEvent) => boolean) =>
    new Promise<void>((resolve) => {
      const listener = (event: ShadowEvent) => {
        if (!accept(event)) return;
        listeners.delete(listener);
        resolve();
      };
      listeners.add(listener);
    });
  afterAll(async () => {
    report("oracle lag", oracle);
    report("book lag", book);
    await fork?.stop();
    await live?.stop();
  });

  bench(
    "live oracle change -> fork oracle",
    async () => {
      await setUp();
      step++;
      const price = `${60_000 + step}`;
      const seen = until(
        (e) => e.kind === "oracle" && e.market === "BTC-USD" && Number(e.price) === Number(price),
      );
      const started = performance.now();
      live?.app.control.setOraclePrice("BTC-USD", price);
      live?.mine(1);
      await seen;
      oracle.push(performance.now() - started);
    },
    { iterations: 50, warmupIterations: 2 },
  );

  bench(
    "live book change -> fork book",
    async () => {
      await setUp();
      step++;
      const bid = `${50_000 + step}`;
      const seen = until(
        (e) => e.kind === "book" && fork?.devnet.mirror?.resting("BTC-USD").bids[0]?.price === bid,
      );
      const started = performance.now();
      live?.mirror?.setBook("BTC-USD", {
        bids: [{ price: bid, size: "0.01" }],
        asks: [{ price: "70000", size: "0.01" }],
      });
      await seen;
      book.push(performance.now() - started);
    },
    { iterations: 50, warmupIterations: 2 },
  );
});
