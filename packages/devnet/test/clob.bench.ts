/**
 * The order lifecycle's throughput (chain-protocol.md 1.11), two benchmarks:
 *
 * - short-term orders accepted and matched per second through CheckTx over RPC: each iteration
 *   sends N resting asks from one account and N crossing IOC buys from another with
 *   `broadcast_tx_sync` over HTTP from a client thread (a few requests in flight), every one matched by the memclob at
 *   CheckTx, then one block whose proposed-operations tx must carry N fills. Short-term orders
 *   accepted per second = hz × 2N; matched = hz × N.
 * - stateful orders per second through blocks: each iteration rests M short-term asks, checks M
 *   long-term buys (signed with their sequences) that cross them, and produces two blocks: the first
 *   stores the long-term orders, the second's operations carry their M fills. Stateful orders per
 *   second = hz × M.
 *
 * Every tx is signed before the benchmarks start (module top level), so the timings hold transport,
 * verification, matching and blocks, not signing. The keys are derived once and the txs signed
 * with `@noble/curves` (the same deterministic RFC 6979 signatures as cosmjs's `signDirect`).
 */

import { Worker } from "node:worker_threads";
import { create } from "@bufbuild/protobuf";
import { Bip39, EnglishMnemonic, Slip10, Slip10Curve, stringToPath } from "@cosmjs/crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { clob, sending } from "@perpx/proto";
import { afterAll, bench, describe } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import { signMsgs, testSigner } from "./support/clob-tx.js";
import { type FastSigner, signOrderTx } from "./support/fast-order.js";

/** Matched short-term orders per iteration (2 × N txs). */
const N = 200;
/** Long-term orders per iteration (the local profile allows 200 stateful orders per block). */
const M = 100;
/** `broadcast_tx_sync` requests in flight at once. */
const IN_FLIGHT = 8;
const ITERATIONS = 5;
const WARMUP_ITERATIONS = 1;
/** Rounds beyond the iterations, should the bench runner call the task once more than asked. */
const SPARE_ROUNDS = 2;

async function fastSigner(mnemonic: string, address: string, accountNumber: number): Promise<FastSigner> {
  const seed = await Bip39.mnemonicToSeed(new EnglishMnemonic(mnemonic));
  const { privkey } = Slip10.derivePath(Slip10Curve.Secp256k1, seed, stringToPath("m/44'/118'/0'/0/0"));
  return { address, accountNumber, privateKey: privkey, publicKey: secp256k1.getPublicKey(privkey, true) };
}

const devnet: Devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000 });
devnet.app.control.setOracleWalk(false);
const [makerAccount, takerAccount] = devnet.accounts;
if (makerAccount === undefined || takerAccount === undefined) throw new Error("two genesis accounts needed");
for (const [accountNumber, account] of [makerAccount, takerAccount].entries()) {
  const signer = await testSigner(account.mnemonic, accountNumber);
  const deposit = create(sending.MsgDepositToSubaccountSchema, {
    sender: signer.address,
    recipient: { owner: signer.address, number: 0 },
    assetId: 0,
    quantums: 500_000_000_000n,
  });
  const result = devnet.app.checkTx(
    await signMsgs(signer, devnet.chainId, 0n, [
      { schema: sending.MsgDepositToSubaccountSchema, value: deposit } as Parameters<
        typeof signMsgs
      >[3][number],
    ]),
  );
  if (result.code !== 0) throw new Error(`deposit refused: ${result.log}`);
}
devnet.mine(1);

const maker = await fastSigner(makerAccount.mnemonic, makerAccount.address, 0);
const taker = await fastSigner(takerAccount.mnemonic, takerAccount.address, 1);
const ROUNDS = WARMUP_ITERATIONS + ITERATIONS + SPARE_ROUNDS;
// One good-til-block for every short-term order: inside the 40-block window of the first round's
// CheckTx and still ahead of the last round's blocks (one per short-term round, two per stateful one).
const goodTilBlock = Number(devnet.app.latestBlock().height) + 40;
const goodTilBlockTime = Math.floor(devnet.app.latestBlock().time.getTime() / 1000) + 3_600;
let clientId = 1;
const ask = (subticks: bigint) =>
  signOrderTx(maker, devnet.chainId, {
    quantums: 1_000_000n,
    subticks,
    goodTilBlock,
    owner: maker.address,
    clientId: clientId++,
    side: "sell",
  });
/** Pre-signed short-term rounds: N asks, then N crossing IOC buys. */
const shortRounds: Uint8Array[][] = Array.from({ length: ROUNDS }, () => {
  const asks = Array.from({ length: N }, () => ask(6_500_000_000n));
  const buys = Array.from({ length: N }, () =>
    signOrderTx(taker, devnet.chainId, {
      quantums: 1_000_000n,
      subticks: 6_500_000_000n,
      goodTilBlock,
      owner: taker.address,
      clientId: clientId++,
      side: "buy",
      timeInForce: clob.Order_TimeInForce.IOC,
    }),
  );
  return [...asks, ...buys];
});
/** Pre-signed stateful rounds: M short-term asks, then M long-term buys with the taker's next sequences. */
let sequence = 1;
const statefulRounds: { asks: Uint8Array[]; buys: Uint8Array[] }[] = Array.from({ length: ROUNDS }, () => ({
  asks: Array.from({ length: M }, () => ask(6_400_000_000n)),
  buys: Array.from({ length: M }, () =>
    signOrderTx(
      taker,
      devnet.chainId,
      {
        quantums: 1_000_000n,
        subticks: 6_400_000_000n,
        flags: 64,
        goodTilBlockTime,
        owner: taker.address,
        clientId: clientId++,
        side: "buy",
      },
      sequence++,
    ),
  ),
}));

/**
 * The RPC client: a worker thread (as a node's clients are other processes, so the node's thread
 * runs only the node) that sends `broadcast_tx_sync` over keep-alive HTTP, `IN_FLIGHT` requests at
 * a time, and answers with the first refusal or `null` once every tx was accepted.
 */
const CLIENT_SOURCE = `
const { parentPort } = require("node:worker_threads");
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: ${IN_FLIGHT} });
function send(url, tx) {
  return new Promise((resolve, reject) => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"broadcast_tx_sync","params":{"tx":"' + tx + '"}}';
    const req = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
parentPort.on("message", async ({ url, txs }) => {
  let next = 0;
  let refusal = null;
  const lane = async () => {
    while (refusal === null && next < txs.length) {
      const answer = await send(url, txs[next++]);
      if (answer.result?.code !== 0) refusal = JSON.stringify(answer);
    }
  };
  try {
    await Promise.all(Array.from({ length: ${IN_FLIGHT} }, lane));
    parentPort.postMessage(refusal);
  } catch (error) {
    parentPort.postMessage(String(error));
  }
});
`;
const client = new Worker(CLIENT_SOURCE, { eval: true });

/** `broadcast_tx_sync` of every tx over HTTP from the client thread; throws on a refusal. */
async function broadcastAll(txs: readonly Uint8Array[]): Promise<void> {
  const encoded = txs.map((tx) => Buffer.from(tx).toString("base64"));
  const refusal = await new Promise<string | null>((resolve) => {
    client.once("message", resolve);
    client.postMessage({ url: devnet.endpoints.nodeRpc, txs: encoded });
  });
  if (refusal !== null) throw new Error(`CheckTx refused an order: ${refusal}`);
}

/** The fills of a block (its proposed-operations tx heads it). */
function fillsOf(
  block: { txResults: readonly { code: number; log: string; events: { type: string }[] }[] } | undefined,
): number {
  let fills = 0;
  for (const result of block?.txResults ?? []) {
    if (result.code !== 0) throw new Error(`a tx failed: ${result.log}`);
    for (const e of result.events) if (e.type === "perpx.clob.order_fill") fills++;
  }
  return fills;
}

afterAll(async () => {
  await client.terminate();
  await devnet.stop();
});

describe(`short-term orders through CheckTx over RPC (accepted/s = hz × ${2 * N}, matched/s = hz × ${N})`, () => {
  bench(
    `${2 * N} signed short-term txs by broadcast_tx_sync, ${N} matched at CheckTx, one block`,
    async () => {
      const txs = shortRounds.shift();
      if (txs === undefined) throw new Error("no pre-signed round left: raise the number of rounds");
      await broadcastAll(txs);
      const fills = fillsOf(devnet.mine(1)[0]);
      if (fills !== N) throw new Error(`expected ${N} fills, got ${fills}`);
    },
    { iterations: ITERATIONS, time: 0, warmupIterations: WARMUP_ITERATIONS, warmupTime: 0 },
  );
});

describe(`stateful orders through blocks (orders/s = hz × ${M})`, () => {
  bench(
    `${M} long-term orders through CheckTx, stored by a block, matched after it and settled by the next`,
    async () => {
      const round = statefulRounds.shift();
      if (round === undefined) throw new Error("no pre-signed round left: raise the number of rounds");
      for (const tx of [...round.asks, ...round.buys]) {
        const result = devnet.app.checkTx(tx);
        if (result.code !== 0) throw new Error(`CheckTx refused an order: ${result.log}`);
      }
      const [stored, settled] = devnet.mine(2);
      if (stored?.txs.length !== M + 1)
        throw new Error(`expected ${M} stored orders, got ${stored?.txs.length}`);
      const fills = fillsOf(settled);
      if (fills !== M) throw new Error(`expected ${M} fills, got ${fills}`);
    },
    { iterations: ITERATIONS, time: 0, warmupIterations: WARMUP_ITERATIONS, warmupTime: 0 },
  );
});
