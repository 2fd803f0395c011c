/**
 * Order flow for the table's devnet rows: the built devnet (see `shipped.ts`) in this process with
 * two funded subaccounts (maker and taker), rounds of pre-signed short-term orders (N resting asks
 * and N crossing IOC buys, each buy matched at CheckTx), and an RPC client in a worker thread (as a
 * node's clients are other processes) that sends `broadcast_tx_sync` over keep-alive HTTP with a few
 * requests in flight.
 */
import { Worker } from "node:worker_threads";
import type { Devnet, StartDevnetOptions } from "@perpx/devnet";
import { clob } from "@perpx/proto";
import { fundedSigner, signOrderTx } from "../../packages/devnet/test/support/fast-order.js";
import { shipped } from "./shipped.js";

/** The devnet as it ships (its build, loaded by Node): the rows measure what users run. */
const devnetPackage = await shipped<typeof import("@perpx/devnet")>("devnet");
const { startDevnet } = devnetPackage;

/** The genesis accounts of the built devnet (the signers of the flow are among them). */
export const { GENESIS_ACCOUNTS } = devnetPackage;

const IN_FLIGHT = 8;

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

/** The RPC client thread: `send` broadcasts every tx and throws on the first refusal. */
export interface RpcClient {
  send(url: string, txs: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** Starts the RPC client thread. */
export function rpcClient(): RpcClient {
  const worker = new Worker(CLIENT_SOURCE, { eval: true });
  return {
    async send(url, txs) {
      const refusal = await new Promise<string | null>((resolve) => {
        worker.once("message", resolve);
        worker.postMessage({ url, txs });
      });
      if (refusal !== null) throw new Error(`a tx was refused: ${refusal}`);
    },
    async close() {
      await worker.terminate();
    },
  };
}

/** A devnet for order flow, and rounds of signed orders for it. */
export interface OrderFlow {
  devnet: Devnet;
  /** `pairs` resting asks then `pairs` crossing IOC buys (base64), good til `goodTilBlock`. */
  round(pairs: number, goodTilBlock: number): string[];
  /** Mines one block and returns how many fills it carried (throws on a failed tx). */
  mineFills(): number;
}

/** Starts the devnet (on-demand blocks, oracle walk off) with the maker and the taker funded. */
export async function startOrderFlow(options: StartDevnetOptions = {}): Promise<OrderFlow> {
  const devnet = await startDevnet({ ports: "free", blockTimeMs: 0, fundedSubaccounts: 2, ...options });
  devnet.app.control.setOracleWalk(false);
  const maker = fundedSigner(0, GENESIS_ACCOUNTS.length);
  const taker = fundedSigner(1, GENESIS_ACCOUNTS.length);
  let clientId = 1;
  const encode = (tx: Uint8Array) => Buffer.from(tx).toString("base64");
  return {
    devnet,
    round(pairs, goodTilBlock) {
      const common = { quantums: 1_000_000n, subticks: 6_500_000_000n, goodTilBlock };
      const asks = Array.from({ length: pairs }, () =>
        encode(
          signOrderTx(maker, devnet.chainId, {
            ...common,
            owner: maker.address,
            clientId: clientId++,
            side: "sell",
          }),
        ),
      );
      const buys = Array.from({ length: pairs }, () =>
        encode(
          signOrderTx(taker, devnet.chainId, {
            ...common,
            owner: taker.address,
            clientId: clientId++,
            side: "buy",
            timeInForce: clob.Order_TimeInForce.IOC,
          }),
        ),
      );
      return [...asks, ...buys];
    },
    mineFills() {
      let fills = 0;
      for (const result of devnet.mine(1)[0]?.txResults ?? []) {
        if (result.code !== 0) throw new Error(`a tx of the block failed: ${result.log}`);
        for (const event of result.events) if (event.type === "perpx.clob.order_fill") fills++;
      }
      return fills;
    },
  };
}
