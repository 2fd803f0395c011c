/**
 * Unmodified cosmjs against the devnet: StargateClient reads, SigningStargateClient sends (simulated
 * and fixed fees), CheckTx and delivery failures, tx lookup and search, and block subscriptions
 * over `/websocket` with the Comet38 client.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
import {
  BroadcastTxError,
  type Coin,
  GasPrice,
  SigningStargateClient,
  StargateClient,
  type StdFee,
} from "@cosmjs/stargate";
import { Comet38Client, WebsocketClient } from "@cosmjs/tendermint-rpc";
import { cosmosTx } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";

let devnet: Devnet;
let alice: { address: string; wallet: DirectSecp256k1HdWallet };
let client: SigningStargateClient;
let reader: StargateClient;
const FEE: StdFee = { amount: [{ denom: "uusdc", amount: "5000" }], gas: "200000" };

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 50 });
  const account = devnet.accounts[0]!;
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(account.mnemonic, { prefix: "perpx" });
  alice = { address: account.address, wallet };
  client = await SigningStargateClient.connectWithSigner(devnet.endpoints.nodeRpc, wallet, {
    gasPrice: GasPrice.fromString("0.025uusdc"),
    broadcastPollIntervalMs: 100,
    broadcastTimeoutMs: 15_000,
  });
  reader = await StargateClient.connect(devnet.endpoints.nodeRpc);
});

afterAll(async () => {
  client?.disconnect();
  reader?.disconnect();
  await devnet?.stop();
});

const usdc = async (address: string) => BigInt((await reader.getBalance(address, "uusdc")).amount);

describe("StargateClient", () => {
  it("reads chain id, height, account and balances", async () => {
    expect(await reader.getChainId()).toBe("perpx-local-1");
    expect(await reader.getHeight()).toBeGreaterThanOrEqual(1);
    const account = await reader.getAccount(alice.address);
    expect(account?.address).toBe(alice.address);
    expect(account?.accountNumber).toBe(0n);
    const balances = await reader.getAllBalances(alice.address);
    expect(balances.map((b: Coin) => b.denom).sort()).toEqual(["aperpx", "uusdc"]);
    expect(await reader.getAccount("perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc")).toBeNull();
  });
});

describe("SigningStargateClient", () => {
  const bob = () => devnet.accounts[1]!.address;

  it("sends with simulated gas and finds the tx by hash and by search", async () => {
    const before = await usdc(bob());
    const result = await client.sendTokens(
      alice.address,
      bob(),
      [{ denom: "uusdc", amount: "1234" }],
      "auto",
      "auto gas",
    );
    expect(result.code).toBe(0);
    expect(await usdc(bob())).toBe(before + 1234n);
    const found = await reader.getTx(result.transactionHash);
    expect(found?.height).toBe(result.height);
    const search = await reader.searchTx(`message.sender='${alice.address}'`);
    expect(search.map((t) => t.hash)).toContain(result.transactionHash);
    const byHeight = await reader.searchTx(`tx.height=${result.height}`);
    expect(byHeight.map((t) => t.hash)).toContain(result.transactionHash);
  });

  it("sends with a fixed fee", async () => {
    const aliceBefore = await usdc(alice.address);
    const result = await client.sendTokens(alice.address, bob(), [{ denom: "uusdc", amount: "10" }], FEE);
    expect(result.code).toBe(0);
    expect(await usdc(alice.address)).toBe(aliceBefore - 10n - 5000n);
  });

  it("rejects a wrong sequence, a bad signature and a too-low fee at CheckTx, leaving balances unchanged", async () => {
    const msg = {
      typeUrl: "/cosmos.bank.v1beta1.MsgSend",
      value: { fromAddress: alice.address, toAddress: bob(), amount: [{ denom: "uusdc", amount: "77" }] },
    };
    const aliceBefore = await usdc(alice.address);
    const bobBefore = await usdc(bob());
    const account = (await reader.getAccount(alice.address))!;
    const chainId = await reader.getChainId();
    const raw = (signed: { bodyBytes: Uint8Array; authInfoBytes: Uint8Array; signatures: Uint8Array[] }) =>
      toBinary(cosmosTx.TxRawSchema, create(cosmosTx.TxRawSchema, signed));

    const wrongSequence = await client.sign(alice.address, [msg], FEE, "", {
      accountNumber: account.accountNumber,
      sequence: account.sequence + 5,
      chainId,
    });
    const seqError = await client.broadcastTx(raw(wrongSequence)).catch((e: unknown) => e);
    expect(seqError).toBeInstanceOf(BroadcastTxError);
    expect((seqError as BroadcastTxError).code).toBe(32);

    const good = await client.sign(alice.address, [msg], FEE, "", {
      accountNumber: account.accountNumber,
      sequence: account.sequence,
      chainId,
    });
    const badSignature = good.signatures[0]!.slice();
    badSignature[5] = (badSignature[5] ?? 0) ^ 0xff;
    const sigError = await client
      .broadcastTx(raw({ ...good, signatures: [badSignature] }))
      .catch((e: unknown) => e);
    expect((sigError as BroadcastTxError).code).toBe(4);

    const lowFee = await client
      .sendTokens(alice.address, bob(), msg.value.amount, {
        amount: [{ denom: "uusdc", amount: "1" }],
        gas: "200000",
      })
      .catch((e: unknown) => e);
    expect((lowFee as BroadcastTxError).code).toBe(13);

    expect(await usdc(alice.address)).toBe(aliceBefore);
    expect(await usdc(bob())).toBe(bobBefore);
  });

  it("fails an overspend with insufficient funds and moves no tokens", async () => {
    const aliceBefore = await usdc(alice.address);
    const bobBefore = await usdc(bob());
    const outcome = await client
      .sendTokens(alice.address, bob(), [{ denom: "uusdc", amount: (aliceBefore * 2n).toString() }], FEE)
      .then(
        (r) => ({ code: r.code, deliveredFee: true }),
        (e: unknown) => ({ code: (e as BroadcastTxError).code, deliveredFee: false }),
      );
    expect(outcome.code).toBe(5);
    expect(await usdc(bob())).toBe(bobBefore);
    // A delivery failure still pays its fee (Cosmos semantics); a CheckTx rejection pays nothing.
    expect(await usdc(alice.address)).toBe(outcome.deliveredFee ? aliceBefore - 5000n : aliceBefore);
  });
});

describe("Comet38Client over WebSocket", () => {
  it("delivers NewBlock events", async () => {
    const comet = Comet38Client.create(new WebsocketClient(devnet.endpoints.nodeRpc.replace(/^http/, "ws")));
    const heights = await new Promise<number[]>((resolve, reject) => {
      const seen: number[] = [];
      const sub = comet.subscribeNewBlock().subscribe({
        next: (block) => {
          seen.push(block.header.height);
          if (seen.length === 3) {
            sub.unsubscribe();
            resolve(seen);
          }
        },
        error: reject,
      });
    });
    comet.disconnect();
    expect(heights[1]).toBe(heights[0]! + 1);
    expect(heights[2]).toBe(heights[1]! + 1);
  });
});
