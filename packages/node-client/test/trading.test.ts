/**
 * Devnet part 2 (clob, subaccounts, sending, accountplus authenticators, wrap, IBC): every test asks
 * the devnet whether it serves the module first and skips until it does; nothing here fakes the chain.
 */

import { encodeCredential } from "@perpx/core";
import { accountplus, clob, subaccounts, wrap } from "@perpx/proto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bankSendMsg,
  batchCancelMsg,
  cancelOrderMsg,
  ibcTransferMsg,
  isBroadcastTxError,
  type LocalWallet,
  type PlaceOrderParams,
  placeOrderMsg,
  tradingKeyFromCredential,
  LocalWallet as Wallet,
} from "../src/index.js";
import { chainHandles, chainSupports, useDevnet } from "./support.js";

const net = useDevnet();

const support = { clob: false, subaccounts: false, authenticators: false, wrap: false };
beforeAll(async () => {
  const owner = net.wallets[0]!.address;
  support.clob = await chainSupports(net.client, clob.Query.method.clobPairAll);
  support.subaccounts = await chainSupports(net.client, subaccounts.Query.method.subaccountAll);
  support.authenticators = await chainSupports(net.client, accountplus.Query.method.getAuthenticators, {
    account: owner,
  });
  support.wrap = await chainSupports(net.client, wrap.Query.method.wrapRules);
});

function needs(feature: keyof typeof support, skip: (note?: string) => void): void {
  if (!support[feature]) skip(`devnet part 2 does not serve ${feature} yet`);
}

/** A market to trade on: the first clob pair, with a size and price on its grid. */
async function market() {
  const pair = (await net.client.getClobPairs())[0]!;
  return {
    clobPairId: pair.id,
    quantums: pair.stepBaseQuantums,
    subticks: BigInt(pair.subticksPerTick) * 1_000n,
  };
}

let nextClientId = 1;
async function order(wallet: LocalWallet, patch: Partial<PlaceOrderParams> = {}): Promise<PlaceOrderParams> {
  const m = await market();
  const { height, time } = await net.client.getLatestBlock();
  return {
    subaccount: { owner: wallet.address, number: 0 },
    clientId: nextClientId++,
    side: "BUY",
    ...m,
    kind: "short-term",
    goodTilBlock: Number(height) + 10,
    ...(patch.kind && patch.kind !== "short-term"
      ? { goodTilBlockTime: Math.floor(time.getTime() / 1000) + 3_600 }
      : {}),
    ...patch,
  } as PlaceOrderParams;
}

async function fundSubaccount(wallet: LocalWallet, quantums: bigint, number = 0) {
  return net.client.depositToSubaccount({
    signer: wallet,
    sender: wallet.address,
    recipient: { owner: wallet.address, number },
    quantums,
  });
}

describe("subaccounts and sending", () => {
  it("deposits to, withdraws from and transfers between subaccounts", async (ctx) => {
    needs("subaccounts", ctx.skip);
    const alice = net.wallets[0]!;
    await fundSubaccount(alice, 5_000_000_000n);
    const sub0 = await net.client.getSubaccount({ owner: alice.address, number: 0 });
    expect(sub0?.assetPositions.find((p) => p.assetId === 0)).toBeDefined();
    const bankBefore = (await net.client.getBalance({ address: alice.address, denom: "uusdc" })).amount;
    const withdrawn = await net.client.withdrawFromSubaccount({
      signer: alice,
      sender: { owner: alice.address, number: 0 },
      recipient: alice.address,
      quantums: 1_000_000n,
    });
    const bankAfter = (await net.client.getBalance({ address: alice.address, denom: "uusdc" })).amount;
    expect(bankAfter - bankBefore).toBe(1_000_000n - (withdrawn.fee.amount[0]?.amount as bigint));
    await net.client.transfer({
      signer: alice,
      sender: { owner: alice.address, number: 0 },
      recipient: { owner: alice.address, number: 1 },
      amount: 2_000_000n,
    });
    expect(await net.client.getSubaccount({ owner: alice.address, number: 1 })).toBeDefined();
  });
});

describe("orders", () => {
  it("a short-term order pays no fee and leaves the sequence alone", async (ctx) => {
    needs("clob", ctx.skip);
    const bob = net.wallets[1]!;
    await fundSubaccount(bob, 10_000_000_000n);
    const before = await net.client.getAccountSequence({ address: bob.address });
    const usdcBefore = (await net.client.getBalance({ address: bob.address, denom: "uusdc" })).amount;
    const result = await net.client.placeOrder({ signer: bob, ...(await order(bob)) });
    expect(result.fee).toEqual({ amount: [], gasLimit: 1_000_000n });
    expect((await net.client.getAccountSequence({ address: bob.address })).sequence).toBe(before.sequence);
    expect((await net.client.getBalance({ address: bob.address, denom: "uusdc" })).amount).toBe(usdcBefore);
  });

  it("places every time in force, reduce-only and client metadata", async (ctx) => {
    needs("clob", ctx.skip);
    const bob = net.wallets[1]!;
    for (const timeInForce of ["GTC", "IOC", "POST_ONLY"] as const) {
      const result = await net.client.placeOrder({
        signer: bob,
        ...(await order(bob, { timeInForce, clientMetadata: 1 })),
        tx: { broadcastMode: "sync" },
      });
      const landed = await net.client.waitForTx({ hash: result.hash }).catch((e: unknown) => e);
      if (!isBroadcastTxError(landed)) expect(landed).toMatchObject({ code: 0 });
    }
    const fok = await net.client
      .placeOrder({ signer: bob, ...(await order(bob, { timeInForce: "FILL_OR_KILL" })) })
      .catch((e: unknown) => e);
    expect(!isBroadcastTxError(fok) || fok.clobError === "deprecated-field").toBe(true);
    const reduce = await net.client
      .placeOrder({
        signer: bob,
        ...(await order(bob, { timeInForce: "IOC", reduceOnly: true, side: "SELL" })),
      })
      .catch((e: unknown) => e);
    expect(!isBroadcastTxError(reduce) || reduce.reason === "clob").toBe(true);
    const notIoc = await net.client
      .placeOrder({ signer: bob, ...(await order(bob, { reduceOnly: true })) })
      .catch((e: unknown) => e);
    expect(isBroadcastTxError(notIoc) && notIoc.reason === "clob").toBe(true);
  });

  it("places and cancels long-term and conditional orders; batch-cancels short-term ones", async (ctx) => {
    needs("clob", ctx.skip);
    const carl = net.wallets[2]!;
    await fundSubaccount(carl, 50_000_000_000n);
    const long = await order(carl, { kind: "long-term" });
    await net.client.placeOrder({ signer: carl, ...long });
    const gtbt = (long as { goodTilBlockTime: number }).goodTilBlockTime;
    await net.client.cancelOrder({
      signer: carl,
      subaccount: long.subaccount,
      clientId: long.clientId,
      clobPairId: long.clobPairId,
      kind: "long-term",
      goodTilBlockTime: gtbt,
    });
    const conditional = await order(carl, {
      kind: "conditional",
      conditionType: "STOP_LOSS",
      triggerSubticks: long.subticks,
      side: "SELL",
    } as Partial<PlaceOrderParams>);
    await net.client.placeOrder({ signer: carl, ...conditional });
    await net.client.cancelOrder({
      signer: carl,
      subaccount: conditional.subaccount,
      clientId: conditional.clientId,
      clobPairId: conditional.clobPairId,
      kind: "conditional",
      goodTilBlockTime: gtbt,
    });
    const shorts = [
      await order(carl, { timeInForce: "POST_ONLY" }),
      await order(carl, { timeInForce: "POST_ONLY" }),
    ];
    for (const s of shorts)
      await net.client.placeOrder({ signer: carl, ...s, tx: { broadcastMode: "sync" } });
    const { height } = await net.client.getLatestBlock();
    await net.client.batchCancel({
      signer: carl,
      subaccount: shorts[0]!.subaccount,
      cancels: [{ clobPairId: shorts[0]!.clobPairId, clientIds: shorts.map((s) => s.clientId) }],
      goodTilBlock: Number(height) + 10,
      tx: { broadcastMode: "sync" },
    });
  });

  it("50 concurrent long-term orders from one wallet all land, exactly once", async (ctx) => {
    needs("clob", ctx.skip);
    const dave = net.wallets[3]!;
    await fundSubaccount(dave, 500_000_000_000n);
    const client = net.makeClient();
    const tick = BigInt((await client.getClobPairs())[0]!.subticksPerTick);
    const before = await client.getAccountSequence({ address: dave.address });
    // Resting buys at the lowest price: nothing crosses.
    const orders = await Promise.all(
      Array.from({ length: 50 }, () =>
        order(dave, { kind: "long-term", timeInForce: "POST_ONLY", subticks: tick }),
      ),
    );
    // A block rate limit refuses at CheckTx (the order is not placed, the sequence is not used):
    // sending the same order again after a block can never double it.
    let rateLimited = 0;
    const place = async (o: PlaceOrderParams): Promise<string> => {
      for (;;) {
        try {
          return (await client.placeOrder({ signer: dave, ...o })).hash;
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
    for (const o of orders) {
      const placed = await client.getStatefulOrder({
        order: {
          subaccount: o.subaccount,
          clientId: o.clientId,
          clobPairId: o.clobPairId,
          kind: "long-term",
        },
      });
      expect(placed?.orderPlacement?.order?.orderId?.clientId).toBe(o.clientId);
    }
    ctx.annotate(`rate-limited attempts resent: ${rateLimited}`);
  }, 120_000);

  it("reports clob errors from the chain (validation off)", async (ctx) => {
    needs("clob", ctx.skip);
    const bob = net.wallets[1]!;
    const { height } = await net.client.getLatestBlock();
    const tooLow = await net.client
      .placeOrder({
        signer: bob,
        ...(await order(bob, { kind: "short-term", goodTilBlock: Number(height) - 5 })),
        tx: { validate: false },
      })
      .catch((e: unknown) => e);
    expect(isBroadcastTxError(tooLow) && tooLow.clobError === "good-til-block-too-low").toBe(true);
    const missing = await net.client
      .cancelOrder({
        signer: bob,
        subaccount: { owner: bob.address, number: 0 },
        clientId: 999_999,
        clobPairId: 0,
        kind: "long-term",
        goodTilBlockTime: Math.floor(Date.now() / 1000) + 60,
      })
      .catch((e: unknown) => e);
    expect(isBroadcastTxError(missing) && missing.clobError === "stateful-order-does-not-exist").toBe(true);
  });
});

describe("permissioned keys", () => {
  it("registers a trading key and trades with it on subaccount 0; everything else is refused", async (ctx) => {
    needs("authenticators", ctx.skip);
    needs("clob", ctx.skip);
    const owner = net.wallets[4]!;
    await fundSubaccount(owner, 10_000_000_000n);
    const key = Wallet.generate();
    const { authenticatorId } = await net.client.registerTradingKey({ owner, publicKey: key.publicKey });
    const authenticators = await net.client.getAuthenticators({ address: owner.address });
    expect(authenticators.map((a) => a.id)).toContain(authenticatorId);
    const tradingKey = tradingKeyFromCredential(
      encodeCredential({ masterAddress: owner.address, tradingPrivateKey: key.exportPrivateKeyHex() }),
    );
    const allowed = await net.client.sendWithTradingKey({
      tradingKey,
      authenticatorId,
      messages: [placeOrderMsg(await order(owner))],
    });
    expect(allowed.hash).toMatch(/^[0-9A-F]{64}$/);
    const otherSub = await net.client
      .sendWithTradingKey({
        tradingKey,
        authenticatorId,
        messages: [placeOrderMsg(await order(owner, { subaccount: { owner: owner.address, number: 1 } }))],
      })
      .catch((e: unknown) => e);
    expect(isBroadcastTxError(otherSub) && otherSub.reason === "unauthorized").toBe(true);
    const send = await net.client
      .sendWithTradingKey({
        tradingKey,
        authenticatorId,
        messages: [
          bankSendMsg({ from: owner.address, to: key.address, amount: [{ denom: "uusdc", amount: 1n }] }),
        ],
        gas: 200_000n,
      })
      .catch((e: unknown) => e);
    expect(isBroadcastTxError(send) && send.reason === "unauthorized").toBe(true);
    await net.client.removeAuthenticator({ signer: owner, sender: owner.address, id: authenticatorId });
    const revoked = await net.client
      .sendWithTradingKey({ tradingKey, authenticatorId, messages: [placeOrderMsg(await order(owner))] })
      .catch((e: unknown) => e);
    expect(isBroadcastTxError(revoked)).toBe(true);
    const cancel = cancelOrderMsg({
      subaccount: { owner: owner.address, number: 0 },
      clientId: 1,
      clobPairId: 0,
      kind: "short-term",
      goodTilBlock: 1,
    });
    expect(cancel.typeUrl).toBe("/perpx.clob.v1.MsgCancelOrder");
    expect(
      batchCancelMsg({
        subaccount: { owner: owner.address, number: 0 },
        cancels: [{ clobPairId: 0, clientIds: [1] }],
        goodTilBlock: 1,
      }).typeUrl,
    ).toBe("/perpx.clob.v1.MsgBatchCancel");
  });
});

describe("wrap and IBC", () => {
  it("redeems and withdraws through a voucher that backs uusdc", async (ctx) => {
    needs("wrap", ctx.skip);
    const alice = net.wallets[0]!;
    const backing = (await net.client.getBacking()).find((b) => BigInt(b.remainingBalance || "0") > 0n);
    if (!backing) ctx.skip("no voucher backs uusdc on this devnet yet");
    const voucher = backing!.voucherDenom;
    const before = (await net.client.getBalance({ address: alice.address, denom: voucher })).amount;
    await net.client.wrapRedeem({
      signer: alice,
      sender: alice.address,
      amount: 1_000n,
      voucherDenom: voucher,
    });
    expect((await net.client.getBalance({ address: alice.address, denom: voucher })).amount).toBe(
      before + 1_000n,
    );
    const withdrawn = await net.client.wrapWithdraw({
      signer: alice,
      sender: alice.address,
      amount: 1_000n,
      receiver: "noble1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy",
      timeoutSeconds: 600,
      voucherDenom: voucher,
    });
    expect(withdrawn.height).toBeGreaterThan(0n);
  });

  it("sends an ICS-20 transfer over an open channel", async (ctx) => {
    const alice = net.wallets[0]!;
    const channel = (await net.client.getIbcChannels()).find((c) => c.state === "STATE_OPEN");
    if (!channel) ctx.skip("no open channel");
    const params = {
      sender: alice.address,
      receiver: "noble1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy",
      sourceChannel: channel!.channelId,
      token: { denom: "uusdc", amount: 1_000n },
      timeoutTimestampNs: BigInt(Date.now() + 600_000) * 1_000_000n,
    };
    if (!(await chainHandles(net.client, alice, ibcTransferMsg(params))))
      ctx.skip("devnet part 2 does not handle MsgTransfer yet");
    const result = await net.client.ibcTransfer({ signer: alice, ...params });
    expect(result.height).toBeGreaterThan(0n);
  });
});
