/**
 * Short-term orders accepted and matched per second over RPC: rounds of 2N pre-signed txs by
 * `broadcast_tx_sync` from a client thread (N resting asks, N crossing IOC buys matched at CheckTx),
 * then the block that carries the N fills, beside the same txs sent to a bare JSON-RPC server that
 * only verifies one signature per tx (`floor-rpc.ts`); rounds interleaved, medians of the rates, after
 * {@link WARMUP} rounds of both lanes that are not counted.
 * Run alone: `npx vitest bench --run --project bench table/rpc-orders`.
 */
import { bench, describe } from "vitest";
import { fundedSigner } from "../../packages/devnet/test/support/fast-order.js";
import { startFloorRpc } from "./floor-rpc.js";
import { fmt, interleave, median, ONE_CALL, once, QUICK, report, timed } from "./harness.js";
import { GENESIS_ACCOUNTS, rpcClient, startOrderFlow } from "./order-flow.js";

const N = 200;
/**
 * Rounds of both lanes run before the measured ones: the devnet's CheckTx path reaches its steady
 * rate after about 2,000 txs (JIT tiers over a long call path), the floor after a few hundred. A
 * devnet serving a bot runs for minutes, so the row measures the steady rate.
 */
const WARMUP = 6;

describe("short-term orders over RPC vs a bare RPC server with one signature check", () => {
  bench(
    "orders accepted and matched per second (interleaved with the floor server)",
    once(async () => {
      const rounds = QUICK ? 4 : 10;
      const flow = await startOrderFlow();
      const { devnet } = flow;
      const accountNumbers = new Map(
        [0, 1].map((i) => {
          const signer = fundedSigner(i, GENESIS_ACCOUNTS.length);
          return [Buffer.from(signer.publicKey).toString("hex"), BigInt(signer.accountNumber)] as const;
        }),
      );
      const floor = await startFloorRpc(devnet.chainId, accountNumbers);
      const client = rpcClient();
      try {
        const goodTilBlock = Number(devnet.app.latestBlock().height) + 30;
        const signed = Array.from({ length: WARMUP + rounds }, () => flow.round(N, goodTilBlock));
        const floorTxs = signed[0] as string[];
        let next = 0;
        const values = await interleave(
          rounds,
          {
            ours: async () => {
              const txs = signed[next++] as string[];
              let fills = 0;
              const ms = await timed(async () => {
                await client.send(devnet.endpoints.nodeRpc, txs);
                fills = flow.mineFills();
              });
              if (fills !== N) throw new Error(`expected ${N} fills, got ${fills}`);
              return (2 * N * 1000) / ms;
            },
            floor: async () => (2 * N * 1000) / (await timed(() => client.send(floor.url, floorTxs))),
          },
          WARMUP,
        );
        const ours = median(values.ours);
        const bare = median(values.floor);
        const ratio = ours / bare;
        report({
          id: "2-rpc-orders",
          metric: "short-term orders accepted + matched over RPC",
          floor: `${fmt(bare, "tx/s")} (bare RPC, one signature check)`,
          ours: `${fmt(ours, "tx/s")} (${fmt(ours / 2, "matched/s")})`,
          ratio: `${ratio.toFixed(2)}x`,
          goal: ">= 0.5x (and >= 1,000/s quiet)",
          met: ratio >= 0.5,
          note: `${rounds} interleaved rounds of ${2 * N} txs (${N} fills and the block each) after ${WARMUP} uncounted, medians of the rates`,
        });
      } finally {
        await client.close();
        await floor.close();
        await devnet.stop();
      }
    }),
    ONE_CALL,
  );
});
