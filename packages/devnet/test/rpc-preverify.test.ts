/**
 * Signatures checked on a worker thread before CheckTx (`ChainApp.prepareTx`, the node's line of
 * CheckTx and its signature worker): over real RPC, gRPC and REST sockets, CheckTx still runs in
 * arrival order across the transports and answers exactly what serial CheckTx answers on an
 * identical chain, when the worker dies mid-burst too, and a stop with txs in flight ends cleanly.
 */
import { createRequire } from "node:module";
import type * as WorkerThreads from "node:worker_threads";
import type { Worker } from "node:worker_threads";
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { clob, cosmosBank, cosmosTx } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TxResult } from "../src/app/contract.js";
import { type Devnet, GENESIS_ACCOUNTS, startDevnet } from "../src/index.js";
import { type FastSigner, fundedSigner, signOrderTx } from "./support/fast-order.js";
import { msg, signTx } from "./support/sign-tx.js";

/**
 * Every worker thread started in this file (the broadcaster's signature worker among them): the
 * devnet loads `worker_threads` on first use, through `require`, so its `Worker` is wrapped there.
 */
const workers: Worker[] = [];
const threads = createRequire(import.meta.url)("node:worker_threads") as typeof WorkerThreads;
const OriginalWorker = threads.Worker;
threads.Worker = class RecordedWorker extends OriginalWorker {
  constructor(...args: ConstructorParameters<typeof OriginalWorker>) {
    super(...args);
    workers.push(this);
  }
};

const genesisTime = new Date("2026-01-01T00:00:00Z");
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** A devnet whose CheckTx calls (and their results) and txs readied are recorded in order. */
interface Recorded {
  readonly devnet: Devnet;
  readonly checked: Array<{ tx: string; result: TxResult }>;
  readonly arrived: string[];
  /** How many of them went to the worker. */
  readied: number;
  /** Called with the arrival count after each tx is readied. */
  onArrival?: ((count: number) => void) | undefined;
}

async function recordedDevnet(): Promise<Recorded> {
  const devnet = await startDevnet({
    ports: "free",
    blockTimeMs: 3_600_000,
    fundedSubaccounts: 3,
    genesisTime,
  });
  devnet.app.control.setOracleWalk(false);
  const { app } = devnet;
  const record: Recorded = { devnet, checked: [], arrived: [], readied: 0 };
  const checkTx = app.checkTx.bind(app);
  app.checkTx = (tx) => {
    const result = checkTx(tx);
    record.checked.push({ tx: hex(tx), result });
    return result;
  };
  const prepareTx = app.prepareTx?.bind(app);
  if (prepareTx === undefined) throw new Error("the app readies no tx");
  app.prepareTx = (tx, verify) => {
    record.arrived.push(hex(tx));
    const prepared = prepareTx(tx, verify);
    if (prepared !== undefined) record.readied++;
    record.onArrival?.(record.arrived.length);
    return prepared;
  };
  return record;
}

let subject: Recorded;
let reference: Devnet;
let goodTilBlock: number;

beforeAll(async () => {
  [subject, reference] = await Promise.all([
    recordedDevnet(),
    startDevnet({ ports: "free", blockTimeMs: 3_600_000, fundedSubaccounts: 3, genesisTime }),
  ]);
  reference.app.control.setOracleWalk(false);
  goodTilBlock = Number(subject.devnet.app.latestBlock().height) + 20;
});

afterAll(async () => {
  await Promise.all([subject?.devnet.stop(), reference?.stop()]);
  threads.Worker = OriginalWorker;
});

let clientId = 1;
const [maker, taker, third] = [0, 1, 2].map((i) => fundedSigner(i, GENESIS_ACCOUNTS.length)) as [
  FastSigner,
  FastSigner,
  FastSigner,
];

function order(signer: FastSigner, side: "buy" | "sell", subticks: bigint, ioc = false): Uint8Array {
  return signOrderTx(signer, subject.devnet.chainId, {
    owner: signer.address,
    clientId: clientId++,
    side,
    quantums: 1_000_000n,
    subticks,
    goodTilBlock,
    ...(ioc ? { timeInForce: clob.Order_TimeInForce.IOC } : {}),
  });
}

function send(from: number, sequence: bigint, accountNumber = BigInt(from)): Promise<Uint8Array> {
  const sender = GENESIS_ACCOUNTS[from];
  const to = GENESIS_ACCOUNTS[(from + 1) % GENESIS_ACCOUNTS.length];
  if (sender === undefined || to === undefined) throw new Error("no genesis account");
  return signTx({
    mnemonic: sender.mnemonic,
    chainId: subject.devnet.chainId,
    accountNumber,
    sequence,
    msgs: [
      msg(
        cosmosBank.MsgSendSchema,
        create(cosmosBank.MsgSendSchema, {
          fromAddress: sender.address,
          toAddress: to.address,
          amount: [{ denom: "uusdc", amount: "1000" }],
        }),
      ),
    ],
  });
}

/** A mixed burst: matching orders, bad signatures, a wrong account number, wrong and repeated sequences. */
async function burst(round: number): Promise<Uint8Array[]> {
  const badSignature = order(maker, "sell", 6_500_000_000n);
  const signature = badSignature.subarray(badSignature.length - 64);
  signature[5] = (signature[5] as number) ^ 0x10;
  const sends = await Promise.all([0n, 1n, 2n].map((s) => send(0, BigInt(round) * 3n + s)));
  return [
    order(maker, "sell", 6_500_000_000n),
    order(maker, "sell", 6_500_000_000n),
    order(taker, "buy", 6_500_000_000n, true),
    badSignature,
    order({ ...maker, accountNumber: maker.accountNumber + 7 }, "sell", 6_500_000_000n),
    order(third, "buy", 5_000_000_000n),
    sends[1] as Uint8Array, // ahead of its sequence: refused
    sends[0] as Uint8Array,
    order(taker, "buy", 6_500_000_000n, true),
    sends[1] as Uint8Array,
    sends[1] as Uint8Array, // the same bytes again: in the mempool cache
    await send(1, BigInt(round), 5n), // wrong account number
    await send(1, BigInt(round)),
    sends[2] as Uint8Array,
    order(third, "buy", 5_100_000_000n),
    order(taker, "buy", 6_500_000_000n, true),
  ];
}

/**
 * What the subject checked since `from`: in arrival order (the order the txs readied since `arrivedFrom` arrived in, when given),
 * each with the result of serial CheckTx of the same txs in the same order on the reference chain.
 */
function expectSerialResults(from: number, arrivedFrom: number | undefined): void {
  const checked = subject.checked.slice(from);
  if (arrivedFrom !== undefined) expect(checked.map((c) => c.tx)).toEqual(subject.arrived.slice(arrivedFrom));
  for (const { tx, result } of checked) {
    expect(result).toEqual(reference.app.checkTx(Buffer.from(tx, "hex")));
  }
  expect(subject.devnet.app.pendingTxCount()).toBe(reference.app.pendingTxCount());
}

async function rpc(body: unknown): Promise<unknown> {
  const res = await fetch(subject.devnet.endpoints.nodeRpc, { method: "POST", body: JSON.stringify(body) });
  return res.json();
}

const call = (method: string, tx: Uint8Array, id: number) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { tx: b64(tx) },
});

describe("signatures checked off the main thread before CheckTx", () => {
  it("a JSON-RPC batch of mixed broadcasts is checked in its order, with serial CheckTx's results", async () => {
    const from = subject.checked.length;
    const readied = subject.readied;
    const txs = await burst(0);
    const methods = ["broadcast_tx_sync", "check_tx", "broadcast_tx_async"];
    const replies = (await rpc(txs.map((tx, i) => call(methods[i % 3] as string, tx, i)))) as Array<{
      result: { code: number; log: string };
    }>;
    await vi.waitFor(() => expect(subject.checked.length - from).toBe(txs.length));
    expect(subject.arrived.slice(from)).toEqual(txs.map(hex));
    // Every tx of the burst has the usual single-signer secp256k1 shape: each went to the worker.
    expect(subject.readied - readied).toBe(txs.length);
    expectSerialResults(from, from);
    for (const [i, reply] of replies.entries()) {
      const { result } = subject.checked[from + i] as { result: TxResult };
      if (i % 3 === 2) expect(reply.result.code).toBe(0);
      else expect([reply.result.code, reply.result.log]).toEqual([result.code, result.log]);
    }
    // The bad signature is refused as before: sdk 4, the SDK's log.
    const refused = subject.checked[from + 3]?.result;
    expect([refused?.codespace, refused?.code, refused?.log]).toEqual([
      "sdk",
      4,
      `signature verification failed; please verify account number (${maker.accountNumber}) and chain-id (${subject.devnet.chainId}): (unable to verify single signer signature): unauthorized`,
    ]);
    expect(workers.some((w) => w.threadId > 0)).toBe(true);
  });

  it("concurrent broadcasts on many sockets are checked in arrival order, with serial CheckTx's results", async () => {
    const from = subject.checked.length;
    const arrivedFrom = subject.arrived.length;
    const txs = [...(await burst(1)), ...(await burst(2))];
    const replies = await Promise.all(txs.map((tx, i) => rpc(call("broadcast_tx_sync", tx, i))));
    expect(replies).toHaveLength(txs.length);
    expect(subject.checked.length - from).toBe(txs.length);
    expect([...subject.arrived.slice(arrivedFrom)].sort()).toEqual(txs.map(hex).sort());
    expectSerialResults(from, arrivedFrom);
  });

  it("broadcasts over RPC, gRPC and REST at once share one line: checked in arrival order, with serial CheckTx's results", async () => {
    const from = subject.checked.length;
    const arrivedFrom = subject.arrived.length;
    const readied = subject.readied;
    const txs = [...(await burst(6)), ...(await burst(7))];
    const grpc = createClient(
      cosmosTx.Service,
      createGrpcTransport({ baseUrl: subject.devnet.endpoints.grpc }),
    );
    const viaGrpc = async (tx: Uint8Array) => {
      const { txResponse } = await grpc.broadcastTx({ txBytes: tx, mode: cosmosTx.BroadcastMode.SYNC });
      return [txResponse?.code, txResponse?.rawLog];
    };
    const viaRest = async (tx: Uint8Array) => {
      const res = await fetch(`${subject.devnet.endpoints.nodeRest}/cosmos/tx/v1beta1/txs`, {
        method: "POST",
        body: JSON.stringify({ tx_bytes: b64(tx), mode: "BROADCAST_MODE_SYNC" }),
      });
      const { tx_response } = (await res.json()) as { tx_response: { code: number; raw_log: string } };
      return [tx_response.code, tx_response.raw_log];
    };
    const viaRpc = async (tx: Uint8Array, i: number) => {
      const { result } = (await rpc(call("broadcast_tx_sync", tx, i))) as {
        result: { code: number; log: string };
      };
      return [result.code, result.log];
    };
    // The same sender's sequences go by different transports at once, as a node's clients may send.
    const replies = await Promise.all(
      txs.map((tx, i) => [viaRpc, viaGrpc, viaRest][i % 3]?.(tx, i) as Promise<unknown[]>),
    );
    expect(subject.checked.length - from).toBe(txs.length);
    // Every tx went through the one line: readied for the worker, and checked in the order it arrived.
    expect(subject.readied - readied).toBe(txs.length);
    expect([...subject.arrived.slice(arrivedFrom)].sort()).toEqual(txs.map(hex).sort());
    expectSerialResults(from, arrivedFrom);
    // A tx sent once has the answer its CheckTx gave (one sent again answers as its turn had it).
    const once = txs.filter((tx) => txs.filter((other) => hex(other) === hex(tx)).length === 1);
    for (const tx of once) {
      const { result } = subject.checked.find((c) => c.tx === hex(tx)) as { result: TxResult };
      expect(replies[txs.indexOf(tx)]).toEqual([result.code, result.log]);
    }
  });

  it("a worker killed mid-burst loses nothing: every tx gets serial CheckTx's result", async () => {
    const from = subject.checked.length;
    const txs = [...(await burst(3)), ...(await burst(4))];
    const worker = workers.at(-1) as Worker;
    let killed: Promise<number> | undefined;
    const arrivedFrom = subject.arrived.length;
    subject.onArrival = (count) => {
      if (count === arrivedFrom + 5) killed = worker.terminate();
    };
    try {
      const replies = await Promise.all(txs.map((tx, i) => rpc(call("broadcast_tx_sync", tx, i))));
      expect(replies).toHaveLength(txs.length);
    } finally {
      subject.onArrival = undefined;
    }
    expect(killed).toBeDefined();
    await killed;
    expect(subject.checked.length - from).toBe(txs.length);
    // Once the worker is gone, txs are no longer readied: their arrival is not recorded.
    expectSerialResults(from, undefined);
    // Later broadcasts are checked inline, as without a worker.
    const later = subject.checked.length;
    const more = await burst(5);
    await Promise.all(more.map((tx, i) => rpc(call("broadcast_tx_sync", tx, i))));
    expect(subject.checked.length - later).toBe(more.length);
    for (const { tx, result } of subject.checked.slice(later)) {
      expect(result).toEqual(reference.app.checkTx(Buffer.from(tx, "hex")));
    }
  });

  it("a stop with broadcasts in flight ends cleanly: every tx that arrived is checked", async () => {
    const other = await recordedDevnet();
    const txs = Array.from({ length: 12 }, (_, i) =>
      order(maker, i % 2 === 0 ? "sell" : "buy", 4_000_000_000n),
    );
    let stopped: Promise<void> | undefined;
    other.onArrival = (count) => {
      if (count === 3) stopped = other.devnet.stop();
    };
    const sent = await Promise.allSettled(
      txs.map((tx, i) =>
        fetch(other.devnet.endpoints.nodeRpc, {
          method: "POST",
          body: JSON.stringify(call("broadcast_tx_sync", tx, i)),
        }).then((res) => res.json()),
      ),
    );
    expect(sent).toHaveLength(txs.length);
    expect(stopped).toBeDefined();
    await stopped;
    // The txs readied before the stop are checked first, in their order.
    await vi.waitFor(() =>
      expect(other.checked.map((c) => c.tx).slice(0, other.arrived.length)).toEqual(other.arrived),
    );
  });
});
