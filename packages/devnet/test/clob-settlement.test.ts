/**
 * Settlement, fees, the clob tx message rules, the short-term window and the clob codes, over the
 * real wire: txs signed with cosmjs and broadcast with RPC `broadcast_tx_sync`, subaccounts read
 * over RPC `abci_query`, REST and gRPC, blocks produced on demand (chain-protocol.md 1.6, 1.8,
 * 1.10, 1.11 "where a fill is booked").
 */
import { create } from "@bufbuild/protobuf";
import { clob, cosmosBank, sending } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import { msg, type TestMsg } from "./support/sign-tx.js";
import {
  accountOf,
  bankUusdc,
  broadcastSync,
  rpcCall,
  type SignOptions,
  type SyncAnswer,
  signWire,
  subaccountOverAbci,
  subaccountOverGrpc,
  subaccountOverRest,
  type WireSubaccount,
} from "./support/wire.js";

const USDC = 1_000_000n;
/** $65,000 in BTC-USD subticks (1 tick = $1 = 100,000 subticks). */
const PRICE = 6_500_000_000n;
/** Genesis fee tier 1 (every test account's 30-day volume is below tier 2's). */
const TAKER_PPM = 500n;
const MAKER_PPM = -110n;

let devnet: Devnet;
let clientId = 1;

const who = (i: number) => devnet.accounts[i] as { address: string; mnemonic: string };

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000 });
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  devnet.mine(1);
  for (const i of [0, 1, 2, 3]) {
    const deposit = msg(
      sending.MsgDepositToSubaccountSchema,
      create(sending.MsgDepositToSubaccountSchema, {
        sender: who(i).address,
        recipient: { owner: who(i).address, number: 0 },
        assetId: 0,
        quantums: 10_000n * USDC,
      }),
    );
    expect(await deliver(i, [deposit], { feeUusdc: 25_000n })).toMatchObject({ code: 0 });
  }
});

afterAll(async () => {
  await devnet?.stop();
});

function height(): bigint {
  return devnet.app.latestBlock().height;
}

/** Signs `msgs` as account `i` (its current account number and sequence) and broadcasts them. */
async function broadcast(
  i: number,
  msgs: TestMsg[],
  options: Partial<SignOptions> = {},
): Promise<SyncAnswer> {
  const account = await accountOf(devnet.endpoints.nodeRest, who(i).address);
  const tx = await signWire(who(i).mnemonic, msgs, {
    chainId: devnet.chainId,
    ...account,
    ...options,
  });
  return broadcastSync(devnet.endpoints.nodeRpc, tx);
}

/** Broadcasts, mines one block, and answers the tx's delivery result (found with RPC `tx`). */
async function deliver(
  i: number,
  msgs: TestMsg[],
  options: Partial<SignOptions> = {},
): Promise<{ code: number; codespace: string; log: string }> {
  const sync = await broadcast(i, msgs, options);
  if (sync.code !== 0) return sync;
  devnet.mine(1);
  const found = await rpcCall(devnet.endpoints.nodeRpc, "tx", {
    hash: Buffer.from(sync.hash, "hex").toString("base64"),
  });
  return { code: found.tx_result.code, codespace: found.tx_result.codespace, log: found.tx_result.log };
}

interface Order {
  owner: string;
  side: "buy" | "sell";
  quantums: bigint;
  subticks?: bigint;
  flags?: 0 | 64;
  goodTilBlock?: bigint;
  timeInForce?: clob.Order_TimeInForce;
}

function place(order: Order): TestMsg {
  const flags = order.flags ?? 0;
  return msg(
    clob.MsgPlaceOrderSchema,
    create(clob.MsgPlaceOrderSchema, {
      order: {
        orderId: {
          subaccountId: { owner: order.owner, number: 0 },
          clientId: clientId++,
          orderFlags: flags,
          clobPairId: 0,
        },
        side: order.side === "buy" ? clob.Order_Side.BUY : clob.Order_Side.SELL,
        quantums: order.quantums,
        subticks: order.subticks ?? PRICE,
        goodTilOneof:
          flags === 0
            ? { case: "goodTilBlock", value: Number(order.goodTilBlock ?? height() + 10n) }
            : {
                case: "goodTilBlockTime",
                value: Math.floor(devnet.app.latestBlock().time.getTime() / 1000) + 3_600,
              },
        timeInForce: order.timeInForce ?? clob.Order_TimeInForce.UNSPECIFIED,
      },
    }),
  );
}

function bankSend(from: string, to: string, amount: bigint): TestMsg {
  return msg(
    cosmosBank.MsgSendSchema,
    create(cosmosBank.MsgSendSchema, {
      fromAddress: from,
      toAddress: to,
      amount: [{ denom: "uusdc", amount: amount.toString() }],
    }),
  );
}

function transfer(from: string, toNumber: number, amount: bigint): TestMsg {
  return msg(
    sending.MsgCreateTransferSchema,
    create(sending.MsgCreateTransferSchema, {
      transfer: {
        sender: { owner: from, number: 0 },
        recipient: { owner: from, number: toNumber },
        assetId: 0,
        amount,
      },
    }),
  );
}

/** Every short-term tx is fee-free, skips the sequence, and must be accepted by CheckTx. */
async function placeShortTerm(i: number, order: Omit<Order, "owner">): Promise<void> {
  const answer = await broadcast(i, [place({ ...order, owner: who(i).address })]);
  expect(answer, answer.log).toMatchObject({ code: 0 });
}

/** Reads a subaccount over abci_query, and checks REST and gRPC answer the same. */
async function read(i: number, number = 0): Promise<WireSubaccount> {
  const { nodeRpc: rpc, nodeRest: rest, grpc } = devnet.endpoints;
  const overAbci = await subaccountOverAbci(rpc, who(i).address, number);
  expect(await subaccountOverRest(rest, who(i).address, number)).toEqual(overAbci);
  expect(await subaccountOverGrpc(grpc, who(i).address, number)).toEqual(overAbci);
  return overAbci;
}

/** Mines blocks (at most `max`) until `done` holds over the wire. */
async function mineUntil(done: () => Promise<boolean>, max = 3): Promise<void> {
  for (let n = 0; n < max && !(await done()); n++) devnet.mine(1);
  expect(await done()).toBe(true);
}

const quoteOf = (subticks: bigint, quantums: bigint) => (subticks * quantums) / 1_000_000_000n;
const ceilPpm = (quote: bigint, ppm: bigint) => {
  const n = quote * ppm;
  const q = n / 1_000_000n;
  return n % 1_000_000n !== 0n && n > 0n ? q + 1n : q;
};

describe("where a fill is booked (USDC, quote_balance 0, margin_enabled false)", () => {
  it("books a partial fill and a close in USDC with the fees, over abci_query, REST and gRPC", async () => {
    const [maker, taker] = [0, 1];
    const [makerStart, takerStart] = [(await read(maker)).usdc, (await read(taker)).usdc];
    // The maker rests 0.01 BTC; the taker buys 0.004 of it (a partial fill of the maker).
    await placeShortTerm(maker, { side: "sell", quantums: 100_000_000n });
    await placeShortTerm(taker, {
      side: "buy",
      quantums: 40_000_000n,
      timeInForce: clob.Order_TimeInForce.IOC,
    });
    await mineUntil(async () => (await read(taker)).positions.length === 1);
    const quote = quoteOf(PRICE, 40_000_000n); // $260
    expect(quote).toBe(260n * USDC);
    const [takerFee, makerFee] = [ceilPpm(quote, TAKER_PPM), ceilPpm(quote, MAKER_PPM)];
    expect([takerFee, makerFee]).toEqual([130_000n, -28_600n]);
    const buyer = await read(taker);
    expect(buyer).toEqual({
      usdc: takerStart - quote - takerFee,
      positions: [
        { perpetualId: 0, quantums: 40_000_000n, fundingIndex: expect.any(BigInt), quoteBalance: 0n },
      ],
      marginEnabled: false,
    });
    expect(await read(maker)).toMatchObject({
      usdc: makerStart + quote - makerFee,
      positions: [{ perpetualId: 0, quantums: -40_000_000n, quoteBalance: 0n }],
      marginEnabled: false,
    });
    // The maker bids $64,000 for 0.004 (below its own resting offer); the taker closes into it.
    await placeShortTerm(maker, { side: "buy", quantums: 40_000_000n, subticks: PRICE - 100_000_000n });
    await placeShortTerm(taker, {
      side: "sell",
      quantums: 40_000_000n,
      subticks: PRICE - 100_000_000n,
      timeInForce: clob.Order_TimeInForce.IOC,
    });
    await mineUntil(async () => (await read(taker)).positions.length === 0);
    const back = quoteOf(PRICE - 100_000_000n, 40_000_000n); // $256
    const [takerFee2, makerFee2] = [ceilPpm(back, TAKER_PPM), ceilPpm(back, MAKER_PPM)];
    expect(await read(taker)).toEqual({
      usdc: takerStart - quote - takerFee + back - takerFee2,
      positions: [],
      marginEnabled: false,
    });
    expect(await read(maker)).toEqual({
      usdc: makerStart + quote - makerFee - back - makerFee2,
      positions: [],
      marginEnabled: false,
    });
  });
});

describe("fees rounded as the chain rounds them", () => {
  it("charges exact fees exactly, and rounds an inexact taker fee up and a maker rebate toward zero", async () => {
    const [maker, taker] = [2, 3];
    // $64,000 and $64,001: below every offer the other tests leave resting.
    const exact = 6_400_000_000n;
    for (const subticks of [exact, exact + 100_000n]) {
      const [makerStart, takerStart] = [(await read(maker)).usdc, (await read(taker)).usdc];
      await placeShortTerm(maker, { side: "sell", quantums: 1_000_000n, subticks });
      await placeShortTerm(taker, {
        side: "buy",
        quantums: 1_000_000n,
        subticks,
        timeInForce: clob.Order_TimeInForce.IOC,
      });
      await mineUntil(async () => (await read(taker)).usdc !== takerStart);
      const quote = quoteOf(subticks, 1_000_000n);
      const takerPaid = takerStart - (await read(taker)).usdc - quote;
      const makerPaid = makerStart + quote - (await read(maker)).usdc;
      if (subticks === exact) {
        // $6.40: 3,200 and -704 quote quantums, exactly.
        expect([quote, takerPaid, makerPaid]).toEqual([6_400_000n, 3_200n, -704n]);
      } else {
        // $6.4001: 3,200.05 rounds up to 3,201; the rebate of 704.011 rounds toward zero, to 704.
        expect([quote, takerPaid, makerPaid]).toEqual([6_400_100n, 3_201n, -704n]);
      }
    }
  });
});

describe("which messages a clob tx may hold, and its fees (chain-protocol.md 1.8)", () => {
  const texts = {
    shortTermAlone:
      "a transaction containing short term MsgCancelOrder or MsgPlaceOrder may not contain more than one message: invalid request",
    oneTransfer:
      "a transaction containing stateful orders can only be accompanied by 1 transfer msg: invalid request",
    noOther:
      "a transaction containing stateful orders cannot be accompanied by non transfer msgs: invalid request",
    timeout:
      "timeout height (if non-zero) may not be less than `goodTilBlock` for a short-term place order: invalid request",
  };
  const lowBid = (owner: string, flags: 0 | 64 = 64): TestMsg =>
    place({ owner, side: "buy", quantums: 1_000_000n, subticks: 5_000_000_000n, flags });

  it("refuses an order bundled with a bank send (sdk 18): nothing moves, with or without a fee", async () => {
    const [alice, bob] = [who(2).address, who(3).address];
    const [before, seq] = [
      await bankUusdc(devnet.endpoints.nodeRest, bob),
      await accountOf(devnet.endpoints.nodeRest, alice),
    ];
    for (const feeUusdc of [0n, 25_000n]) {
      const refused = await broadcast(2, [lowBid(alice), bankSend(alice, bob, USDC)], { feeUusdc });
      expect(refused).toMatchObject({ code: 18, codespace: "sdk", log: texts.noOther });
      const shortTerm = await broadcast(2, [lowBid(alice, 0), bankSend(alice, bob, USDC)], { feeUusdc });
      expect(shortTerm).toMatchObject({ code: 18, codespace: "sdk", log: texts.shortTermAlone });
    }
    const leverage = msg(
      clob.MsgUpdateLeverageSchema,
      create(clob.MsgUpdateLeverageSchema, {
        subaccountId: { owner: alice, number: 0 },
        clobPairLeverage: [{ clobPairId: 0, customImfPpm: 100_000 }],
      }),
    );
    expect(await broadcast(2, [leverage, bankSend(alice, bob, USDC)])).toMatchObject({
      code: 18,
      log: texts.noOther,
    });
    devnet.mine(1);
    expect(await bankUusdc(devnet.endpoints.nodeRest, bob)).toBe(before);
    expect(await accountOf(devnet.endpoints.nodeRest, alice)).toEqual(seq);
  });

  it("accepts a stateful order with one transfer, fee-free; refuses two transfers", async () => {
    const alice = who(2).address;
    const [bank, child, seq] = [
      await bankUusdc(devnet.endpoints.nodeRest, alice),
      (await read(2, 1)).usdc,
      await accountOf(devnet.endpoints.nodeRest, alice),
    ];
    const two = await broadcast(2, [lowBid(alice), transfer(alice, 1, USDC), transfer(alice, 1, USDC)]);
    expect(two).toMatchObject({ code: 18, codespace: "sdk", log: texts.oneTransfer });
    const one = await deliver(2, [lowBid(alice), transfer(alice, 1, 5n * USDC)]);
    expect(one).toMatchObject({ code: 0 });
    expect((await read(2, 1)).usdc).toBe(child + 5n * USDC);
    // Fee-free (no fee in the tx, none taken), and a stateful tx uses its sequence.
    expect(await bankUusdc(devnet.endpoints.nodeRest, alice)).toBe(bank);
    expect(await accountOf(devnet.endpoints.nodeRest, alice)).toEqual({
      ...seq,
      sequence: seq.sequence + 1n,
    });
  });

  it("keeps a short-term place, cancel or batch cancel alone in its tx", async () => {
    const alice = who(2).address;
    const cancel = msg(
      clob.MsgCancelOrderSchema,
      create(clob.MsgCancelOrderSchema, {
        orderId: { subaccountId: { owner: alice, number: 0 }, clientId: 1, orderFlags: 0, clobPairId: 0 },
        goodTilOneof: { case: "goodTilBlock", value: Number(height() + 5n) },
      }),
    );
    const batch = msg(
      clob.MsgBatchCancelSchema,
      create(clob.MsgBatchCancelSchema, {
        subaccountId: { owner: alice, number: 0 },
        shortTermCancels: [{ clobPairId: 0, clientIds: [1, 2] }],
        goodTilBlock: Number(height() + 5n),
      }),
    );
    for (const msgs of [
      [cancel, transfer(alice, 1, USDC)],
      [batch, lowBid(alice)],
      [lowBid(alice, 0), lowBid(alice, 0)],
      [transfer(alice, 1, USDC), cancel],
    ]) {
      expect(await broadcast(2, msgs)).toMatchObject({
        code: 18,
        codespace: "sdk",
        log: texts.shortTermAlone,
      });
    }
  });

  it("refuses a short-term place whose tx times out before its good-til-block", async () => {
    const alice = who(2).address;
    const gtb = height() + 10n;
    const early = await broadcast(
      2,
      [
        place({
          owner: alice,
          side: "buy",
          quantums: 1_000_000n,
          subticks: 5_000_000_000n,
          goodTilBlock: gtb,
        }),
      ],
      {
        timeoutHeight: gtb - 1n,
      },
    );
    expect(early).toMatchObject({ code: 18, codespace: "sdk", log: texts.timeout });
    const inTime = await broadcast(
      2,
      [
        place({
          owner: alice,
          side: "buy",
          quantums: 1_000_000n,
          subticks: 5_000_000_000n,
          goodTilBlock: gtb,
        }),
      ],
      {
        timeoutHeight: gtb,
      },
    );
    expect(inTime).toMatchObject({ code: 0 });
  });

  it("charges fees for every other tx: a bank send pays its fee, a lone transfer without one is refused", async () => {
    const [carol, dave] = [who(3).address, who(2).address];
    const [carolBank, daveBank] = [
      await bankUusdc(devnet.endpoints.nodeRest, carol),
      await bankUusdc(devnet.endpoints.nodeRest, dave),
    ];
    expect(await deliver(3, [bankSend(carol, dave, USDC)], { feeUusdc: 25_000n })).toMatchObject({ code: 0 });
    expect(await bankUusdc(devnet.endpoints.nodeRest, carol)).toBe(carolBank - USDC - 25_000n);
    expect(await bankUusdc(devnet.endpoints.nodeRest, dave)).toBe(daveBank + USDC);
    expect(await broadcast(3, [transfer(carol, 1, USDC)])).toMatchObject({ code: 13, codespace: "sdk" });
    expect(await broadcast(3, [bankSend(carol, dave, USDC)])).toMatchObject({ code: 13, codespace: "sdk" });
  });
});

describe("short-term window and clob codes over the wire", () => {
  const bid = (extra: Partial<Order> = {}): TestMsg =>
    place({ owner: who(2).address, side: "buy", quantums: 1_000_000n, subticks: 5_000_000_000n, ...extra });

  it("accepts a good-til-block up to 40 blocks past the next height (ShortBlockWindow 40), refuses 41 with clob 11", async () => {
    const next = height() + 1n;
    expect(await broadcast(2, [bid({ goodTilBlock: next + 40n })])).toMatchObject({ code: 0 });
    const beyond = await broadcast(2, [bid({ goodTilBlock: next + 41n })]);
    expect(beyond).toMatchObject({ code: 11, codespace: "clob" });
    expect(beyond.log).toMatch(
      /: The GoodTilBlock of the message is further than ShortBlockWindow blocks into the future$/,
    );
    expect(await broadcast(2, [bid({ goodTilBlock: next - 1n })])).toMatchObject({
      code: 10,
      codespace: "clob",
    });
  });

  it("answers the registered codes and texts of chain-protocol.md 1.10", async () => {
    const tif = (value: number) => bid({ timeInForce: value as clob.Order_TimeInForce });
    expect(await broadcast(2, [tif(7)])).toMatchObject({
      code: 44,
      codespace: "clob",
      log: "invalid time in force (7): invalid time in force",
    });
    expect(await broadcast(2, [tif(clob.Order_TimeInForce.FILL_OR_KILL)])).toMatchObject({
      code: 48,
      log: "Fill-or-kill has been deprecated: This field has been deprecated",
    });
    expect(await broadcast(2, [bid({ flags: 64, timeInForce: clob.Order_TimeInForce.IOC })])).toMatchObject({
      code: 3002,
      log: "Stateful orders cannot require immediate execution",
    });
    const reduceOnly = bid();
    (reduceOnly.value as clob.MsgPlaceOrder).order!.reduceOnly = true;
    expect(await broadcast(2, [reduceOnly])).toMatchObject({
      code: 9003,
      log: "reduce only orders must be short term IOC orders: Reduce-only is currently disabled for non-IOC orders",
    });
    const duplicate = msg(
      clob.MsgBatchCancelSchema,
      create(clob.MsgBatchCancelSchema, {
        subaccountId: { owner: who(2).address, number: 0 },
        shortTermCancels: [{ clobPairId: 0, clientIds: [4, 4] }],
        goodTilBlock: Number(height() + 5n),
      }),
    );
    expect(await broadcast(2, [duplicate])).toMatchObject({
      code: 45,
      codespace: "clob",
      log: "Batch Cancel Clob pair id 0 has duplicate client ids: 4: Invalid batch cancel message",
    });
  });
});
