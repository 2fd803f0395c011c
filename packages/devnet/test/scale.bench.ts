/**
 * The chain at the real network's scale against the defaults, in process (no transport): genesis,
 * an empty block, CheckTx of one short-term order that rests, and a block whose proposed operations
 * carry 50 fills (100 short-term orders checked first). Each scale gets its own chains, one per
 * benchmark, so a benchmark's book and height do not leak into another's. The defaults chain has 2
 * funded subaccounts (the traders); the large one 250 markets and 10,000.
 *
 * The heap each chain adds after genesis and the snapshot written after every block with
 * `--state` are printed at the end.
 */
import { clob } from "@perpx/proto";
import { afterAll, bench, describe } from "vitest";
import { createChainApp } from "../src/app/app.js";
import type { PersistentChainApp } from "../src/app/contract.js";
import { GENESIS_ACCOUNTS } from "../src/index.js";
import { type FastSigner, fundedSigner, signOrderTx } from "./support/fast-order.js";

const genesisTime = new Date("2026-01-01T00:00:00Z");
const SCALES = [
  { label: "3 markets, 2 funded subaccounts", markets: 3, fundedSubaccounts: 2 },
  { label: "250 markets, 10,000 funded subaccounts", markets: 250, fundedSubaccounts: 10_000 },
] as const;
const CHECKTX_ITERATIONS = 300;
const MATCHED = 50;
const MATCH_ITERATIONS = 8;
const notes: string[] = [];

type Scale = (typeof SCALES)[number];
const build = (scale: Scale) =>
  createChainApp({
    profile: "local",
    genesisTime,
    markets: scale.markets,
    fundedSubaccounts: scale.fundedSubaccounts,
  });
function mine(app: PersistentChainApp) {
  return app.produceBlock(new Date(app.latestBlock().time.getTime() + 1_000));
}

const maker: FastSigner = fundedSigner(0, GENESIS_ACCOUNTS.length);
const taker: FastSigner = fundedSigner(1, GENESIS_ACCOUNTS.length);
let clientId = 1;
const order = (
  signer: FastSigner,
  app: PersistentChainApp,
  side: "buy" | "sell",
  subticks: bigint,
  ioc = false,
) =>
  signOrderTx(signer, app.info.chainId, {
    owner: signer.address,
    clientId: clientId++,
    side,
    quantums: 1_000_000n,
    subticks,
    clobPairId: 0,
    goodTilBlock: Number(app.latestBlock().height) + 20,
    ...(ioc ? { timeInForce: clob.Order_TimeInForce.IOC } : {}),
  });

for (const scale of SCALES) {
  const heapBefore = process.memoryUsage().heapUsed;
  const checkApp = build(scale);
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
  const snapshotKb = checkApp.exportSnapshot().length / 1024;
  let snapshotMs = performance.now();
  checkApp.exportSnapshot();
  snapshotMs = performance.now() - snapshotMs;
  notes.push(
    `${scale.label}: heap +${heapMb.toFixed(0)} MB after genesis, snapshot ${snapshotKb.toFixed(0)} KiB written in ${snapshotMs.toFixed(1)} ms`,
  );
  const emptyApp = build(scale);
  const matchApp = build(scale);
  for (const app of [checkApp, emptyApp, matchApp]) app.control.setOracleWalk(false);
  // Asks at rising prices above the oracle (65,000 USD): each rests on its own level.
  const restingAsks = Array.from({ length: CHECKTX_ITERATIONS + 20 }, (_, i) =>
    order(maker, checkApp, "sell", 6_600_000_000n + BigInt(i) * 100_000n),
  );
  const rounds = Array.from({ length: MATCH_ITERATIONS + 3 }, () => [
    ...Array.from({ length: MATCHED }, () => order(maker, matchApp, "sell", 6_500_000_000n)),
    ...Array.from({ length: MATCHED }, () => order(taker, matchApp, "buy", 6_500_000_000n, true)),
  ]);

  describe(scale.label, () => {
    bench(
      "genesis (createChainApp)",
      () => {
        build(scale);
      },
      { iterations: 3, warmupIterations: 0, time: 0, warmupTime: 0 },
    );

    bench(
      "empty block (oracle walk on)",
      () => {
        emptyApp.control.setOracleWalk(true);
        mine(emptyApp);
      },
      { iterations: 50, warmupIterations: 2, time: 0, warmupTime: 0 },
    );

    let nextAsk = 0;
    bench(
      "CheckTx of a short-term order that rests",
      () => {
        const result = checkApp.checkTx(restingAsks[nextAsk++] as Uint8Array);
        if (result.code !== 0) throw new Error(result.log);
      },
      { iterations: CHECKTX_ITERATIONS, warmupIterations: 5, time: 0, warmupTime: 0 },
    );

    let round = 0;
    bench(
      `block with ${MATCHED} fills (${2 * MATCHED} short-term orders through CheckTx, then the block)`,
      () => {
        for (const tx of rounds[round++] as Uint8Array[]) {
          const result = matchApp.checkTx(tx);
          if (result.code !== 0) throw new Error(result.log);
        }
        const block = mine(matchApp);
        if (block.txResults.some((r) => r.code !== 0)) throw new Error("a tx of the block failed");
      },
      { iterations: MATCH_ITERATIONS, warmupIterations: 1, time: 0, warmupTime: 0 },
    );
  });
}

afterAll(() => {
  console.log(notes.join("\n"));
});
