/**
 * The life of an order over the real wire (chain-protocol.md 1.11), with signed txs: short-term
 * orders answered by CheckTx (`broadcast_tx_sync`) and never in a block (`tx`, `tx_search`, gRPC
 * `GetTx`, `broadcast_tx_commit`), their fills in the proposed-operations tx at the head of the
 * next block, tombstones and replacement rules, stateful orders checked at CheckTx (3005, 3007,
 * 10001), a crossing post-only long-term order removed in a following block, and the order stream.
 */
import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { clob, cosmosTx, decodeSerializableInt, subaccounts } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderStreamMessage } from "../src/app/contract.js";
import { type Devnet, startDevnet } from "../src/index.js";
import { type OrderSpec, placeMsg, signMsgs, type TestSigner, testSigner } from "./support/clob-tx.js";

type Msg = { schema: DescMessage; value: MessageShape<DescMessage> };

let devnet: Devnet;
let alice: TestSigner;
let bob: TestSigner;
let carl: TestSigner;
let broke: TestSigner;
const sequences = new Map<string, bigint>();
let nextClientId = 1_000;
const PRICE = 6_500_000_000n;

/** The parts of CometBFT's JSON-RPC answers these tests read. */
interface RpcAnswer {
  result?: {
    code: number;
    codespace: string;
    log: string;
    hash: string;
    total_count: string;
    txs: { tx_result: { events: { type: string }[] } }[];
  };
  error?: { data?: string };
}

async function rpc(method: string, params: Record<string, unknown>): Promise<RpcAnswer> {
  const response = await fetch(devnet.endpoints.nodeRpc, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as RpcAnswer;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const height = () => Number(devnet.app.latestBlock().height);

/** Signs `msgs` for `signer`: short-term txs with sequence 0 (unused), stateful ones with the next. */
async function sign(signer: TestSigner, msgs: Msg[], stateful = false): Promise<Uint8Array> {
  const sequence = stateful ? (sequences.get(signer.address) ?? 0n) : 0n;
  return signMsgs(signer, devnet.chainId, sequence, msgs, 0n);
}

/** `broadcast_tx_sync`: the CheckTx answer (code, codespace, log, hash). */
async function broadcast(
  bytes: Uint8Array,
): Promise<{ code: number; codespace: string; log: string; hash: string }> {
  const { result, error } = await rpc("broadcast_tx_sync", { tx: b64(bytes) });
  if (result === undefined) throw new Error(JSON.stringify(error));
  return result;
}

async function placeShort(signer: TestSigner, spec: Partial<OrderSpec>) {
  const order: OrderSpec = {
    owner: signer.address,
    clientId: nextClientId++,
    side: "buy",
    quantums: 1_000_000n,
    subticks: PRICE,
    goodTilBlock: height() + 10,
    ...spec,
  };
  return { order, answer: await broadcast(await sign(signer, [placeMsg(order)])) };
}

async function placeStateful(signer: TestSigner, spec: Partial<OrderSpec>) {
  const order: OrderSpec = {
    owner: signer.address,
    clientId: nextClientId++,
    side: "buy",
    quantums: 1_000_000n,
    subticks: PRICE,
    flags: 64,
    goodTilBlockTime: Math.floor(devnet.app.latestBlock().time.getTime() / 1000) + 3_600,
    ...spec,
  };
  const answer = await broadcast(await sign(signer, [placeMsg(order)], true));
  if (answer.code === 0) sequences.set(signer.address, (sequences.get(signer.address) ?? 0n) + 1n);
  return { order, answer };
}

function cancelMsg(signer: TestSigner, clientId: number, goodTilBlock: number, clobPairId = 0): Msg {
  return {
    schema: clob.MsgCancelOrderSchema,
    value: create(clob.MsgCancelOrderSchema, {
      orderId: { subaccountId: { owner: signer.address, number: 0 }, clientId, orderFlags: 0, clobPairId },
      goodTilOneof: { case: "goodTilBlock", value: goodTilBlock },
    }),
  } as Msg;
}

/** The operations of a block's first tx, which must be the proposer's `MsgProposedOperations`. */
function operationsOf(blockHeight: number): clob.MsgProposedOperations {
  const block = devnet.app.block(BigInt(blockHeight));
  const first = block?.txs[0];
  if (first === undefined) throw new Error(`block ${blockHeight} has no tx`);
  const body = fromBinary(cosmosTx.TxBodySchema, fromBinary(cosmosTx.TxRawSchema, first).bodyBytes);
  expect(body.messages.map((m) => m.typeUrl)).toEqual(["/perpx.clob.v1.MsgProposedOperations"]);
  return fromBinary(clob.MsgProposedOperationsSchema, body.messages[0]!.value);
}

function position(owner: string): bigint {
  const res = devnet.app.query(
    "/perpx.subaccounts.v1.Query/Subaccount",
    toBinary(
      subaccounts.QueryGetSubaccountRequestSchema,
      create(subaccounts.QueryGetSubaccountRequestSchema, { owner, number: 0 }),
    ),
  );
  const found = fromBinary(subaccounts.QuerySubaccountResponseSchema, res.value).subaccount;
  const p = found?.perpetualPositions.find((x) => x.perpetualId === 0);
  return p === undefined ? 0n : decodeSerializableInt(p.quantums);
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000, broadcastTxCommitTimeoutMs: 1_500 });
  [alice, bob, carl, broke] = (await Promise.all(
    devnet.accounts.slice(0, 4).map((a, i) => testSigner(a.mnemonic, i)),
  )) as [TestSigner, TestSigner, TestSigner, TestSigner];
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  for (const s of [alice, bob, carl]) devnet.app.control.fundSubaccount(s.address, 0, 100_000_000_000n);
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

describe("short-term orders: answered at CheckTx, never in a block", () => {
  it("a maker rests and a taker fills it at CheckTx; neither tx is ever found; the fill lands in the next block's operations", async () => {
    const maker = await placeShort(alice, { side: "sell", subticks: PRICE + 100_000_000n });
    expect(maker.answer.code, maker.answer.log).toBe(0);
    const taker = await placeShort(bob, {
      side: "buy",
      subticks: PRICE + 200_000_000n,
      timeInForce: clob.Order_TimeInForce.IOC,
    });
    expect(taker.answer.code, taker.answer.log).toBe(0);
    const [block] = devnet.mine(2);
    const at = Number(block!.height);
    // The proposer's tx heads the block: both placements (raw signed txs), then the match.
    const ops = operationsOf(at).operationsQueue.map((o) => o.operation);
    expect(ops.map((o) => o.case)).toEqual(["shortTermOrderPlacement", "shortTermOrderPlacement", "match"]);
    const match = ops[2]?.case === "match" ? ops[2].value.match : undefined;
    expect(match?.case).toBe("matchOrders");
    const orders = match?.case === "matchOrders" ? match.value : undefined;
    expect(orders?.takerOrderId?.clientId).toBe(taker.order.clientId);
    expect(orders?.fills.map((f) => [f.makerOrderId?.clientId, f.fillAmount])).toEqual([
      [maker.order.clientId, 1_000_000n],
    ]);
    expect(block!.txs).toHaveLength(1);
    // The fill is state: positions over abci_query; its event is on the operations tx (tx_search).
    expect([position(bob.address), position(alice.address)]).toEqual([1_000_000n, -1_000_000n]);
    const found = await rpc("tx_search", { query: `tx.height=${at}` });
    expect(found.result?.total_count).toBe("1");
    const events = found.result?.txs[0]?.tx_result.events ?? [];
    expect(events.map((e) => e.type)).toContain("perpx.clob.order_fill");
    // Neither short-term tx exists anywhere: RPC tx, tx_search by hash, gRPC GetTx.
    for (const hash of [maker.answer.hash, taker.answer.hash]) {
      const byHash = await rpc("tx", { hash: b64(Buffer.from(hash, "hex")) });
      expect(byHash.error?.data).toMatch(/not found/);
      expect((await rpc("tx_search", { query: `tx.hash='${hash}'` })).result?.total_count).toBe("0");
      const getTx = devnet.app.query(
        "/cosmos.tx.v1beta1.Service/GetTx",
        toBinary(cosmosTx.GetTxRequestSchema, create(cosmosTx.GetTxRequestSchema, { hash })),
      );
      expect(getTx.code).not.toBe(0);
    }
  });

  it("broadcast_tx_commit passes CheckTx but never sees the tx committed: it times out as CometBFT does", async () => {
    const bytes = await sign(carl, [
      placeMsg({
        owner: carl.address,
        clientId: nextClientId++,
        side: "buy",
        quantums: 1_000_000n,
        subticks: 1_000_000_000n,
        goodTilBlock: height() + 5,
      }),
    ]);
    const pending = rpc("broadcast_tx_commit", { tx: b64(bytes) });
    devnet.mine(1);
    const { error } = await pending;
    expect(error?.data).toMatch(/timed out waiting for tx to be included in a block/);
  });

  it("answers every placement error at CheckTx with the chain's code: 2003, 2001, 20, 7, 9, 46, 10, 11", async () => {
    const rest = await placeShort(alice, {
      side: "sell",
      subticks: PRICE + 500_000_000n,
      goodTilBlock: height() + 20,
    });
    expect(rest.answer.code).toBe(0);
    const postOnly = await placeShort(carl, {
      side: "buy",
      subticks: PRICE + 600_000_000n,
      timeInForce: clob.Order_TimeInForce.POST_ONLY,
    });
    expect([postOnly.answer.codespace, postOnly.answer.code]).toEqual(["clob", 2003]);
    const reduceOnly = await placeShort(carl, {
      side: "sell",
      reduceOnly: true,
      timeInForce: clob.Order_TimeInForce.IOC,
    });
    expect(reduceOnly.answer.code).toBe(2001);
    // Replacements: the same id needs a higher good-til-block and the same side, time in force, reduce-only.
    const same = { clientId: rest.order.clientId, side: "sell" as const, subticks: PRICE + 400_000_000n };
    expect((await placeShort(alice, { ...same, goodTilBlock: height() + 20 })).answer.code).toBe(20);
    expect(
      (
        await placeShort(alice, {
          ...same,
          side: "buy",
          subticks: 1_000_000_000n,
          goodTilBlock: height() + 21,
        })
      ).answer.code,
    ).toBe(20);
    expect(
      (
        await placeShort(alice, {
          ...same,
          timeInForce: clob.Order_TimeInForce.POST_ONLY,
          goodTilBlock: height() + 21,
        })
      ).answer.code,
    ).toBe(20);
    expect((await placeShort(alice, { ...same, goodTilBlock: height() + 21 })).answer.code).toBe(0);
    // A cancel of an unknown id succeeds and leaves a tombstone: that id is clob 7 until its GTB.
    const ghost = nextClientId++;
    const cancelled = await broadcast(await sign(carl, [cancelMsg(carl, ghost, height() + 8)]));
    expect(cancelled.code, cancelled.log).toBe(0);
    expect(
      (await placeShort(carl, { clientId: ghost, subticks: 1_000_000_000n, goodTilBlock: height() + 8 }))
        .answer.code,
    ).toBe(7);
    expect((await broadcast(await sign(carl, [cancelMsg(carl, ghost, height() + 6)]))).code).toBe(9);
    // A batch cancel counts unknown ids as cancelled; 46 only when none is.
    const batch = (ids: number[], gtb: number): Msg =>
      ({
        schema: clob.MsgBatchCancelSchema,
        value: create(clob.MsgBatchCancelSchema, {
          subaccountId: { owner: carl.address, number: 0 },
          shortTermCancels: [{ clobPairId: 0, clientIds: ids }],
          goodTilBlock: gtb,
        }),
      }) as Msg;
    expect((await broadcast(await sign(carl, [batch([ghost, 424_242], height() + 9)]))).code).toBe(0);
    expect((await broadcast(await sign(carl, [batch([ghost, 424_242], height() + 7)]))).code).toBe(46);
    // The window: below the next height 10, beyond ShortBlockWindow 40 11.
    expect((await placeShort(carl, { goodTilBlock: height() })).answer.code).toBe(10);
    expect((await placeShort(carl, { goodTilBlock: height() + 42 })).answer.code).toBe(11);
    // None of it reached a block: the next block holds the proposer's tx only.
    expect(devnet.mine(1)[0]?.txs).toHaveLength(1);
  });

  it("a replayed immediate-or-cancel order: 2004 after a partial fill, 24 after a full one, placed again when it filled nothing", async () => {
    const ask = await placeShort(alice, {
      side: "sell",
      subticks: PRICE + 300_000_000n,
      goodTilBlock: height() + 20,
    });
    expect(ask.answer.code).toBe(0);
    const ioc = {
      side: "buy" as const,
      subticks: PRICE + 300_000_000n,
      timeInForce: clob.Order_TimeInForce.IOC,
    };
    // Two lots against one: half filled, the rest cancelled; the same id again is 2004, even later.
    const partly = await placeShort(carl, { ...ioc, quantums: 2_000_000n, goodTilBlock: height() + 10 });
    expect(partly.answer.code, partly.answer.log).toBe(0);
    const replay = await placeShort(carl, {
      ...ioc,
      clientId: partly.order.clientId,
      quantums: 2_000_000n,
      goodTilBlock: height() + 12,
    });
    expect([replay.answer.codespace, replay.answer.code]).toEqual(["clob", 2004]);
    expect(replay.answer.log).toContain("IOC order is already filled, remaining size is cancelled.");
    // A fully filled one is 24.
    const maker = await placeShort(alice, {
      side: "sell",
      subticks: PRICE + 300_000_000n,
      goodTilBlock: height() + 20,
    });
    expect(maker.answer.code).toBe(0);
    const full = await placeShort(carl, { ...ioc, goodTilBlock: height() + 10 });
    expect(full.answer.code).toBe(0);
    const again = await placeShort(carl, {
      ...ioc,
      clientId: full.order.clientId,
      goodTilBlock: height() + 11,
    });
    expect([again.answer.codespace, again.answer.code]).toEqual(["clob", 24]);
    // One that found nothing to fill left nothing behind: the same id is placed again.
    const none = await placeShort(carl, { ...ioc, subticks: 1_000_000_000n, goodTilBlock: height() + 10 });
    expect(none.answer.code).toBe(0);
    const retry = await placeShort(carl, {
      ...ioc,
      clientId: none.order.clientId,
      subticks: 1_000_000_000n,
      goodTilBlock: height() + 11,
    });
    expect(retry.answer.code, retry.answer.log).toBe(0);
  });

  it("a taker that fails the collateral check at a fill is removed (CheckTx 0); a resting order is not checked", async () => {
    devnet.app.control.fundSubaccount(broke.address, 0, 1_000_000n);
    devnet.mine(1);
    // $1 of collateral: a resting bid for 1 BTC is not checked.
    const big = await placeShort(broke, { side: "buy", quantums: 10_000_000_000n, subticks: 1_000_000_000n });
    expect(big.answer.code, big.answer.log).toBe(0);
    // On ETH-USD (a book of its own here): 0.1 ETH at $3,200 needs far more than $1 of margin.
    const eth = { clobPairId: 1, subticks: 3_200_000_000n, quantums: 100_000_000n };
    expect((await placeShort(alice, { ...eth, side: "sell" })).answer.code).toBe(0);
    const stream: OrderStreamMessage[] = [];
    const stop = devnet.app.onOrderStream((m) => stream.push(...m));
    const taker = await placeShort(broke, { ...eth, side: "buy", timeInForce: clob.Order_TimeInForce.IOC });
    stop();
    expect(taker.answer.code, taker.answer.log).toBe(0);
    const removed = stream.find((m) => m.kind === "remove" && m.orderId.clientId === taker.order.clientId);
    expect(removed).toMatchObject({ reason: "undercollateralized" });
    devnet.mine(1);
    expect(position(broke.address)).toBe(0n);
  });
});

describe("stateful orders: checked at CheckTx, stored by DeliverTx, matched after commit", () => {
  it("3005 for an existing id, 3007 at full size, 10001 past the equity tier: all at CheckTx", async () => {
    const first = await placeStateful(carl, { subticks: 1_000_000_000n });
    expect(first.answer.code, first.answer.log).toBe(0);
    const again = await broadcast(
      await sign(carl, [placeMsg({ ...first.order, subticks: 1_100_000_000n })], true),
    );
    expect([again.codespace, again.code]).toEqual(["clob", 3005]);
    devnet.mine(1);
    const stillThere = await broadcast(
      await sign(carl, [placeMsg({ ...first.order, subticks: 1_100_000_000n })], true),
    );
    expect(stillThere.code).toBe(3005);
    const tooBig = await placeStateful(carl, { quantums: 1_000_000_000_000n });
    expect([tooBig.answer.codespace, tooBig.answer.code]).toEqual(["clob", 3007]);
    const tier = await placeStateful(broke, { subticks: 1_000_000_000n });
    expect([tier.answer.codespace, tier.answer.code]).toEqual(["clob", 10001]);
  });

  it("a crossing post-only long-term order is accepted, stored without fills, and removed in the next block with its reason", async () => {
    const rest = await placeShort(alice, {
      side: "sell",
      subticks: PRICE + 50_000_000n,
      goodTilBlock: height() + 20,
    });
    expect(rest.answer.code).toBe(0);
    const crossing = await placeStateful(bob, {
      side: "buy",
      subticks: PRICE + 60_000_000n,
      timeInForce: clob.Order_TimeInForce.POST_ONLY,
    });
    expect(crossing.answer.code, crossing.answer.log).toBe(0);
    const [stored] = devnet.mine(1);
    const result = stored!.txResults.at(-1)!;
    expect(result.code).toBe(0);
    expect(result.events.map((e) => e.type)).toContain("perpx.clob.order_place");
    expect(result.events.map((e) => e.type)).not.toContain("perpx.clob.order_fill");
    const [next] = devnet.mine(1);
    const removal = operationsOf(Number(next!.height)).operationsQueue.find(
      (o) => o.operation.case === "orderRemoval",
    );
    expect(removal?.operation.value).toMatchObject({
      orderId: { clientId: crossing.order.clientId, orderFlags: 64 },
      removalReason: clob.OrderRemoval_RemovalReason.POST_ONLY_WOULD_CROSS_MAKER_ORDER,
    });
    const query = devnet.app.query(
      "/perpx.clob.v1.Query/StatefulOrder",
      toBinary(
        clob.QueryStatefulOrderRequestSchema,
        create(clob.QueryStatefulOrderRequestSchema, {
          orderId: {
            subaccountId: { owner: bob.address, number: 0 },
            clientId: crossing.order.clientId,
            orderFlags: 64,
          },
        }),
      ),
    );
    expect(query.code).not.toBe(0);
  });

  it("a long-term order matches after its block commits; its fill travels in the next block's operations", async () => {
    const maker = await placeShort(alice, {
      side: "sell",
      subticks: PRICE - 300_000_000n,
      goodTilBlock: height() + 20,
    });
    expect(maker.answer.code).toBe(0);
    const before = position(carl.address);
    const taker = await placeStateful(carl, { side: "buy", subticks: PRICE - 300_000_000n });
    expect(taker.answer.code).toBe(0);
    const [stored] = devnet.mine(1);
    expect(position(carl.address)).toBe(before);
    expect(stored!.txResults.at(-1)!.events.map((e) => e.type)).not.toContain("perpx.clob.order_fill");
    const [next] = devnet.mine(1);
    const ops = operationsOf(Number(next!.height)).operationsQueue.map((o) => o.operation.case);
    expect(ops).toEqual(["shortTermOrderPlacement", "match"]);
    expect(position(carl.address)).toBe(before + 1_000_000n);
  });
});

describe("fill amounts", () => {
  it("a short-term maker filled in two blocks: the second fill event carries its total, recorded in state", async () => {
    // On SOL-USD, where nothing else rests.
    const sol = { clobPairId: 2, subticks: 15_000_000_000n };
    const maker = await placeShort(alice, {
      ...sol,
      side: "sell",
      quantums: 3_000_000n,
      goodTilBlock: height() + 10,
    });
    expect(maker.answer.code).toBe(0);
    const totals: string[] = [];
    for (let i = 0; i < 2; i++) {
      const taker = await placeShort(bob, { ...sol, side: "buy", timeInForce: clob.Order_TimeInForce.IOC });
      expect(taker.answer.code).toBe(0);
      const [block] = devnet.mine(1);
      const fill = block?.txResults[0]?.events.find((e) => e.type === "perpx.clob.order_fill");
      const attribute = (key: string) => fill?.attributes.find((a) => a.key === key)?.value;
      expect(attribute("maker_client_id")).toBe(String(maker.order.clientId));
      totals.push(attribute("maker_total_filled") ?? "");
    }
    expect(totals).toEqual(["1000000", "2000000"]);
  });
});

describe("conditional orders", () => {
  it("trigger on the block's traded prices clamped to the oracle ± 5 × the min price change, and enter the book after", async () => {
    // BTC-USD: min price change 1,000 ppm, so traded prices count within ±0.5% of the oracle ($325).
    const stop = await placeStateful(carl, {
      flags: 32,
      side: "sell",
      subticks: PRICE - 1_000_000_000n,
      conditionType: clob.Order_ConditionType.STOP_LOSS,
      triggerSubticks: PRICE - 20_000_000n,
    });
    expect(stop.answer.code, stop.answer.log).toBe(0);
    const quiet = devnet.mine(1)[0]?.finalizeBlockEvents ?? [];
    expect(quiet.some((e) => e.type === "perpx.clob.order_trigger")).toBe(false);
    // A trade far below the oracle (which does not move): clamped to $64,675, under the $64,800 trigger.
    const low = { subticks: PRICE - 1_000_000_000n, quantums: 1_000_000n };
    expect((await placeShort(alice, { ...low, side: "sell" })).answer.code).toBe(0);
    expect(
      (await placeShort(bob, { ...low, side: "buy", timeInForce: clob.Order_TimeInForce.IOC })).answer.code,
    ).toBe(0);
    const [traded] = devnet.mine(1);
    const trigger = traded?.finalizeBlockEvents.find((e) => e.type === "perpx.clob.order_trigger");
    expect(trigger?.attributes.find((a) => a.key === "client_id")?.value).toBe(String(stop.order.clientId));
  });
});

describe("the off-chain order stream", () => {
  it("streams place, update (total filled), replace and remove (with reason) as the memclob changes", async () => {
    const stream: OrderStreamMessage[] = [];
    const stop = devnet.app.onOrderStream((messages) => stream.push(...messages));
    try {
      // On ETH-USD, below alice's other ask there.
      const eth = { clobPairId: 1, subticks: 3_100_000_000n };
      const maker = await placeShort(alice, {
        ...eth,
        side: "sell",
        quantums: 2_000_000n,
        goodTilBlock: height() + 10,
      });
      const replaced = await placeShort(alice, {
        ...eth,
        clientId: maker.order.clientId,
        side: "sell",
        quantums: 2_000_000n,
        goodTilBlock: height() + 12,
      });
      expect(replaced.answer.code, replaced.answer.log).toBe(0);
      const taker = await placeShort(bob, { ...eth, side: "buy", timeInForce: clob.Order_TimeInForce.IOC });
      expect(taker.answer.code).toBe(0);
      const cancel = await broadcast(
        await sign(alice, [cancelMsg(alice, maker.order.clientId, height() + 12, 1)]),
      );
      expect(cancel.code, cancel.log).toBe(0);
      const mine = (m: OrderStreamMessage) =>
        m.kind === "place" || m.kind === "replace" ? m.order.orderId?.clientId : m.orderId.clientId;
      const ids = new Set([maker.order.clientId, taker.order.clientId]);
      const seen = stream
        .filter((m) => ids.has(mine(m) ?? -1))
        .map((m) =>
          m.kind === "update"
            ? `update ${mine(m)} ${m.totalFilled}`
            : m.kind === "remove"
              ? `remove ${mine(m)} ${m.reason}`
              : `${m.kind} ${mine(m)}`,
        );
      const [a, b] = [maker.order.clientId, taker.order.clientId];
      expect(seen).toEqual([
        `place ${a}`,
        `replace ${a}`,
        `place ${b}`,
        `update ${a} 1000000`,
        `update ${b} 1000000`,
        `remove ${b} fully_filled`,
        `remove ${a} user_canceled`,
      ]);
    } finally {
      stop();
    }
  });
});
