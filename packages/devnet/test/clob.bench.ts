/**
 * Orders matched per second through the whole pipeline: pre-signed short-term order txs in through
 * CheckTx, one block, fills out. Each round rests N asks from one account and crosses them with N
 * IOC buys from another, so every buy produces one fill.
 */
import { create, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { clob, sending } from "@perpx/proto";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import { placeMsg, signMsgs, type TestSigner, testSigner } from "./support/clob-tx.js";

const N = 200;
let devnet: Devnet;
let maker: TestSigner;
let taker: TestSigner;
let clientId = 1;

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000 });
  devnet.app.control.setOracleWalk(false);
  maker = await testSigner(devnet.accounts[0]!.mnemonic, 0);
  taker = await testSigner(devnet.accounts[1]!.mnemonic, 1);
  for (const [i, s] of [maker, taker].entries()) {
    const msg = create(sending.MsgDepositToSubaccountSchema, {
      sender: s.address,
      recipient: { owner: s.address, number: 0 },
      assetId: 0,
      quantums: 500_000_000_000n,
    });
    devnet.app.checkTx(
      await signMsgs(s, devnet.chainId, 0n, [
        { schema: sending.MsgDepositToSubaccountSchema, value: msg } as {
          schema: DescMessage;
          value: MessageShape<DescMessage>;
        },
      ]),
    );
    void i;
  }
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

async function round(): Promise<Uint8Array[]> {
  const gtb = Number(devnet.app.latestBlock().height) + 10;
  const txs: Uint8Array[] = [];
  for (let i = 0; i < N; i++) {
    const spec = {
      owner: maker.address,
      clientId: clientId++,
      side: "sell" as const,
      quantums: 1_000_000n,
      subticks: 6_500_000_000n,
      goodTilBlock: gtb,
    };
    txs.push(await signMsgs(maker, devnet.chainId, 0n, [placeMsg(spec)], 0n));
  }
  for (let i = 0; i < N; i++) {
    const spec = {
      owner: taker.address,
      clientId: clientId++,
      side: "buy" as const,
      quantums: 1_000_000n,
      subticks: 6_500_000_000n,
      goodTilBlock: gtb,
      timeInForce: clob.Order_TimeInForce.IOC,
    };
    txs.push(await signMsgs(taker, devnet.chainId, 0n, [placeMsg(spec)], 0n));
  }
  return txs;
}

let prepared: Uint8Array[] = [];

describe("clob pipeline", () => {
  bench(
    `${N} matched orders (${2 * N} signed short-term txs: CheckTx, one block, fills)`,
    () => {
      for (const tx of prepared) devnet.app.checkTx(tx);
      const [block] = devnet.mine(1);
      const fills = (block?.txResults ?? []).reduce(
        (n, r) => n + r.events.filter((e) => e.type === "perpx.clob.order_fill").length,
        0,
      );
      if (fills !== N) throw new Error(`expected ${N} fills, got ${fills}`);
    },
    {
      iterations: 5,
      warmupIterations: 0,
      setup: async () => {
        prepared = await round();
      },
    },
  );
});
