/**
 * Cost of persisting one block with `--state` (append its record to the block log and fsync, then
 * write the snapshot through temp file, fsync and rename), at a chain of ~100 blocks and of ~2000:
 * the two should be the same. For comparison, the previous format's cost at the same lengths: one
 * file with the snapshot and every block, rewritten after each block.
 *
 * The chain is produced once up front; each task persists it through a view whose latest height
 * moves one block per iteration, so the timings hold persistence only, not block production.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, bench, describe } from "vitest";
import { createChainApp } from "../src/app/app.js";
import type { PersistentChainApp } from "../src/app/contract.js";
import { concatList } from "../src/app/lib/codec.js";
import { writeFileAtomic } from "../src/atomic-file.js";
import { StateDirectory } from "../src/persistence.js";

const SHORT = 100;
const LONG = 2000;
const ITERATIONS = 200;
/** The previous format is slow at length: fewer iterations. */
const PREVIOUS_ITERATIONS = 30;
const WARMUP_ITERATIONS = 5;
/** Blocks beyond the iterations, should the runner call a task a few more times than asked. */
const SPARE = 20;

const genesis = Date.parse("2026-01-01T00:00:00Z");
const app = createChainApp({ profile: "local", genesisTime: new Date(genesis) });
for (let i = 1; i < LONG + ITERATIONS + WARMUP_ITERATIONS + SPARE; i++)
  app.produceBlock(new Date(genesis + i * 1000));
/** Every block encoded once, as the previous format kept them. */
const encoded: Uint8Array[] = [];
for (let h = app.info.initialHeight; h <= app.latestBlock().height; h++)
  encoded.push(app.exportBlock(h) as Uint8Array);

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The chain as if its latest block were at `length` blocks; `next()` commits one more. */
function viewAt(length: number) {
  let count = length;
  let latest = app.info.initialHeight + BigInt(length - 1);
  const view: Pick<PersistentChainApp, "info" | "latestBlock" | "exportBlock" | "exportSnapshot"> = {
    info: app.info,
    latestBlock: () => app.block(latest) ?? app.latestBlock(),
    exportBlock: (height) => (height <= latest ? app.exportBlock(height) : undefined),
    exportSnapshot: () => app.exportSnapshot(),
  };
  return {
    view,
    next(): void {
      latest++;
      count++;
    },
    /** Every block up to the latest, as the previous format wrote them. */
    blocks: () => encoded.slice(0, count),
  };
}

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "perpx-devnet-persist-bench-"));
  dirs.push(dir);
  return dir;
}

describe("persisting one block", () => {
  for (const length of [SHORT, LONG]) {
    const chain = viewAt(length);
    const store = StateDirectory.open(newDir());
    store.persist(chain.view);
    afterAll(() => store.close());
    bench(
      `snapshot + block log, chain of ~${length} blocks`,
      () => {
        chain.next();
        store.persist(chain.view);
      },
      { iterations: ITERATIONS, warmupIterations: WARMUP_ITERATIONS, time: 0, warmupTime: 0 },
    );
  }

  for (const length of [SHORT, LONG]) {
    const chain = viewAt(length);
    const file = join(newDir(), "state.bin");
    bench(
      `previous format (whole chain rewritten), chain of ~${length} blocks`,
      () => {
        chain.next();
        writeFileAtomic(file, concatList([app.exportSnapshot(), ...chain.blocks()]));
      },
      { iterations: PREVIOUS_ITERATIONS, warmupIterations: WARMUP_ITERATIONS, time: 0, warmupTime: 0 },
    );
  }
});
