/**
 * The clob's block rate limits over the wire (testnet profile, the reference limits: 400 short-term
 * places and cancels per block, stateful places 2 per block and 20 per 100 blocks, 5 leverage
 * updates per block): txs signed with cosmjs and broadcast with RPC `broadcast_tx_sync`, counted as
 * the real chain counts them (after the signature check, before the clob checks; refused attempts
 * count; a batch cancel weighs 2; a stateful cancel is not counted), also when a burst arrives at
 * once over RPC, gRPC and REST.
 */
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { clob, cosmosTx, sending } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import { placeMsg, signMsgs, type TestSigner, testSigner } from "./support/clob-tx.js";
import { msg } from "./support/sign-tx.js";
import { accountOf, broadcastSync, type SyncAnswer } from "./support/wire.js";

let devnet: Devnet;
let alice: TestSigner;
let sequence = 0n;
let clientId = 1;

function height(): number {
  return Number(devnet.app.latestBlock().height);
}

/** Signs and broadcasts; a stateful tx accepted by CheckTx moves the local sequence. */
async function broadcast(msgs: Parameters<typeof signMsgs>[3], stateful: boolean): Promise<SyncAnswer> {
  const bytes = await signMsgs(alice, devnet.chainId, stateful ? sequence : 0n, msgs, 0n);
  const answer = await broadcastSync(devnet.endpoints.nodeRpc, bytes);
  if (answer.code === 0 && stateful) sequence++;
  return answer;
}

function batchCancel(ids: number[]) {
  return msg(
    clob.MsgBatchCancelSchema,
    create(clob.MsgBatchCancelSchema, {
      subaccountId: { owner: alice.address, number: 0 },
      shortTermCancels: [{ clobPairId: 0, clientIds: ids }],
      goodTilBlock: height() + 5,
    }),
  );
}

function shortTermCancel(id: number) {
  return msg(
    clob.MsgCancelOrderSchema,
    create(clob.MsgCancelOrderSchema, {
      orderId: {
        subaccountId: { owner: alice.address, number: 0 },
        clientId: id,
        orderFlags: 0,
        clobPairId: 0,
      },
      goodTilOneof: { case: "goodTilBlock", value: height() + 5 },
    }),
  );
}

function longTerm(goodTilBlockTime: number) {
  return placeMsg({
    owner: alice.address,
    clientId: clientId++,
    flags: 64,
    goodTilBlockTime,
    quantums: 1_000_000n,
    subticks: 1_000_000_000n,
    side: "buy",
  });
}

function blockSeconds(): number {
  return Math.floor(devnet.app.latestBlock().time.getTime() / 1000);
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000, profile: "testnet" });
  alice = await testSigner(devnet.accounts[0]!.mnemonic, 0);
  alice = {
    ...alice,
    accountNumber: Number((await accountOf(devnet.endpoints.nodeRest, alice.address)).accountNumber),
  };
  const fund = msg(
    sending.MsgDepositToSubaccountSchema,
    create(sending.MsgDepositToSubaccountSchema, {
      sender: alice.address,
      recipient: { owner: alice.address, number: 0 },
      assetId: 0,
      quantums: 100_000_000_000n,
    }),
  );
  const funded = await broadcastSync(
    devnet.endpoints.nodeRpc,
    await signMsgs(alice, devnet.chainId, sequence, [fund]),
  );
  expect(funded.code, funded.log).toBe(0);
  sequence++;
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

describe("clob block rate limits", () => {
  it("weighs a batch cancel 2, counts refused attempts, and leaves stateful cancels out", async () => {
    // A long-term order to cancel later, in a block of its own.
    const gtbt = blockSeconds() + 3_600;
    const resting = longTerm(gtbt);
    expect((await broadcast([resting], true)).code).toBe(0);
    devnet.mine(1);

    // 200 batch cancels weigh 400: the whole short-term rate of the block.
    for (let i = 0; i < 200; i++) {
      const answer = await broadcast([batchCancel([10_000 + i])], false);
      expect(answer.code, answer.log).toBe(0);
    }
    const over = await broadcast([shortTermCancel(1)], false);
    expect([over.codespace, over.code]).toEqual(["clob", 5001]);
    expect(over.log).toBe(
      `Rate of 401 exceeds configured block rate limit of {NumBlocks:1 Limit:400} for MaxShortTermOrdersAndCancelsPerNBlocks and key ${alice.address}: Block rate limit exceeded`,
    );
    // The refused attempt counted: the next one is the 402nd.
    const again = await broadcast([shortTermCancel(2)], false);
    expect(again.log).toContain("Rate of 402 exceeds");

    // A stateful cancel is not counted against any limit.
    const cancel = msg(
      clob.MsgCancelOrderSchema,
      create(clob.MsgCancelOrderSchema, {
        orderId: (resting.value as clob.MsgPlaceOrder).order?.orderId,
        goodTilOneof: { case: "goodTilBlockTime", value: gtbt },
      }),
    );
    const cancelled = await broadcast([cancel], true);
    expect(cancelled.code, cancelled.log).toBe(0);

    // The next block starts a fresh count.
    devnet.mine(1);
    const fresh = await broadcast([shortTermCancel(3)], false);
    expect(fresh.code, fresh.log).toBe(0);
  });

  it("counts a stateful place refused by the clob checks, but not one refused by its signature", async () => {
    devnet.mine(1);
    // A bad signature (signed for another chain) is refused before the rate limiter: not counted.
    const forged = await signMsgs(alice, "another-chain", sequence, [longTerm(blockSeconds() + 600)], 0n);
    const refused = await broadcastSync(devnet.endpoints.nodeRpc, forged);
    expect([refused.codespace, refused.code]).toEqual(["sdk", 4]);
    // An expired good-til-block-time passes the rate limiter (counted: 1), then the clob refuses it.
    const expired = await broadcast([longTerm(blockSeconds() - 10)], true);
    expect(expired.codespace).toBe("clob");
    expect(expired.code).not.toBe(5001);
    // So one more valid order fits the block's 2, and the next is the 3rd.
    expect((await broadcast([longTerm(blockSeconds() + 600)], true)).code).toBe(0);
    const third = await broadcast([longTerm(blockSeconds() + 600)], true);
    expect([third.codespace, third.code]).toEqual(["clob", 5001]);
    expect(third.log).toBe(
      `Rate of 3 exceeds configured block rate limit of {NumBlocks:1 Limit:2} for MaxStatefulOrdersPerNBlocks and ${alice.address}: Block rate limit exceeded`,
    );
    devnet.mine(1);
  });

  it("rate-limits leverage updates per block (5) and counts them at CheckTx only", async () => {
    const update = () =>
      msg(
        clob.MsgUpdateLeverageSchema,
        create(clob.MsgUpdateLeverageSchema, {
          subaccountId: { owner: alice.address, number: 0 },
          clobPairLeverage: [{ clobPairId: 0, customImfPpm: 100_000 }],
        }),
      );
    for (let i = 0; i < 5; i++) {
      const answer = await broadcast([update()], true);
      expect(answer.code, answer.log).toBe(0);
    }
    const sixth = await broadcast([update()], true);
    expect([sixth.codespace, sixth.code]).toEqual(["clob", 5001]);
    expect(sixth.log).toContain("for UpdateLeverage and key");
    // Delivering the five counts nothing more: the next block takes five again.
    const [block] = devnet.mine(1);
    expect(block?.txResults.every((r) => r.code === 0)).toBe(true);
    for (let i = 0; i < 5; i++) expect((await broadcast([update()], true)).code).toBe(0);
    devnet.mine(1);
  });
  it("lets exactly the block's 400 through a concurrent burst over RPC, gRPC and REST; the rest get 5001", async () => {
    devnet.mine(1);
    const grpc = createClient(cosmosTx.Service, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
    const viaRpc = (tx: Uint8Array) => broadcastSync(devnet.endpoints.nodeRpc, tx);
    const viaGrpc = async (tx: Uint8Array) => {
      const { txResponse } = await grpc.broadcastTx({ txBytes: tx, mode: cosmosTx.BroadcastMode.SYNC });
      return { code: txResponse?.code, codespace: txResponse?.codespace, log: txResponse?.rawLog };
    };
    const viaRest = async (tx: Uint8Array) => {
      const res = await fetch(`${devnet.endpoints.nodeRest}/cosmos/tx/v1beta1/txs`, {
        method: "POST",
        body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_SYNC" }),
      });
      const { tx_response: answer } = (await res.json()) as {
        tx_response: { code: number; codespace: string; raw_log: string };
      };
      return { code: answer.code, codespace: answer.codespace, log: answer.raw_log };
    };
    // 410 short-term cancels (weight 1 each), all signed first, then sent at once.
    const txs = await Promise.all(
      Array.from({ length: 410 }, (_, i) =>
        signMsgs(alice, devnet.chainId, 0n, [shortTermCancel(20_000 + i)], 0n),
      ),
    );
    const answers = await Promise.all(txs.map((tx, i) => [viaRpc, viaGrpc, viaRest][i % 3]!(tx)));
    expect(answers.filter((a) => a.code === 0)).toHaveLength(400);
    const over = answers.filter((a) => a.code !== 0);
    expect(over.map((a) => [a.codespace, a.code])).toEqual(Array.from({ length: 10 }, () => ["clob", 5001]));
    // Each refused one was counted in its turn: rates 401 to 410, once each.
    const rates = over
      .map((a) => Number(/^Rate of (\d+) exceeds/.exec(a.log ?? "")?.[1]))
      .sort((a, b) => a - b);
    expect(rates).toEqual(Array.from({ length: 10 }, (_, i) => 401 + i));
    devnet.mine(1);
  });
});
