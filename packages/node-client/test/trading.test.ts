/**
 * Devnet part 2 against the real chain application: subaccounts and sending, orders of every kind
 * (clob), permissioned keys (accountplus, also approved by an EVM wallet's EIP-712 ApproveAgent),
 * wrap and ICS-20. Every outcome is the chain's: the devnet's control routes only stand in for the
 * outside world (an incoming IBC packet, the web app's approve-agent step, the faucet).
 */

import { approveAgentTypedData, encodeCredential } from "@perpx/core";
import { verifyApproveAgent } from "@perpx/core/evm-verify";
import { clob } from "@perpx/proto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  type BroadcastTxError,
  isBroadcastTxError,
  type PlaceOrderParams,
  type SendTxResult,
  subaccountBalances,
} from "../src/index.js";
import {
  bankSendMsg,
  batchCancelMsg,
  cancelOrderMsg,
  type OrderWireAmounts,
  placeOrderMsg,
  transferMsg,
  withdrawFromSubaccountMsg,
} from "../src/tx.js";
import {
  EvmWallet,
  type LocalWallet,
  type TradingKey,
  tradingKeyFromCredential,
  LocalWallet as Wallet,
} from "../src/wallets.js";
import { useDevnet } from "./support.js";

const net = useDevnet();

/** The USDC (quote quantums) of a subaccount; 0 when it does not exist. */
async function subaccountUsdc(owner: string, number = 0): Promise<bigint> {
  const sub = await net.client.getSubaccount({ owner, number });
  return subaccountBalances(sub).usdcQuantums;
}

async function bankUsdc(address: string, denom = "uusdc"): Promise<bigint> {
  return (await net.client.getBalance({ address, denom })).amount;
}

/** The uusdc fee a transaction paid. */
function feePaid(result: SendTxResult): bigint {
  const coin = result.fee.amount.find((c) => c.denom === "uusdc");
  return coin === undefined ? 0n : BigInt(coin.amount);
}

/** Runs a call that must fail, and returns its `BroadcastTxError`. */
async function refused(call: Promise<unknown>): Promise<BroadcastTxError> {
  const outcome = await call.then(
    (value) => value,
    (error: unknown) => error,
  );
  if (!isBroadcastTxError(outcome)) throw new Error(`expected a BroadcastTxError, got ${String(outcome)}`);
  return outcome;
}

/** A devnet control route (the outside world: IBC packets, approve-agent). */
async function control(
  path: string,
  body: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${net.devnet.endpoints.devnetControl}/devnet${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body, (_key, value: unknown) =>
      typeof value === "bigint" ? value.toString() : value,
    ),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** The first clob pair's grid: one step of size, and a buy price of 1,000 ticks (far below BTC). */
let grid: { clobPairId: number; quantums: bigint; tick: bigint };
beforeAll(async () => {
  const pair = (await net.client.getClobPairs())[0]!;
  grid = { clobPairId: pair.id, quantums: pair.stepBaseQuantums, tick: BigInt(pair.subticksPerTick) };
});

let nextClientId = 1;
/** An order in wire amounts (clob pair id, quantums, subticks). */
type WireOrder = PlaceOrderParams & OrderWireAmounts;

async function order(owner: string, patch: Partial<PlaceOrderParams> = {}): Promise<WireOrder> {
  const { height, time } = await net.client.getLatestBlock();
  return {
    subaccount: { owner, number: 0 },
    clientId: nextClientId++,
    side: "BUY",
    clobPairId: grid.clobPairId,
    quantums: grid.quantums,
    subticks: grid.tick * 1_000n,
    kind: "short-term",
    goodTilBlock: Number(height) + 10,
    ...(patch.kind && patch.kind !== "short-term"
      ? { goodTilBlockTime: Math.floor(time.getTime() / 1000) + 3_600 }
      : {}),
    ...patch,
  } as WireOrder;
}

/** The stateful order as the chain has it (undefined once it left the book). */
async function statefulOrder(o: WireOrder): Promise<clob.Order | undefined> {
  if (o.kind === "short-term" || o.kind === "twap") throw new Error("not a long-term placement");
  const found = await net.client.getStatefulOrder({
    order: {
      subaccount: o.subaccount,
      clientId: o.clientId,
      clobPairId: o.clobPairId,
      kind: o.kind,
    },
  });
  return found?.orderPlacement?.order;
}

const gtbtOf = (o: PlaceOrderParams) => (o as { goodTilBlockTime: number }).goodTilBlockTime;

async function fundSubaccount(wallet: LocalWallet, quantums: bigint, number = 0) {
  return net.client.depositToSubaccount({
    signer: wallet,
    sender: wallet.address,
    recipient: { owner: wallet.address, number },
    quantums,
  });
}

describe("subaccounts and sending", () => {
  it("deposits to, withdraws from and transfers between subaccounts, to the quantum", async () => {
    const alice = net.wallets[0]!;
    const [bank0, sub0, sub1] = [
      await bankUsdc(alice.address),
      await subaccountUsdc(alice.address, 0),
      await subaccountUsdc(alice.address, 1),
    ];
    const deposited = await fundSubaccount(alice, 5_000_000_000n);
    expect(deposited.tx?.code).toBe(0);
    expect(await subaccountUsdc(alice.address, 0)).toBe(sub0 + 5_000_000_000n);
    expect(await bankUsdc(alice.address)).toBe(bank0 - 5_000_000_000n - feePaid(deposited));

    const withdrawn = await net.client.withdrawFromSubaccount({
      signer: alice,
      sender: { owner: alice.address, number: 0 },
      recipient: alice.address,
      quantums: 1_000_000n,
    });
    expect(await subaccountUsdc(alice.address, 0)).toBe(sub0 + 4_999_000_000n);
    expect(await bankUsdc(alice.address)).toBe(
      bank0 - 4_999_000_000n - feePaid(deposited) - feePaid(withdrawn),
    );

    const transferred = await net.client.transfer({
      signer: alice,
      sender: { owner: alice.address, number: 0 },
      recipient: { owner: alice.address, number: 1 },
      quantums: 2_000_000n,
    });
    expect(await subaccountUsdc(alice.address, 0)).toBe(sub0 + 4_997_000_000n);
    expect(await subaccountUsdc(alice.address, 1)).toBe(sub1 + 2_000_000n);
    expect(await bankUsdc(alice.address)).toBe(
      bank0 - 4_999_000_000n - feePaid(deposited) - feePaid(withdrawn) - feePaid(transferred),
    );
    for (const result of [deposited, withdrawn, transferred]) expect(feePaid(result)).toBeGreaterThan(0n);
  });
});

describe("orders", () => {
  it("a short-term order is accepted at CheckTx and never enters a block, pays no fee and leaves the sequence alone", async () => {
    const bob = net.wallets[1]!;
    await fundSubaccount(bob, 10_000_000_000n);
    const before = await net.client.getAccountSequence({ address: bob.address });
    const usdcBefore = await bankUsdc(bob.address);
    const placed = await order(bob.address);
    // The client's default broadcast mode is commit: a short-term order still returns at CheckTx.
    const result = await net.client.placeOrder({ signer: bob, ...placed });
    expect([result.shortTerm, result.mode, result.height, result.tx]).toEqual([
      true,
      "sync",
      undefined,
      undefined,
    ]);
    expect(result.orderId?.clientId).toBe(placed.clientId);
    // Blocks pass; the tx is in none of them.
    const sentAt = (await net.client.getLatestBlock()).height;
    await vi.waitFor(
      async () => expect((await net.client.getLatestBlock()).height).toBeGreaterThan(sentAt + 1n),
      { timeout: 10_000, interval: 50 },
    );
    for (const transport of ["rpc", "grpc"] as const) {
      expect(await net.client.getTx({ hash: result.hash, transport }), transport).toBeUndefined();
    }
    expect(result.fee).toEqual({ amount: [], gasLimit: 1_000_000n });
    expect((await net.client.getAccountSequence({ address: bob.address })).sequence).toBe(before.sequence);
    expect(await bankUsdc(bob.address)).toBe(usdcBefore);
  });

  it("places every time in force and carries client metadata; FOK and reduce-only answer the chain's reasons", async () => {
    const bob = net.wallets[1]!;
    for (const [timeInForce, clientMetadata] of [
      ["GTC", 1],
      ["IOC", 2],
      ["POST_ONLY", 3],
    ] as const) {
      const params = await order(bob.address, { timeInForce, clientMetadata });
      const result = await net.client.placeOrder({ signer: bob, ...params });
      expect([result.shortTerm, result.orderId?.clientId], timeInForce).toEqual([true, params.clientId]);
    }
    const fok = await refused(
      net.client.placeOrder({ signer: bob, ...(await order(bob.address, { timeInForce: "FILL_OR_KILL" })) }),
    );
    expect(fok.clobError).toBe("deprecated-field");
    // Reduce-only: allowed on IOC only (9003); bob holds no position, so a reduce-only sell would open one (2001).
    const notIoc = await refused(
      net.client.placeOrder({ signer: bob, ...(await order(bob.address, { reduceOnly: true })) }),
    );
    expect(notIoc.clobError).toBe("reduce-only-requires-ioc");
    const increase = await refused(
      net.client.placeOrder({
        signer: bob,
        ...(await order(bob.address, { timeInForce: "IOC", reduceOnly: true, side: "SELL" })),
      }),
    );
    expect(increase.clobError).toBe("reduce-only-would-increase-position");
  });

  it("places and cancels long-term and conditional orders (the chain's book changes); cancels and batch-cancels short-term ones", async () => {
    const carl = net.wallets[2]!;
    await fundSubaccount(carl, 50_000_000_000n);
    const sequence = (await net.client.getAccountSequence({ address: carl.address })).sequence;

    const long = await order(carl.address, { kind: "long-term", clientMetadata: 7 });
    const placed = await net.client.placeOrder({ signer: carl, ...long });
    expect(placed.tx?.code).toBe(0);
    expect(placed.fee.amount).toEqual([]);
    const stored = await statefulOrder(long);
    expect(stored?.orderId?.clientId).toBe(long.clientId);
    expect(stored?.clientMetadata).toBe(7);
    expect(stored?.goodTilOneof).toEqual({ case: "goodTilBlockTime", value: gtbtOf(long) });
    const cancelled = await net.client.cancelOrder({
      signer: carl,
      subaccount: long.subaccount,
      clientId: long.clientId,
      clobPairId: long.clobPairId,
      kind: "long-term",
      goodTilBlockTime: gtbtOf(long),
    });
    expect(cancelled.tx?.code).toBe(0);
    expect(await statefulOrder(long)).toBeUndefined();

    const conditional = await order(carl.address, {
      kind: "conditional",
      conditionType: "STOP_LOSS",
      triggerSubticks: grid.tick * 1_000n,
      side: "SELL",
    } as Partial<PlaceOrderParams>);
    expect((await net.client.placeOrder({ signer: carl, ...conditional })).tx?.code).toBe(0);
    const untriggered = await net.client.getStatefulOrder({
      order: { ...conditional, kind: "conditional" },
    });
    expect(untriggered?.orderPlacement?.order?.conditionType).toBe(clob.Order_ConditionType.STOP_LOSS);
    expect(untriggered?.orderPlacement?.order?.conditionalOrderTriggerSubticks).toBe(grid.tick * 1_000n);
    expect(untriggered?.triggered).toBe(false);
    await net.client.cancelOrder({
      signer: carl,
      subaccount: conditional.subaccount,
      clientId: conditional.clientId,
      clobPairId: conditional.clobPairId,
      kind: "conditional",
      goodTilBlockTime: gtbtOf(conditional),
    });
    expect(await statefulOrder(conditional)).toBeUndefined();
    // Four stateful transactions, four sequences.
    expect((await net.client.getAccountSequence({ address: carl.address })).sequence).toBe(sequence + 4n);

    // Short-term: a cancel removes the order and leaves a tombstone until its good-til-block; a
    // second cancel with a lower good-til-block meets it (clob 9); the id cannot be placed again (7).
    const single = await order(carl.address, { timeInForce: "POST_ONLY" });
    await net.client.placeOrder({ signer: carl, ...single });
    const cancelShort = async (ahead: number) =>
      net.client.cancelOrder({
        signer: carl,
        subaccount: single.subaccount,
        clientId: single.clientId,
        clobPairId: single.clobPairId,
        kind: "short-term",
        goodTilBlock: Number((await net.client.getLatestBlock()).height) + ahead,
      });
    expect((await cancelShort(15)).shortTerm).toBe(true);
    expect((await refused(cancelShort(5))).clobError).toBe("cancel-already-exists");
    // (A good-til-block one higher: the same bytes again would be the mempool cache's refusal, not the memclob's.)
    const again = { ...single, goodTilBlock: (single as { goodTilBlock: number }).goodTilBlock + 1 };
    expect((await refused(net.client.placeOrder({ signer: carl, ...again }))).clobError).toBe(
      "order-is-canceled",
    );

    // Batch cancel: both resting orders go; cancelling them again below their tombstones cancels nothing (clob 46).
    const shorts = [
      await order(carl.address, { timeInForce: "POST_ONLY" }),
      await order(carl.address, { timeInForce: "POST_ONLY" }),
    ];
    for (const s of shorts)
      expect((await net.client.placeOrder({ signer: carl, ...s })).shortTerm).toBe(true);
    const batch = async (ahead: number) =>
      net.client.batchCancel({
        signer: carl,
        subaccount: shorts[0]!.subaccount,
        cancels: [{ clobPairId: shorts[0]!.clobPairId, clientIds: shorts.map((s) => s.clientId) }],
        goodTilBlock: Number((await net.client.getLatestBlock()).height) + ahead,
      });
    expect((await batch(15)).shortTerm).toBe(true);
    expect((await refused(batch(5))).clobError).toBe("batch-cancel-failed");
  });

  it("50 concurrent long-term orders from one wallet all land, exactly once", async (ctx) => {
    const dave = net.wallets[3]!;
    await fundSubaccount(dave, 500_000_000_000n);
    const client = net.makeClient();
    const before = await client.getAccountSequence({ address: dave.address });
    // Resting buys at the lowest price: nothing crosses.
    const orders = await Promise.all(
      Array.from({ length: 50 }, () =>
        order(dave.address, { kind: "long-term", timeInForce: "POST_ONLY", subticks: grid.tick }),
      ),
    );
    // A block rate limit refuses at CheckTx (the order is not placed, the sequence is not used):
    // sending the same order again after a block can never double it.
    let rateLimited = 0;
    const place = async (o: PlaceOrderParams): Promise<string> => {
      for (;;) {
        try {
          const result = await client.placeOrder({ signer: dave, ...o });
          expect(result.tx?.code).toBe(0);
          return result.hash;
        } catch (error) {
          if (!isBroadcastTxError(error) || error.clobError !== "block-rate-limit-exceeded") throw error;
          rateLimited++;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };
    const hashes = await Promise.all(orders.map(place));
    expect(new Set(hashes).size).toBe(50);
    expect((await client.getAccountSequence({ address: dave.address })).sequence).toBe(before.sequence + 50n);
    for (const o of orders) expect((await statefulOrder(o))?.orderId?.clientId).toBe(o.clientId);
    ctx.annotate(`rate-limited attempts resent: ${rateLimited}`);
  }, 120_000);

  it("reports clob errors from the chain as typed reasons (validation off)", async () => {
    const bob = net.wallets[1]!;
    const carl = net.wallets[2]!;
    const { height } = await net.client.getLatestBlock();
    const place = async (patch: Partial<PlaceOrderParams>, signer = bob) =>
      refused(
        net.client.placeOrder({ signer, ...(await order(signer.address, patch)), tx: { validate: false } }),
      );
    const cases: Array<[Partial<PlaceOrderParams>, string]> = [
      [{ goodTilBlock: Number(height) - 5 }, "good-til-block-too-low"],
      [{ goodTilBlock: Number(height) + 1_000 }, "good-til-block-beyond-window"],
      [{ subticks: grid.tick * 1_000n + 1n }, "invalid-place-order"],
      [{ kind: "long-term", timeInForce: "IOC" }, "stateful-order-cannot-be-ioc"],
      // Checked at full size for a stateful order (a short-term one rests unchecked; each fill is checked).
      [
        { kind: "long-term", quantums: grid.quantums * 100_000_000n, subticks: grid.tick * 100_000n },
        "collateralization-check-failed",
      ],
    ];
    for (const [patch, name] of cases) {
      const error = await place(patch);
      expect([error.reason, error.clobError], name).toEqual(["clob", name]);
    }
    // Post-only against a resting bid at the same price would cross.
    const bid = await order(carl.address, {
      kind: "long-term",
      timeInForce: "POST_ONLY",
      subticks: grid.tick * 2n,
    });
    await net.client.placeOrder({ signer: carl, ...bid });
    const crossing = await place({ side: "SELL", timeInForce: "POST_ONLY", subticks: grid.tick * 2n });
    expect(crossing.clobError).toBe("post-only-would-cross");
    const { subaccount, clientId, clobPairId } = bid; // a cancel takes the order's id, not the order
    await net.client.cancelOrder({
      signer: carl,
      subaccount,
      clientId,
      clobPairId,
      kind: "long-term",
      goodTilBlockTime: gtbtOf(bid),
    });

    const missing = await refused(
      net.client.cancelOrder({
        signer: bob,
        subaccount: { owner: bob.address, number: 0 },
        clientId: 999_999,
        clobPairId: 0,
        kind: "long-term",
        goodTilBlockTime: Math.floor(Date.now() / 1000) + 60,
      }),
    );
    expect([missing.codespace, missing.abciCode, missing.clobError]).toEqual([
      "clob",
      3006,
      "stateful-order-does-not-exist",
    ]);
  });
});

/** Trading-key actions on the owner's subaccount 0 that must land with code 0 and change the book. */
async function tradeWithKey(tradingKey: TradingKey, authenticatorId: bigint): Promise<void> {
  const owner = tradingKey.masterAddress;
  const send = (messages: Parameters<typeof placeOrderMsg>[0][]) =>
    net.client.sendWithTradingKey({ tradingKey, authenticatorId, messages: messages.map(placeOrderMsg) });
  const long = await order(owner, { kind: "long-term" });
  expect((await send([long])).tx?.code).toBe(0);
  expect((await statefulOrder(long))?.orderId?.clientId).toBe(long.clientId);
  const cancelled = await net.client.sendWithTradingKey({
    tradingKey,
    authenticatorId,
    messages: [cancelOrderMsg({ ...long, kind: "long-term", goodTilBlockTime: gtbtOf(long) })],
  });
  expect(cancelled.tx?.code).toBe(0);
  expect(await statefulOrder(long)).toBeUndefined();
  const shorts = [await order(owner), await order(owner)];
  for (const s of shorts) expect((await send([s])).shortTerm).toBe(true);
  const batch = async (ahead: number) =>
    net.client.sendWithTradingKey({
      tradingKey,
      authenticatorId,
      messages: [
        batchCancelMsg({
          subaccount: { owner, number: 0 },
          cancels: [{ clobPairId: grid.clobPairId, clientIds: shorts.map((s) => s.clientId) }],
          goodTilBlock: Number((await net.client.getLatestBlock()).height) + ahead,
        }),
      ],
    });
  expect((await batch(15)).shortTerm).toBe(true);
  expect((await refused(batch(5))).clobError).toBe("batch-cancel-failed");
}

/** The owner's messages a trading key may not send: refused by the authenticator at CheckTx, nothing changes. */
async function expectRefusedForKey(
  tradingKey: TradingKey,
  authenticatorId: bigint,
  to: string,
): Promise<void> {
  const owner = tradingKey.masterAddress;
  const [bank, sub0, sequence] = [
    await bankUsdc(owner),
    await subaccountUsdc(owner, 0),
    (await net.client.getAccountSequence({ address: owner })).sequence,
  ];
  const forbidden = [
    [
      "withdrawal",
      withdrawFromSubaccountMsg({ sender: { owner, number: 0 }, recipient: owner, quantums: 1_000_000n }),
    ],
    [
      "transfer",
      transferMsg({
        sender: { owner, number: 0 },
        recipient: { owner: to, number: 0 },
        quantums: 1_000_000n,
      }),
    ],
    ["bank send", bankSendMsg({ from: owner, to, amount: [{ denom: "uusdc", amount: 1n }] })],
    ["subaccount 1 order", placeOrderMsg(await order(owner, { subaccount: { owner, number: 1 } }))],
  ] as const;
  for (const [name, message] of forbidden) {
    const error = await refused(
      net.client.sendWithTradingKey({ tradingKey, authenticatorId, messages: [message], gas: 200_000n }),
    );
    expect([error.reason, error.codespace, error.abciCode, error.phase], name).toEqual([
      "unauthorized",
      "dydxaccountplus",
      104,
      "checkTx",
    ]);
  }
  expect(await bankUsdc(owner)).toBe(bank);
  expect(await subaccountUsdc(owner, 0)).toBe(sub0);
  expect((await net.client.getAccountSequence({ address: owner })).sequence).toBe(sequence);
}

describe("permissioned keys", () => {
  it("registers a trading key: place, cancel and batch cancel on subaccount 0 land; everything else is refused", async () => {
    const owner = net.wallets[4]!;
    await fundSubaccount(owner, 10_000_000_000n);
    const key = Wallet.generate();
    const { authenticatorId } = await net.client.registerTradingKey({ owner, publicKey: key.publicKey });
    const authenticators = await net.client.getAuthenticators({ address: owner.address });
    expect(authenticators.map((a) => a.id)).toContain(authenticatorId);
    const tradingKey = tradingKeyFromCredential(
      encodeCredential({ masterAddress: owner.address, tradingPrivateKey: key.exportPrivateKeyHex() }),
    );
    await tradeWithKey(tradingKey, authenticatorId);
    await expectRefusedForKey(tradingKey, authenticatorId, net.wallets[0]!.address);

    await net.client.removeAuthenticator({ signer: owner, sender: owner.address, id: authenticatorId });
    const revoked = await refused(
      net.client.sendWithTradingKey({
        tradingKey,
        authenticatorId,
        messages: [placeOrderMsg(await order(owner.address))],
      }),
    );
    expect([revoked.reason, revoked.codespace]).toEqual(["unauthorized", "dydxaccountplus"]);
  });

  it("an EVM wallet approves a fresh agent key with EIP-712 ApproveAgent; the agent trades subaccount 0 and cannot withdraw", async () => {
    const evm = EvmWallet.generate();
    // The faucet opens the account and credits its subaccount 0.
    const faucet = await fetch(`${net.devnet.endpoints.faucet}/faucet/tokens`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: evm.evmAddress }),
    });
    expect(faucet.status).toBe(200);
    expect(await subaccountUsdc(evm.address, 0)).toBeGreaterThan(0n);

    const agent = Wallet.generate();
    const { time } = await net.client.getLatestBlock();
    const approval = {
      evmChainId: net.devnet.evmChainId,
      masterAddress: evm.evmAddress,
      agentPublicKey: agent.publicKey,
      nonce: time.getTime(),
      expiry: Math.floor(time.getTime() / 1000) + 3_600,
    };
    const typedDataSignature = evm.signApproveAgent(approval);
    expect(verifyApproveAgent(approval, typedDataSignature)).toBe(true);
    const approved = await control("/approve-agent", {
      typedDataSignature,
      message: approveAgentTypedData(approval).message,
    });
    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    expect(approved.json.address).toBe(evm.address);
    const authenticatorId = BigInt(approved.json.agentAuthenticatorId as string);
    const registered = await net.client.getAuthenticators({ address: evm.address });
    expect(registered.find((a) => a.id === authenticatorId)?.type).toBe("AllOf");
    expect(registered.map((a) => a.type)).toContain("EthAddressSignatureVerification");
    // The same approval again is a replay.
    expect(
      (
        await control("/approve-agent", {
          typedDataSignature,
          message: approveAgentTypedData(approval).message,
        })
      ).status,
    ).toBe(400);

    const tradingKey = tradingKeyFromCredential(
      encodeCredential({ masterAddress: evm.address, tradingPrivateKey: agent.exportPrivateKeyHex() }),
    );
    await tradeWithKey(tradingKey, authenticatorId);
    await expectRefusedForKey(tradingKey, authenticatorId, net.wallets[0]!.address);
  });
});

describe("wrap and IBC", () => {
  const NOBLE = "noble1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy";

  it("redeems and withdraws through the voucher an incoming USDC transfer left as backing", async () => {
    const alice = net.wallets[0]!;
    const bankBefore = await bankUsdc(alice.address);
    // USDC arrives over channel-0 (the genesis wrap rule): alice gets uusdc, the wrap module the voucher.
    const received = await control("/ibc/receive", {
      channel: "channel-0",
      denom: "uusdc",
      amount: "5000000",
      sender: NOBLE,
      receiver: alice.address,
    });
    expect(received.status, JSON.stringify(received.json)).toBe(200);
    expect(received.json.wrapped).toBe(true);
    const voucher = received.json.voucherDenom as string;
    expect(voucher).toMatch(/^ibc\/[0-9A-F]{64}$/);
    expect(await bankUsdc(alice.address)).toBe(bankBefore + 5_000_000n);
    const backing = async () => (await net.client.getBacking()).find((b) => b.voucherDenom === voucher);
    const remaining = async () => BigInt((await backing())?.remainingBalance ?? "0");
    const start = await remaining();
    expect(start).toBeGreaterThanOrEqual(5_000_000n);

    const voucherBefore = await bankUsdc(alice.address, voucher);
    const usdcBefore = await bankUsdc(alice.address);
    const redeemed = await net.client.wrapRedeem({
      signer: alice,
      sender: alice.address,
      amount: 1_000n,
      voucherDenom: voucher,
    });
    expect(await bankUsdc(alice.address, voucher)).toBe(voucherBefore + 1_000n);
    expect(await bankUsdc(alice.address)).toBe(usdcBefore - 1_000n - feePaid(redeemed));
    expect(await remaining()).toBe(start - 1_000n);

    const withdrawn = await net.client.wrapWithdraw({
      signer: alice,
      sender: alice.address,
      amount: 1_000n,
      receiver: NOBLE,
      timeoutSeconds: 600,
      voucherDenom: voucher,
    });
    expect(withdrawn.tx?.code).toBe(0);
    expect(withdrawn.events.some((e) => e.type === "send_packet")).toBe(true);
    expect(await bankUsdc(alice.address)).toBe(usdcBefore - 2_000n - feePaid(redeemed) - feePaid(withdrawn));
    expect(await remaining()).toBe(start - 2_000n);
  });

  it("sends an ICS-20 transfer over an open channel", async () => {
    const alice = net.wallets[0]!;
    const channel = (await net.client.getIbcChannels()).find((c) => c.state === "STATE_OPEN");
    expect(channel).toBeDefined();
    const before = await bankUsdc(alice.address);
    const result = await net.client.ibcTransfer({
      signer: alice,
      sender: alice.address,
      receiver: NOBLE,
      sourceChannel: channel!.channelId,
      token: { denom: "uusdc", amount: 1_000n },
      timeoutTimestampNs: BigInt(Date.now() + 600_000) * 1_000_000n,
    });
    expect(result.tx?.code).toBe(0);
    const packet = result.events.find((e) => e.type === "send_packet");
    const attribute = (key: string) => packet?.attributes.find((a) => a.key === key)?.value;
    expect(attribute("packet_src_channel")).toBe(channel!.channelId);
    expect(await bankUsdc(alice.address)).toBe(before - 1_000n - feePaid(result));
  });
});
