/**
 * Short-term orders live in memory only, as on a real node: they are outside the app hash and the
 * exported state (a restart drops them), while a failed CheckTx still rolls their book changes back.
 * Runs the chain application directly, with fixed block times, so two chains can be compared.
 */
import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { clob, sending } from "@perpx/proto";
import { beforeAll, describe, expect, it } from "vitest";
import { createChainApp } from "../src/app/app.js";
import type { PersistentChainApp, TxResult } from "../src/app/contract.js";
import { GENESIS_ACCOUNTS } from "../src/app/genesis/genesis-accounts.js";
import { chainState } from "./support/chain-state.js";
import { type OrderSpec, placeMsg, signMsgs, type TestSigner, testSigner } from "./support/clob-tx.js";

type Msg = { schema: DescMessage; value: MessageShape<DescMessage> };

const GENESIS_TIME = new Date("2026-01-01T00:00:00Z");
const BLOCK_MS = 1_000;
const PRICE = 6_500_000_000n;

let alice: TestSigner;
let bob: TestSigner;

beforeAll(async () => {
  [alice, bob] = (await Promise.all(
    GENESIS_ACCOUNTS.slice(0, 2).map((a, i) => testSigner(a.mnemonic, i)),
  )) as [TestSigner, TestSigner];
});

/** Mines one block at a fixed time (one block interval after the latest). */
function mine(app: PersistentChainApp) {
  const latest = app.latestBlock();
  return app.produceBlock(new Date(latest.time.getTime() + BLOCK_MS));
}

async function tx(app: PersistentChainApp, signer: TestSigner, sequence: bigint, msgs: Msg[], free: boolean) {
  return signMsgs(signer, app.info.chainId, sequence, msgs, free ? 0n : 50_000n);
}

/**
 * CheckTx, then the next block: the tx's delivery result, or (a short-term tx never enters a block)
 * the block's proposed-operations tx, which carries its fills.
 */
async function deliver(
  app: PersistentChainApp,
  signer: TestSigner,
  sequence: bigint,
  msgs: Msg[],
  free = false,
): Promise<TxResult> {
  const check = app.checkTx(await tx(app, signer, sequence, msgs, free));
  expect(check.code, check.log).toBe(0);
  return mine(app).txResults.at(-1) as TxResult;
}

/** CheckTx of a short-term tx: the final answer (the tx never enters a block). */
async function checkShortTerm(app: PersistentChainApp, signer: TestSigner, msgs: Msg[]): Promise<TxResult> {
  return app.checkTx(await tx(app, signer, 0n, msgs, true));
}

function deposit(owner: string): Msg {
  return {
    schema: sending.MsgDepositToSubaccountSchema,
    value: create(sending.MsgDepositToSubaccountSchema, {
      sender: owner,
      recipient: { owner, number: 0 },
      assetId: 0,
      quantums: 10_000_000_000n,
    }),
  } as Msg;
}

/**
 * A chain whose alice and bob have each delivered one deposit tx (so their accounts carry their
 * public keys and their sequence is 1), with a fixed oracle price.
 */
async function funded(): Promise<PersistentChainApp> {
  const app = createChainApp({ profile: "local", genesisTime: GENESIS_TIME });
  app.control.setOracleWalk(false);
  app.control.setOraclePrice("BTC-USD", "65000");
  for (const [signer, number] of [
    [alice, 0n],
    [bob, 0n],
  ] as const) {
    const result = await deliver(app, signer, number, [deposit(signer.address)]);
    expect(result.code, result.log).toBe(0);
  }
  return app;
}

function height(app: PersistentChainApp): number {
  return Number(app.latestBlock().height);
}

function shortTerm(app: PersistentChainApp, signer: TestSigner, spec: Partial<OrderSpec>): Msg {
  return placeMsg({
    owner: signer.address,
    clientId: 1,
    side: "buy",
    quantums: 1_000_000n,
    subticks: PRICE,
    goodTilBlock: height(app) + 10,
    ...spec,
  });
}

/**
 * Whether the short-term order `clientId` of `signer` rests: a simulated placement of that id good
 * til the next block is an invalid replacement (clob 20) only then.
 */
async function rests(app: PersistentChainApp, signer: TestSigner, clientId: number): Promise<boolean> {
  const probe = shortTerm(app, signer, { clientId, subticks: 1_000_000n, goodTilBlock: height(app) + 1 });
  const sim = app.simulate(await tx(app, signer, 0n, [probe], true));
  return !sim.ok && sim.result.code === 20;
}

function attributes(result: TxResult, type: string): Record<string, string>[] {
  return result.events
    .filter((e) => e.type === type)
    .map((e) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value])));
}

describe("short-term orders are kept in memory", () => {
  it("a resting short-term order leaves the app hash as if its tx had not been included", async () => {
    const [withOrder, without] = await Promise.all([funded(), funded()]);
    expect(withOrder.latestBlock().resultAppHash).toEqual(without.latestBlock().resultAppHash);
    const result = await checkShortTerm(withOrder, alice, [shortTerm(withOrder, alice, {})]);
    expect(result.code, result.log).toBe(0);
    expect(mine(withOrder).txs).toHaveLength(1); // the proposer's operations only
    mine(without);
    expect(await rests(withOrder, alice, 1)).toBe(true);
    expect(await rests(without, alice, 1)).toBe(false);
    // The assumption: a short-term tx charges no fee and bumps no sequence, so the order alone differs.
    expect(withOrder.latestBlock().resultAppHash).toEqual(without.latestBlock().resultAppHash);
    // And it stays so while the order rests and when it expires.
    for (let i = 0; i < 12; i++) {
      mine(withOrder);
      mine(without);
      expect(withOrder.latestBlock().resultAppHash).toEqual(without.latestBlock().resultAppHash);
    }
    expect(await rests(withOrder, alice, 1)).toBe(false);
  });

  it("the fills a short-term order makes are committed state", async () => {
    const [filled, idle] = await Promise.all([funded(), funded()]);
    for (const app of [filled, idle]) {
      const rest = await deliver(app, alice, 1n, [shortTerm(app, alice, {})], true);
      expect(rest.code, rest.log).toBe(0);
    }
    const take = shortTerm(filled, bob, {
      side: "sell",
      timeInForce: clob.Order_TimeInForce.IOC,
    });
    const result = await deliver(filled, bob, 1n, [take], true);
    expect(result.code, result.log).toBe(0);
    expect(attributes(result, "perpx.clob.order_fill")).toHaveLength(1);
    mine(idle);
    expect(filled.latestBlock().resultAppHash).not.toEqual(idle.latestBlock().resultAppHash);
  });

  it("CheckTx of a matching order reports its ante step's events only; the block reports the fill", async () => {
    const app = await funded();
    const rest = await checkShortTerm(app, alice, [shortTerm(app, alice, {})]);
    expect(rest.code, rest.log).toBe(0);
    const take = await checkShortTerm(app, bob, [
      shortTerm(app, bob, { side: "sell", timeInForce: clob.Order_TimeInForce.IOC }),
    ]);
    expect(take.code, take.log).toBe(0);
    // The SDK's CheckTx answer: the ante step's `tx` events (sequence, signature), none of the match's.
    expect(new Set(take.events.map((e) => e.type))).toEqual(new Set(["tx"]));
    const operations = mine(app).txResults.at(-1) as TxResult;
    expect(attributes(operations, "perpx.clob.order_fill")).toHaveLength(1);
    expect(attributes(operations, "subaccount_update").length).toBeGreaterThan(0);
  });

  it("export/restore drops resting short-term orders and keeps long-term ones", async () => {
    const app = await funded();
    expect((await deliver(app, alice, 1n, [shortTerm(app, alice, { clientId: 1 })], true)).code).toBe(0);
    const gtbt = Math.floor(app.latestBlock().time.getTime() / 1000) + 3_600;
    const longTerm = placeMsg({
      owner: alice.address,
      clientId: 2,
      side: "buy",
      quantums: 1_000_000n,
      subticks: PRICE - 1_000_000n,
      flags: 64,
      goodTilBlockTime: gtbt,
    });
    const placed = await deliver(app, alice, 1n, [longTerm], true);
    expect(placed.code, placed.log).toBe(0);
    expect(await rests(app, alice, 1)).toBe(true);

    const state = chainState(app);
    const bytes = state.snapshot;
    const shortKey = `clob/order/${alice.address}/0000000000/0000000000/0000000000/0000000001`;
    const longKey = `clob/order/${alice.address}/0000000000/0000000064/0000000000/0000000002`;
    expect(Buffer.from(bytes).includes(shortKey)).toBe(false);
    expect(Buffer.from(bytes).includes(longKey)).toBe(true);

    const restored = createChainApp({ profile: "local", genesisTime: GENESIS_TIME, state });
    expect(restored.latestBlock().resultAppHash).toEqual(app.latestBlock().resultAppHash);
    expect(await rests(restored, alice, 1)).toBe(false);
    const query = restored.query(
      "/perpx.clob.v1.Query/StatefulOrder",
      toBinary(
        clob.QueryStatefulOrderRequestSchema,
        create(clob.QueryStatefulOrderRequestSchema, {
          orderId: { subaccountId: { owner: alice.address, number: 0 }, clientId: 2, orderFlags: 64 },
        }),
      ),
    );
    expect(query.code, query.log).toBe(0);
    expect(
      fromBinary(clob.QueryStatefulOrderResponseSchema, query.value).orderPlacement?.order?.subticks,
    ).toBe(PRICE - 1_000_000n);
    // A seller crossing both prices now meets the long-term order only.
    const sell = (target: PersistentChainApp) =>
      shortTerm(target, bob, {
        side: "sell",
        subticks: PRICE - 1_000_000n,
        timeInForce: clob.Order_TimeInForce.IOC,
      });
    const there = await deliver(app, bob, 1n, [sell(app)], true);
    expect(attributes(there, "perpx.clob.order_fill").map((f) => f.maker_order_flags)).toEqual(["0"]);
    const gone = await deliver(restored, bob, 1n, [sell(restored)], true);
    expect(attributes(gone, "perpx.clob.order_fill").map((f) => f.maker_order_flags)).toEqual(["64"]);
  });

  it("a failed CheckTx rolls back its short-term book changes", async () => {
    const app = await funded();
    const original = shortTerm(app, alice, {
      clientId: 5,
      subticks: PRICE - 2_000_000n,
      timeInForce: clob.Order_TimeInForce.POST_ONLY,
    });
    expect((await deliver(app, alice, 1n, [original], true)).code).toBe(0);
    const ask = shortTerm(app, bob, { clientId: 9, side: "sell", subticks: PRICE });
    expect((await deliver(app, bob, 1n, [ask], true)).code).toBe(0);
    // The replacement removes the original, then fails: post-only would cross bob's ask (2003).
    const replacement = shortTerm(app, alice, {
      clientId: 5,
      subticks: PRICE,
      goodTilBlock: height(app) + 15,
      timeInForce: clob.Order_TimeInForce.POST_ONLY,
    });
    const failed = await checkShortTerm(app, alice, [replacement]);
    expect([failed.codespace, failed.code]).toEqual(["clob", 2003]);
    // The original order rests again, at its price and with its priority.
    expect(await rests(app, alice, 5)).toBe(true);
    const take = shortTerm(app, bob, {
      clientId: 10,
      side: "sell",
      subticks: PRICE - 2_000_000n,
      timeInForce: clob.Order_TimeInForce.IOC,
    });
    const filled = await deliver(app, bob, 1n, [take], true);
    expect(filled.code, filled.log).toBe(0);
    const fills = attributes(filled, "perpx.clob.order_fill");
    expect(fills.map((f) => [f.maker_client_id, f.subticks])).toEqual([["5", String(PRICE - 2_000_000n)]]);
  });
});
