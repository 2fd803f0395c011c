/**
 * The liquidation engine at scale, in process: 1,000 funded subaccounts hold open BTC longs (900
 * of 1 BTC, 100 of 28 BTC at nearly 20x) against one maker; a bid of 2,800 BTC rests below the
 * oracle. Measured: a block with the 1,000 positions when none is liquidatable (the memclob's
 * liquidation scan after every commit runs over all of them), and the blocks that follow a 5%
 * price move that makes the 100 large ones liquidatable, until every one is closed (50
 * liquidations per block, as the reference chain's default; the fills land a block later).
 * Blocks per second are printed at the end.
 */
import { clob } from "@perpx/proto";
import { afterAll, bench, describe } from "vitest";
import { createChainApp } from "../src/app/app.js";
import type { PersistentChainApp } from "../src/app/contract.js";
import { GENESIS_ACCOUNTS } from "../src/index.js";
import { fundedSigner, signOrderTx } from "./support/fast-order.js";

const genesisTime = new Date("2026-01-01T00:00:00Z");
const POSITIONS = 1_000;
const LIQUIDATED = 100;
const BTC = 10_000_000_000n; // base quantums
const notes: string[] = [];
let clientId = 1;

function mine(app: PersistentChainApp) {
  const block = app.produceBlock(new Date(app.latestBlock().time.getTime() + 1_000));
  if (block.txResults.some((r) => r.code !== 0)) throw new Error("a tx of the block failed");
  return block;
}

function check(app: PersistentChainApp, tx: Uint8Array): void {
  const result = app.checkTx(tx);
  if (result.code !== 0) throw new Error(result.log);
}

/** A chain with the 1,000 positions open and the bid resting (oracle $65,000). */
function build(): PersistentChainApp {
  const app = createChainApp({ profile: "local", genesisTime, markets: 3, fundedSubaccounts: POSITIONS + 1 });
  app.control.setOracleWalk(false);
  app.control.setOraclePrice("BTC-USD", "65000");
  const maker = fundedSigner(0, GENESIS_ACCOUNTS.length);
  app.control.fundSubaccount(maker.address, 0, 50_000_000_000_000n);
  mine(app);
  const gtb = Number(app.latestBlock().height) + 20;
  const size = (i: number) => (i <= LIQUIDATED ? 28n * BTC : BTC);
  let total = 0n;
  for (let i = 1; i <= POSITIONS; i++) total += size(i);
  const spec = (owner: string, side: "buy" | "sell", quantums: bigint, subticks: bigint, ioc = false) => ({
    owner,
    clientId: clientId++,
    side,
    quantums,
    subticks,
    clobPairId: 0,
    goodTilBlock: gtb,
    ...(ioc ? { timeInForce: clob.Order_TimeInForce.IOC } : {}),
  });
  check(app, signOrderTx(maker, app.info.chainId, spec(maker.address, "sell", total, 6_500_000_000n)));
  for (let i = 1; i <= POSITIONS; i++) {
    const taker = fundedSigner(i, GENESIS_ACCOUNTS.length);
    check(
      app,
      signOrderTx(taker, app.info.chainId, spec(taker.address, "buy", size(i), 6_500_000_000n, true)),
    );
  }
  mine(app);
  check(
    app,
    signOrderTx(
      maker,
      app.info.chainId,
      spec(maker.address, "buy", BigInt(LIQUIDATED) * 28n * BTC, 6_170_000_000n),
    ),
  );
  mine(app);
  return app;
}

const quiet = build();
// tinybench calls a task more often than its iterations: one chain per call, built beforehand
// (a call beyond the pool builds its own; the figures printed time the blocks only).
const moved = [build(), build(), build(), build()];

describe(`${POSITIONS} open positions`, () => {
  bench(
    "a block (the liquidation scan finds none)",
    () => {
      mine(quiet);
    },
    { iterations: 20, warmupIterations: 2, time: 0, warmupTime: 0 },
  );

  let run = 0;
  bench(
    `a 5% price move: blocks until all ${LIQUIDATED} liquidatable positions are closed`,
    () => {
      const app = moved[run++] ?? build();
      app.control.setOraclePrice("BTC-USD", "61750");
      const start = performance.now();
      let blocks = 0;
      let liquidations = 0;
      while (liquidations < LIQUIDATED && blocks < 10) {
        const block = mine(app);
        blocks++;
        liquidations +=
          block.txResults[0]?.events.filter(
            (e) => e.type === "perpx.clob.order_fill" && e.attributes.some((a) => a.key === "liquidation"),
          ).length ?? 0;
      }
      const ms = performance.now() - start;
      if (liquidations < LIQUIDATED) throw new Error(`only ${liquidations} liquidations in ${blocks} blocks`);
      notes.push(
        `price move: ${liquidations} liquidations in ${blocks} blocks, ${ms.toFixed(0)} ms, ${((blocks * 1000) / ms).toFixed(1)} blocks/s`,
      );
    },
    { iterations: 2, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});

afterAll(() => {
  console.log(notes.join("\n"));
});
