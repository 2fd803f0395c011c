/**
 * Devnet memory under order flow, a soak past the pruning window: the devnet keeps `WINDOW` recent
 * blocks (`pruning.keepRecent`, the CLI's `--pruning-keep-recent`), and each block carries `PAIRS`
 * matched pairs of short-term orders sent over RPC from a client thread. The heap is sampled after a
 * full garbage collection every few blocks; the row reports the heap's growth per tx while the
 * window fills and its slope (least squares) once the window is full: the goal is flat. The floor is
 * a heap that does not grow (0 KB per tx).
 * Run alone: `npx vitest bench --run --project bench table/memory`.
 */
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { bench, describe } from "vitest";
import { fmt, ONE_CALL, once, QUICK, report } from "./harness.js";
import { rpcClient, startOrderFlow } from "./order-flow.js";

const WINDOW = QUICK ? 60 : 200;
const BLOCKS = 3 * WINDOW;
const PAIRS = 20;
const SAMPLE_EVERY = 10;
/** Under this many bytes per tx the heap counts as flat. */
const FLAT_BYTES_PER_TX = 200;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return getHeapStatistics().used_heap_size;
}

/** Least-squares slope of `y` over `x`. */
function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return num / den;
}

describe("devnet memory under order flow, past the pruning window", () => {
  bench(
    `soak: ${BLOCKS} blocks of ${2 * PAIRS} orders over RPC, ${WINDOW} blocks kept`,
    once(async () => {
      const flow = await startOrderFlow({ pruning: { keepRecent: WINDOW } });
      const { devnet } = flow;
      const client = rpcClient();
      const samples: { block: number; x: number; y: number }[] = [];
      let txs = 0;
      try {
        for (let block = 1; block <= BLOCKS; block++) {
          const goodTilBlock = Number(devnet.app.latestBlock().height) + 20;
          await client.send(devnet.endpoints.nodeRpc, flow.round(PAIRS, goodTilBlock));
          const fills = flow.mineFills();
          if (fills !== PAIRS) throw new Error(`expected ${PAIRS} fills, got ${fills}`);
          txs += 2 * PAIRS;
          if (block % SAMPLE_EVERY === 0) samples.push({ block, x: txs, y: heapAfterGc() });
        }
      } finally {
        await client.close();
        await devnet.stop();
      }
      // The window is full after WINDOW blocks; short-term orders live at most 40 more.
      const filling = samples.filter((s) => s.block <= WINDOW);
      const full = samples.filter((s) => s.block > WINDOW + 40);
      const fillPerTx = slope(filling);
      const fullPerTx = slope(full);
      report({
        id: "3-memory",
        metric: "devnet heap under order flow, after the pruning window",
        floor: "0 KB/tx (flat)",
        ours: `${fmt(fullPerTx / 1024, "KB/tx")} (${fmt(fillPerTx / 1024, "KB/tx")} while the window fills)`,
        ratio: `${((fullPerTx / fillPerTx) * 100).toFixed(0)}% of the filling slope`,
        goal: `flat (< ${FLAT_BYTES_PER_TX} B/tx)`,
        met: fullPerTx < FLAT_BYTES_PER_TX,
        note: `${BLOCKS} blocks x ${2 * PAIRS} txs (${txs} txs), keepRecent ${WINDOW}; heap ${fmt(
          (samples[0]?.y ?? 0) / 1e6,
          "MB",
        )} -> ${fmt((samples.at(-1)?.y ?? 0) / 1e6, "MB")}`,
      });
    }),
    ONE_CALL,
  );
});
