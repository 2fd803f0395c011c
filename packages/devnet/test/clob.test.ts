/**
 * The clob: real signed txs (built with `@perpx/proto` and cosmjs) against a started
 * devnet; blocks are mined on demand so every step is deterministic.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { clob, cosmosBank, decodeSerializableInt, sending, subaccounts } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TxResult } from "../src/app/contract.js";
import { type Devnet, startDevnet } from "../src/index.js";
import { type OrderSpec, placeMsg, signMsgs, type TestSigner, testSigner } from "./support/clob-tx.js";

let devnet: Devnet;
let signers: TestSigner[];
const sequences = new Map<string, bigint>();
let clientId = 1;

async function send(
  signer: TestSigner,
  msgs: ReadonlyArray<{ schema: DescMessage; value: MessageShape<DescMessage> }>,
  free = false,
): Promise<TxResult> {
  const seq = sequences.get(signer.address) ?? 0n;
  const bytes = await signMsgs(signer, devnet.chainId, seq, msgs, free ? 0n : 50_000n);
  const result = devnet.app.checkTx(bytes);
  if (result.code === 0 && !free) sequences.set(signer.address, seq + 1n);
  return result;
}

/** CheckTx, then the tx's delivery result in the next block. */
async function deliver(
  signer: TestSigner,
  msgs: ReadonlyArray<{ schema: DescMessage; value: MessageShape<DescMessage> }>,
  free = false,
): Promise<TxResult> {
  const check = await send(signer, msgs, free);
  if (check.code !== 0) return check;
  const [block] = devnet.mine(1);
  return block?.txResults.at(-1) as TxResult;
}

function height(): number {
  return Number(devnet.app.latestBlock().height);
}

function order(signer: TestSigner, spec: Partial<OrderSpec>): OrderSpec {
  return {
    owner: signer.address,
    clientId: clientId++,
    side: "buy",
    quantums: 1_000_000n,
    subticks: 6_500_000_000n,
    goodTilBlock: height() + 5,
    ...spec,
  };
}

async function place(signer: TestSigner, spec: Partial<OrderSpec>): Promise<TxResult> {
  const o = order(signer, spec);
  return deliver(signer, [placeMsg(o)], (o.flags ?? 0) === 0);
}

function events(result: TxResult, type: string): Record<string, string>[] {
  return result.events
    .filter((e) => e.type === type)
    .map((e) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value])));
}

function subaccount(owner: string): subaccounts.Subaccount | undefined {
  const res = devnet.app.query(
    "/perpx.subaccounts.v1.Query/Subaccount",
    toBinary(
      subaccounts.QueryGetSubaccountRequestSchema,
      create(subaccounts.QueryGetSubaccountRequestSchema, { owner, number: 0 }),
    ),
  );
  if (res.code !== 0) return undefined;
  return fromBinary(subaccounts.QuerySubaccountResponseSchema, res.value).subaccount;
}

function position(owner: string): bigint {
  const p = subaccount(owner)?.perpetualPositions.find((x) => x.perpetualId === 0);
  return p === undefined ? 0n : decodeSerializableInt(p.quantums);
}

async function deposit(signer: TestSigner, quantums: bigint): Promise<void> {
  const result = await deliver(signer, [
    {
      schema: sending.MsgDepositToSubaccountSchema,
      value: create(sending.MsgDepositToSubaccountSchema, {
        sender: signer.address,
        recipient: { owner: signer.address, number: 0 },
        assetId: 0,
        quantums,
      }),
    } as { schema: DescMessage; value: MessageShape<DescMessage> },
  ]);
  expect(result.code, result.log).toBe(0);
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000 });
  signers = await Promise.all(devnet.accounts.map((a, i) => testSigner(a.mnemonic, i)));
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  for (const s of signers.slice(0, 3)) await deposit(s, 100_000_000_000n);
});

afterAll(async () => {
  await devnet?.stop();
});

describe("clob", () => {
  it("rests a limit order, then fills both sides at the maker's price with fees and positions", async () => {
    const [alice, bob] = signers as [TestSigner, TestSigner];
    const maker = await place(alice, { side: "sell", subticks: 6_600_000_000n, quantums: 2_000_000n });
    expect(maker.code, maker.log).toBe(0);
    expect(events(maker, "perpx.clob.order_place")).toHaveLength(1);
    expect(events(maker, "perpx.clob.order_fill")).toHaveLength(0);
    const taker = await place(bob, { side: "buy", subticks: 6_700_000_000n, quantums: 1_000_000n });
    expect(taker.code, taker.log).toBe(0);
    const [fill] = events(taker, "perpx.clob.order_fill");
    expect(fill).toMatchObject({
      subticks: "6600000000",
      quantums: "1000000",
      maker_owner: alice.address,
      taker_owner: bob.address,
    });
    expect(BigInt(fill?.taker_fee ?? "0")).toBeGreaterThan(0n);
    expect(position(bob.address)).toBe(1_000_000n);
    expect(position(alice.address)).toBe(-1_000_000n);
  });

  it("IOC never rests, post-only refuses to cross (2003), fill-or-kill is deprecated (48)", async () => {
    const [alice, bob] = signers as [TestSigner, TestSigner];
    const ioc = await place(bob, {
      side: "buy",
      subticks: 6_000_000_000n,
      timeInForce: clob.Order_TimeInForce.IOC,
    });
    expect(ioc.code).toBe(0);
    expect(events(ioc, "perpx.clob.order_cancel")[0]?.reason).toBe("immediate_or_cancel");
    await place(alice, { side: "sell", subticks: 6_800_000_000n });
    const post = await place(bob, {
      side: "buy",
      subticks: 6_900_000_000n,
      timeInForce: clob.Order_TimeInForce.POST_ONLY,
    });
    expect([post.codespace, post.code]).toEqual(["clob", 2003]);
    const fok = await place(bob, { side: "buy", timeInForce: clob.Order_TimeInForce.FILL_OR_KILL });
    expect([fok.codespace, fok.code]).toEqual(["clob", 48]);
  });

  it("reduce-only needs IOC (9003) and must reduce (2001)", async () => {
    const [, , carl] = signers as [TestSigner, TestSigner, TestSigner];
    const notIoc = await place(carl, { side: "sell", reduceOnly: true });
    expect(notIoc.code).toBe(9003);
    const increase = await place(carl, {
      side: "sell",
      reduceOnly: true,
      timeInForce: clob.Order_TimeInForce.IOC,
    });
    expect(increase.code).toBe(2001);
  });

  it("cancels and batch-cancels short-term orders; a missing order is clob 2, none cancelled is 46", async () => {
    const [, bob] = signers as [TestSigner, TestSigner];
    const a = order(bob, { side: "buy", subticks: 5_000_000_000n });
    expect((await deliver(bob, [placeMsg(a)], true)).code).toBe(0);
    const cancel = {
      schema: clob.MsgCancelOrderSchema,
      value: create(clob.MsgCancelOrderSchema, {
        orderId: {
          subaccountId: { owner: bob.address, number: 0 },
          clientId: a.clientId,
          orderFlags: 0,
          clobPairId: 0,
        },
        goodTilOneof: { case: "goodTilBlock", value: height() + 5 },
      }),
    } as { schema: DescMessage; value: MessageShape<DescMessage> };
    const cancelled = await deliver(bob, [cancel], true);
    expect(cancelled.code, cancelled.log).toBe(0);
    expect(events(cancelled, "perpx.clob.order_cancel")[0]?.reason).toBe("user_canceled");
    expect((await deliver(bob, [cancel], true)).code).toBe(2);
    const b = order(bob, { side: "buy", subticks: 5_000_000_000n });
    const c = order(bob, { side: "buy", subticks: 5_100_000_000n });
    await deliver(bob, [placeMsg(b)], true);
    await deliver(bob, [placeMsg(c)], true);
    const batch = (ids: number[]) =>
      ({
        schema: clob.MsgBatchCancelSchema,
        value: create(clob.MsgBatchCancelSchema, {
          subaccountId: { owner: bob.address, number: 0 },
          shortTermCancels: [{ clobPairId: 0, clientIds: ids }],
          goodTilBlock: height() + 5,
        }),
      }) as { schema: DescMessage; value: MessageShape<DescMessage> };
    const ok = await deliver(bob, [batch([b.clientId, c.clientId, 999_999])], true);
    expect(ok.code, ok.log).toBe(0);
    const response = fromBinary(
      clob.MsgBatchCancelResponseSchema,
      fromBinary((await import("@perpx/proto")).cosmosAbci.TxMsgDataSchema, ok.data).msgResponses[0]?.value ??
        new Uint8Array(),
    );
    expect(response.shortTermSucceeded[0]?.clientIds).toEqual([b.clientId, c.clientId]);
    expect(response.shortTermFailed[0]?.clientIds).toEqual([999_999]);
    expect((await deliver(bob, [batch([b.clientId])], true)).code).toBe(46);
  });

  it("expires a short-term order after its good-til-block", async () => {
    const [, bob] = signers as [TestSigner, TestSigner];
    const o = order(bob, { side: "buy", subticks: 4_000_000_000n, goodTilBlock: height() + 2 });
    expect((await deliver(bob, [placeMsg(o)], true)).code).toBe(0);
    const blocks = devnet.mine(2);
    const expired = blocks
      .flatMap((b) => b.finalizeBlockEvents)
      .filter((e) => e.type === "perpx.clob.order_expire");
    expect(
      expired.some((e) => e.attributes.some((a) => a.key === "client_id" && a.value === String(o.clientId))),
    ).toBe(true);
  });

  it("refuses an order the subaccount cannot margin (3007) and short-term windows (10/11)", async () => {
    const [, , , dave] = signers as TestSigner[] as [TestSigner, TestSigner, TestSigner, TestSigner];
    const broke = await place(dave, { side: "buy", quantums: 1_000_000_000n });
    expect([broke.codespace, broke.code]).toEqual(["clob", 3007]);
    expect((await place(dave, { goodTilBlock: height() })).code).toBe(10);
    expect((await place(dave, { goodTilBlock: height() + 42 })).code).toBe(11);
  });

  it("triggers a stop-loss conditional order when the oracle moves through its trigger", async () => {
    const [alice, bob] = signers as [TestSigner, TestSigner];
    // A resting bid for the triggered sell to hit.
    expect(
      (await place(alice, { side: "buy", subticks: 5_900_000_000n, goodTilBlock: height() + 15 })).code,
    ).toBe(0);
    const gtbt = Math.floor(devnet.app.latestBlock().time.getTime() / 1000) + 3_600;
    const stop = await place(bob, {
      flags: 32,
      goodTilBlockTime: gtbt,
      side: "sell",
      subticks: 5_800_000_000n,
      conditionType: clob.Order_ConditionType.STOP_LOSS,
      triggerSubticks: 6_000_000_000n,
    });
    expect(stop.code, stop.log).toBe(0);
    const quiet = devnet.mine(1)[0]?.finalizeBlockEvents ?? [];
    expect(quiet.some((e) => e.type === "perpx.clob.order_trigger")).toBe(false);
    devnet.app.control.setOraclePrice("BTC-USD", "59500");
    const block = devnet.mine(1)[0];
    const types = (block?.finalizeBlockEvents ?? []).map((e) => e.type);
    expect(types).toContain("perpx.clob.order_trigger");
    expect(types).toContain("perpx.clob.order_fill");
    devnet.app.control.setOraclePrice("BTC-USD", "65000");
  });

  it("a stateful order tx pays no fee and meters no gas but uses the sequence (chain-protocol 1.8)", async () => {
    const carl = signers[2] as TestSigner;
    const usdc = (): bigint => {
      const res = devnet.app.query(
        "/cosmos.bank.v1beta1.Query/Balance",
        toBinary(
          cosmosBank.QueryBalanceRequestSchema,
          create(cosmosBank.QueryBalanceRequestSchema, { address: carl.address, denom: "uusdc" }),
        ),
      );
      return BigInt(fromBinary(cosmosBank.QueryBalanceResponseSchema, res.value).balance?.amount ?? "0");
    };
    const gtbt = Math.floor(devnet.app.latestBlock().time.getTime() / 1000) + 3_600;
    const longTerm = () =>
      placeMsg(order(carl, { flags: 64, goodTilBlockTime: gtbt, subticks: 1_000_000_000n, side: "buy" }));
    const before = usdc();
    const seq = sequences.get(carl.address) ?? 0n;
    // No fee at all, and a gas limit (1,000,000) a metered tx could not be refused against.
    const check = devnet.app.checkTx(await signMsgs(carl, devnet.chainId, seq, [longTerm()], 0n));
    expect(check.code, check.log).toBe(0);
    sequences.set(carl.address, seq + 1n);
    const delivered = devnet.mine(1)[0]?.txResults.at(-1);
    expect(delivered?.code, delivered?.log).toBe(0);
    expect(usdc()).toBe(before);
    // The sequence moved: the same sequence again is a mismatch.
    const replay = devnet.app.checkTx(await signMsgs(carl, devnet.chainId, seq, [longTerm()], 0n));
    expect([replay.codespace, replay.code]).toEqual(["sdk", 32]);
  });

  it("local profile: generous stateful rate limits (10 long-term orders from one wallet in a block)", async () => {
    const [alice] = signers as [TestSigner];
    const gtbt = Math.floor(devnet.app.latestBlock().time.getTime() / 1000) + 3_600;
    for (let i = 0; i < 10; i++) {
      const placed = await send(alice, [
        placeMsg(order(alice, { flags: 64, goodTilBlockTime: gtbt, subticks: 1_000_000_000n, side: "buy" })),
      ]);
      expect(placed.code, placed.log).toBe(0);
    }
    devnet.mine(1);
  });
});

describe("clob rate limits (testnet profile: the reference limits)", () => {
  it("rate-limits stateful orders (2 per block: clob 5001 in CheckTx)", async () => {
    const net = await startDevnet({ ports: "free", blockTimeMs: 3_600_000, profile: "testnet" });
    try {
      const alice = await testSigner(net.accounts[0]!.mnemonic, 0);
      const fund = create(sending.MsgDepositToSubaccountSchema, {
        sender: alice.address,
        recipient: { owner: alice.address, number: 0 },
        assetId: 0,
        quantums: 100_000_000_000n,
      });
      let seq = 0n;
      const check = async (msgs: Parameters<typeof signMsgs>[3]) => {
        const result = net.app.checkTx(await signMsgs(alice, net.chainId, seq, msgs));
        if (result.code === 0) seq++;
        return result;
      };
      const funded = await check([
        { schema: sending.MsgDepositToSubaccountSchema, value: fund } as Parameters<
          typeof signMsgs
        >[3][number],
      ]);
      expect(funded.code, funded.log).toBe(0);
      net.mine(1);
      const gtbt = Math.floor(net.app.latestBlock().time.getTime() / 1000) + 3_600;
      const spec = () =>
        placeMsg({
          owner: alice.address,
          clientId: clientId++,
          flags: 64,
          goodTilBlockTime: gtbt,
          quantums: 1_000_000n,
          subticks: 1_000_000_000n,
          side: "buy",
        });
      expect((await check([spec()])).code).toBe(0);
      expect((await check([spec()])).code).toBe(0);
      const third = await check([spec()]);
      expect([third.codespace, third.code]).toEqual(["clob", 5001]);
      // The next block takes two more.
      net.mine(1);
      expect((await check([spec()])).code).toBe(0);
    } finally {
      await net.stop();
    }
  });
});

describe("clob state across a restart", () => {
  it("keeps a long-term order through stop and start with a state dir", async () => {
    const dir = mkdtempSync(join(tmpdir(), "perpx-clob-"));
    try {
      let net = await startDevnet({ ports: "free", blockTimeMs: 3_600_000, stateDir: dir });
      const alice = await testSigner(net.accounts[0]!.mnemonic, 0);
      const bytes = (seq: bigint, msgs: Parameters<typeof signMsgs>[3]) =>
        signMsgs(alice, net.chainId, seq, msgs);
      const dep = create(sending.MsgDepositToSubaccountSchema, {
        sender: alice.address,
        recipient: { owner: alice.address, number: 0 },
        assetId: 0,
        quantums: 10_000_000_000n,
      });
      expect(
        net.app.checkTx(
          await bytes(0n, [{ schema: sending.MsgDepositToSubaccountSchema, value: dep } as never]),
        ).code,
      ).toBe(0);
      net.mine(1);
      const gtbt = Math.floor(net.app.latestBlock().time.getTime() / 1000) + 3_600;
      const o = placeMsg({
        owner: alice.address,
        clientId: 7,
        side: "buy",
        quantums: 1_000_000n,
        subticks: 1_000_000_000n,
        flags: 64,
        goodTilBlockTime: gtbt,
      });
      expect(net.app.checkTx(await bytes(1n, [o])).code).toBe(0);
      expect(net.mine(1)[0]?.txResults[0]?.code).toBe(0);
      await net.stop();
      net = await startDevnet({ ports: "free", blockTimeMs: 3_600_000, stateDir: dir });
      const req = create(clob.QueryStatefulOrderRequestSchema, {
        orderId: {
          subaccountId: { owner: alice.address, number: 0 },
          clientId: 7,
          orderFlags: 64,
          clobPairId: 0,
        },
      });
      const res = net.app.query(
        "/perpx.clob.v1.Query/StatefulOrder",
        toBinary(clob.QueryStatefulOrderRequestSchema, req),
      );
      expect(res.code, res.log).toBe(0);
      const found = fromBinary(clob.QueryStatefulOrderResponseSchema, res.value);
      expect(found.orderPlacement?.order?.subticks).toBe(1_000_000_000n);
      await net.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
