/**
 * The indexer's benchmarks (issue 10), with 3 markets and with 250 markets and 10,000 funded
 * subaccounts:
 *
 * - WebSocket messages per second delivered to 100 subscribers of one busy order book (BTC-USD):
 *   each iteration sends 200 short-term asks that rest on new levels (`broadcast_tx_sync`, 8 in
 *   flight) and waits for the 100 × 200 `v4_orderbook` updates; rate = messages / (first send to
 *   last message).
 * - Delay from CheckTx to the `v4_orderbook` update of a short-term order: from sending its
 *   `broadcast_tx_sync` to the update that sets its level (so it includes the RPC round trip).
 * - Delay from block commit to the `v4_orderbook` update of a long-term order: 50 long-term bids
 *   go through CheckTx, then one block is produced; delay = update received − the block's commit
 *   moment, which the chain hands to its block listeners (`onBlock`'s `committedAt`, wall clock).
 *   Printed beside it: the delay from the start of block production (which includes producing the
 *   block) and the block's production time alone.
 * - Both delays are given for three subscribers, since the server writes connection after
 *   connection: the first one subscribed, the last one subscribed (both in a worker of their own,
 *   the "probe", as a real subscriber is a process of its own), and all 100 (the moment the slowest
 *   got it; 98 of them share one worker thread, whose parsing of 98 × 50 frames per block bounds
 *   that figure).
 * - Long-term orders of each iteration come from a fresh funded subaccount (4, 5, ...): one
 *   subaccount may hold at most 200 open stateful orders.
 * - Latency of `GET /v4/perpetualMarkets` and of `GET /v4/addresses/:a/subaccountNumber/0`.
 *
 * Every client (sockets, HTTP, clocks) runs in worker threads (`support/indexer-bench-client.ts`),
 * so the devnet's event loop runs only the devnet. Percentiles are printed at the end; goals:
 * update p99 < 20 ms, REST p99 < 10 ms, on 2 cores. The WebSocket benchmarks run when the devnet
 * serves `endpoints.indexerWs`, the REST ones when it serves `endpoints.indexer`.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { afterAll, bench, describe } from "vitest";
import { type Devnet, GENESIS_ACCOUNTS, startDevnet } from "../src/index.js";
import { type FastSigner, fundedSigner, signOrderTx } from "./support/fast-order.js";
import { INDEXER_BENCH_CLIENT } from "./support/indexer-bench-client.js";

const SUBSCRIBERS = 100;
const FANOUT_ORDERS = 200;
const DELAY_ORDERS = 50;
const BLOCK_ORDERS = 50;
const REST_REQUESTS = 200;
const ITERATIONS = 4;
const TIMEOUT_MS = 30_000;
/**
 * Funded subaccounts 0..3 place the asks, the bids and read; each iteration (warm-up included) of
 * the block benchmark places its long-term orders from the next one (4, 5, ...), since one
 * subaccount may hold at most 200 open stateful orders (its equity tier).
 */
const SCALES = [
  { label: "3 markets", markets: 3, fundedSubaccounts: 4 + ITERATIONS + 1 },
  { label: "250 markets, 10,000 funded subaccounts", markets: 250, fundedSubaccounts: 10_000 },
] as const;

/** The indexer's URLs of a devnet (REST and WebSocket), those it serves. */
function indexerOf(devnet: Devnet): { rest: string | undefined; ws: string | undefined } {
  const endpoints: Readonly<Record<string, string | undefined>> = { ...devnet.endpoints };
  return { rest: endpoints.indexer, ws: endpoints.indexerWs };
}

/** A request to the client worker and its answer. */
function client(worker: Worker) {
  return <T>(request: Record<string, unknown>): Promise<T> =>
    new Promise((resolve, reject) => {
      worker.once("message", (message: { answer?: T; error?: string }) =>
        message.error === undefined ? resolve(message.answer as T) : reject(new Error(message.error)),
      );
      worker.postMessage(request);
    });
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const summary = (values: readonly number[]) =>
  `p50 ${percentile(values, 50).toFixed(2)} ms, p99 ${percentile(values, 99).toFixed(2)} ms (n=${values.length})`;
const delayLines = (label: string, delays: { first: number[]; last: number[]; all: number[] }) => [
  `  ${label}, first subscriber: ${summary(delays.first)}`,
  `  ${label}, last subscriber: ${summary(delays.last)}`,
  `  ${label}, all ${SUBSCRIBERS} subscribers (the slowest of them): ${summary(delays.all)}`,
];
/**
 * A client's `collect` answer: the absolute times its connection 0 (`first`) and all its connections
 * (`all`) saw each watched level; it throws when a level never came.
 */
async function collect(
  from: <T>(request: Record<string, unknown>) => Promise<T>,
): Promise<{ first: number[]; all: number[] }> {
  const answer = await from<{ times: Array<number | undefined>; allTimes: Array<number | undefined> }>({
    op: "collect",
    timeoutMs: TIMEOUT_MS,
  });
  const times = [...answer.times, ...answer.allTimes];
  if (times.some((t) => t === undefined)) throw new Error("a watched level never reached v4_orderbook");
  return { first: answer.times as number[], all: answer.allTimes as number[] };
}
const report: string[] = [];
/** Per scale: writes its figures to `report` and stops its client worker (the file's afterAll runs them). */
const finishers: Array<() => Promise<void>> = [];
const wsPath = createRequire(import.meta.url).resolve("ws");
const b64 = (tx: Uint8Array) => Buffer.from(tx).toString("base64");
/** BTC-USD: price in USD = subticks × 1e-5; one tick is 100,000 subticks (1 USD). */
const usd = (subticks: bigint) => String(Number(subticks) / 1e5);

for (const scale of SCALES) {
  const devnet = await startDevnet({
    ports: "free",
    blockTimeMs: 3_600_000,
    markets: scale.markets,
    fundedSubaccounts: scale.fundedSubaccounts,
  });
  devnet.app.control.setOracleWalk(false);
  /** The commit moment of each block (wall clock), as the chain reports it to block listeners. */
  const commits = new Map<bigint, number>();
  devnet.app.onBlock((block, committedAt) => commits.set(block.height, committedAt));
  /**
   * The moment the indexer handed the latest order stream step's frames to the sockets: this
   * listener comes after the indexer's, which publishes the book updates before it returns.
   */
  let streamedAt: number | undefined;
  devnet.app.onOrderStream(() => {
    streamedAt ??= performance.timeOrigin + performance.now();
  });
  const indexer = indexerOf(devnet);
  const [asker, bidder, reader] = [0, 1, 3].map((i) => fundedSigner(i, GENESIS_ACCOUNTS.length)) as [
    FastSigner,
    FastSigner,
    FastSigner,
  ];
  let clientId = 1;
  let askLevel = 0n;
  let bidLevel = 0n;
  let longTermIndex = 4;
  const shortTerm = (signer: FastSigner, side: "buy" | "sell", subticks: bigint) =>
    signOrderTx(signer, devnet.chainId, {
      owner: signer.address,
      clientId: clientId++,
      side,
      quantums: 1_000_000n,
      subticks,
      goodTilBlock: Number(devnet.app.latestBlock().height) + 20,
    });

  const wsBench = indexer.ws === undefined ? bench.skip : bench;
  const restBench = indexer.rest === undefined ? bench.skip : bench;
  describe(`indexer, ${scale.label}`, () => {
    // Started with the first benchmark (a skipped suite starts none): the crowd's worker holds
    // all subscribers but two and does the REST reads; the probe's holds the first and the last.
    const workers: { crowd?: Worker; probe?: Worker } = {};
    const worker = (name: "crowd" | "probe") => {
      workers[name] ??= new Worker(INDEXER_BENCH_CLIENT, { eval: true, workerData: { wsPath } });
      return client(workers[name]);
    };
    const ask = <T>(request: Record<string, unknown>) => worker("crowd")<T>(request);
    const probe = <T>(request: Record<string, unknown>) => worker("probe")<T>(request);
    const fanoutRates: number[] = [];
    /** Delays by subscriber: the first subscribed, the last subscribed, and all of them (the slowest). */
    const checkTx = { first: [] as number[], last: [] as number[], all: [] as number[] };
    const commit = { first: [] as number[], last: [] as number[], all: [] as number[] };
    const productionDelays: number[] = [];
    /** Block commit → the book updates written to every subscriber's socket (server side). */
    const handedOff: number[] = [];
    const blockTimes: number[] = [];
    const rest = { markets: [] as number[], subaccount: [] as number[] };
    let subscribed = false;
    const ensureSubscribed = async () => {
      if (subscribed) return;
      const subscribe = { op: "subscribe", url: indexer.ws, channel: "v4_orderbook", id: "BTC-USD" };
      await probe({ ...subscribe, count: 1 });
      await ask({ ...subscribe, count: SUBSCRIBERS - 2 });
      await probe({ ...subscribe, count: 1 });
      subscribed = true;
    };

    wsBench(
      `WebSocket fan-out: ${FANOUT_ORDERS} book updates to ${SUBSCRIBERS} subscribers`,
      async () => {
        await ensureSubscribed();
        const txs = Array.from({ length: FANOUT_ORDERS }, () =>
          b64(shortTerm(asker, "sell", 6_600_000_000n + askLevel++ * 100_000n)),
        );
        await probe({ op: "mark" });
        const [answer, probed] = await Promise.all([
          ask<{ received: number; started: number; lastDataAt: number; refusal: string | null }>({
            op: "fanout",
            rpc: devnet.endpoints.nodeRpc,
            txs,
            inFlight: 8,
            expected: FANOUT_ORDERS * (SUBSCRIBERS - 2),
            timeoutMs: TIMEOUT_MS,
          }),
          probe<{ received: number; lastDataAt: number }>({
            op: "expect",
            count: FANOUT_ORDERS * 2,
            timeoutMs: TIMEOUT_MS,
          }),
        ]);
        if (answer.refusal !== null) throw new Error(answer.refusal);
        const received = answer.received + probed.received;
        const expected = FANOUT_ORDERS * SUBSCRIBERS;
        if (received < expected) throw new Error(`${received} of ${expected} messages arrived`);
        const elapsedMs = Math.max(answer.lastDataAt, probed.lastDataAt) - answer.started;
        fanoutRates.push((received / elapsedMs) * 1000);
      },
      { iterations: ITERATIONS, warmupIterations: 1, time: 0, warmupTime: 0 },
    );

    wsBench(
      `CheckTx → v4_orderbook (${DELAY_ORDERS} short-term orders, one at a time)`,
      async () => {
        await ensureSubscribed();
        const orders = Array.from({ length: DELAY_ORDERS }, () => {
          const subticks = 6_400_000_000n - bidLevel++ * 100_000n;
          return { tx: b64(shortTerm(bidder, "buy", subticks)), price: usd(subticks), side: "bids" };
        });
        await ask({ op: "watch", prices: orders.map(({ price, side }) => ({ price, side })) });
        const answer = await probe<{
          delays: number[];
          allDelays: number[];
          sentAts: number[];
          refusal: string | null;
        }>({ op: "checkTxDelay", rpc: devnet.endpoints.nodeRpc, orders, timeoutMs: TIMEOUT_MS });
        if (answer.refusal !== null) throw new Error(answer.refusal);
        const crowd = (await collect(ask)).all;
        checkTx.first.push(...answer.delays);
        checkTx.last.push(...answer.allDelays);
        checkTx.all.push(
          ...answer.sentAts.map(
            (sentAt, i) => Math.max(sentAt + (answer.allDelays[i] as number), crowd[i] as number) - sentAt,
          ),
        );
      },
      { iterations: ITERATIONS, warmupIterations: 1, time: 0, warmupTime: 0 },
    );

    wsBench(
      `block commit → v4_orderbook (${BLOCK_ORDERS} long-term orders in one block)`,
      async () => {
        await ensureSubscribed();
        const goodTilBlockTime = Math.floor(devnet.app.latestBlock().time.getTime() / 1000) + 3_600;
        const prices: Array<{ price: string; side: string }> = [];
        const longTerm = fundedSigner(longTermIndex++, GENESIS_ACCOUNTS.length);
        for (let i = 0; i < BLOCK_ORDERS; i++) {
          const subticks = 6_400_000_000n - bidLevel++ * 100_000n;
          const tx = signOrderTx(
            longTerm,
            devnet.chainId,
            {
              owner: longTerm.address,
              clientId: clientId++,
              side: "buy",
              quantums: 1_000_000n,
              subticks,
              flags: 64,
              goodTilBlockTime,
            },
            i,
          );
          const result = devnet.app.checkTx(tx);
          if (result.code !== 0) throw new Error(result.log);
          prices.push({ price: usd(subticks), side: "bids" });
        }
        await ask({ op: "watch", prices });
        await probe({ op: "watch", prices });
        const started = performance.timeOrigin + performance.now();
        streamedAt = undefined;
        const [block] = devnet.mine(1);
        blockTimes.push(performance.timeOrigin + performance.now() - started);
        const committedAt = block === undefined ? undefined : commits.get(block.height);
        if (committedAt === undefined) throw new Error("the block's commit moment was not reported");
        if (streamedAt === undefined) throw new Error("the block's order stream was not published");
        handedOff.push(streamedAt - committedAt);
        const probed = await collect(probe);
        const crowd = (await collect(ask)).all;
        commit.first.push(...probed.first.map((t) => t - committedAt));
        commit.last.push(...probed.all.map((t) => t - committedAt));
        commit.all.push(...probed.all.map((t, i) => Math.max(t, crowd[i] as number) - committedAt));
        productionDelays.push(...probed.first.map((t) => t - started));
      },
      { iterations: ITERATIONS, warmupIterations: 1, time: 0, warmupTime: 0 },
    );

    restBench(
      `GET /v4/perpetualMarkets (${REST_REQUESTS} in a row)`,
      async () => {
        const answer = await ask<{ latencies: number[]; status: number }>({
          op: "rest",
          url: `${indexer.rest}/v4/perpetualMarkets`,
          count: REST_REQUESTS,
        });
        if (answer.status !== 200) throw new Error(`status ${answer.status}`);
        rest.markets.push(...answer.latencies);
      },
      { iterations: ITERATIONS, warmupIterations: 1, time: 0, warmupTime: 0 },
    );

    restBench(
      `GET /v4/addresses/:a/subaccountNumber/0 (${REST_REQUESTS} in a row)`,
      async () => {
        const answer = await ask<{ latencies: number[]; status: number }>({
          op: "rest",
          url: `${indexer.rest}/v4/addresses/${reader.address}/subaccountNumber/0`,
          count: REST_REQUESTS,
        });
        if (answer.status !== 200) throw new Error(`status ${answer.status}`);
        rest.subaccount.push(...answer.latencies);
      },
      { iterations: ITERATIONS, warmupIterations: 1, time: 0, warmupTime: 0 },
    );

    finishers.push(async () => {
      if (workers.crowd === undefined) return;
      report.push(
        `indexer, ${scale.label}:`,
        ...(indexer.ws === undefined
          ? ["  WebSocket: not served (no endpoints.indexerWs)"]
          : [
              `  WebSocket fan-out: ${fanoutRates.map((r) => r.toFixed(0)).join(", ")} messages/s to ${SUBSCRIBERS} subscribers`,
              ...delayLines("CheckTx → v4_orderbook", checkTx),
              `  block commit → v4_orderbook frames written to all ${SUBSCRIBERS} sockets (server side): ${summary(handedOff)}`,
              ...delayLines("block commit → v4_orderbook", commit),
              `  block production start → v4_orderbook, first subscriber: ${summary(productionDelays)} (block production alone: ${summary(blockTimes)})`,
            ]),
        `  GET /v4/perpetualMarkets: ${summary(rest.markets)}`,
        `  GET /v4/addresses/:a/subaccountNumber/0: ${summary(rest.subaccount)}`,
      );
      for (const w of [workers.crowd, workers.probe]) {
        if (w === undefined) continue;
        await client(w)({ op: "close" }).catch(() => undefined);
        await w.terminate();
      }
    });
  });

  afterAll(() => devnet.stop());
}

afterAll(async () => {
  for (const finish of finishers) await finish();
  console.log(
    report.length === 0 ? "indexer benches skipped: the devnet serves no indexer yet" : report.join("\n"),
  );
});
