/**
 * The life of an outgoing ICS-20 packet as the devnet's simulated relayer delivers it, over the
 * wire: `MsgTransfer` and wrap's `MsgWithdraw` signed with cosmjs and broadcast over RPC; the
 * counterparty's answer chosen through devnet control; the acknowledgement, error acknowledgement
 * and timeout read back as ibc-go leaves them (events in `block_results`, packet commitments,
 * unreceived acks over REST), with bank balances, the channel's escrow and every x/ratelimit
 * limiter's capacity checked each time.
 */
import { create } from "@bufbuild/protobuf";
import { ibcDenom } from "@perpx/core";
import { ibcTransfer, wrap } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bech32Of, moduleAddress } from "../src/app/lib/addresses.js";
import { type Devnet, startDevnet } from "../src/index.js";
import type { Loose } from "./support/loose.js";
import { msg, type TestMsg } from "./support/sign-tx.js";
import { accountOf, broadcastSync, restGet, rpcCall, signWire } from "./support/wire.js";

let devnet: Devnet;
const CHANNEL = "/ibc/core/channel/v1/channels/channel-0/ports/transfer";
const FEE = 50_000n;
/** 100,000 USDC: far above what a limiter recovers while a test runs (about 280 USDC a second). */
const AMOUNT = 100_000_000_000n;
/** What the hourly limiter may recover during one test (36 s of block time). */
const SLACK = 10_000_000_000n;
const VOUCHER_0 = ibcDenom("transfer", "channel-0", "uusdc");
const WRAP_ACCOUNT = bech32Of(moduleAddress("wrap"));

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0, faucetWindowMs: 0 });
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

async function control(path: string, body: unknown): Promise<{ status: number; body: Loose }> {
  const res = await fetch(`${devnet.endpoints.devnetControl}/devnet/${path}`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Loose };
}

async function balance(address: string, denom: string): Promise<bigint> {
  const { body } = await restGet(
    devnet.endpoints.nodeRest,
    `/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=${encodeURIComponent(denom)}`,
  );
  return BigInt(body.balance.amount);
}

async function capacities(denom = "uusdc"): Promise<bigint[]> {
  const { body } = await restGet(
    devnet.endpoints.nodeRest,
    `/perpx/ratelimit/v1/capacity_by_denom?denom=${denom}`,
  );
  return (body.limiter_capacity_list as Loose[]).map((c) => BigInt(c.capacity));
}

async function pendingSends(): Promise<string[]> {
  const { body } = await restGet(devnet.endpoints.nodeRest, "/perpx/ratelimit/v1/all_pending_send_packets");
  return (body.pending_send_packets as Loose[]).map((p) => `${p.channel_id}/${p.sequence}`);
}

async function escrowed(denom: string): Promise<bigint> {
  const { body } = await restGet(
    devnet.endpoints.nodeRest,
    `/ibc/apps/transfer/v1/denoms/${denom}/total_escrow`,
  );
  return BigInt(body.amount.amount);
}

/** Whether the packet's commitment is still on chain, and whether its ack is still unreceived. */
async function commitment(sequence: bigint): Promise<{ committed: boolean; unreceivedAck: boolean }> {
  const one = await restGet(devnet.endpoints.nodeRest, `${CHANNEL}/packet_commitments/${sequence}`);
  const acks = await restGet(
    devnet.endpoints.nodeRest,
    `${CHANNEL}/packet_commitments/${sequence}/unreceived_acks`,
  );
  return {
    committed: one.status === 200,
    unreceivedAck: (acks.body.sequences as string[]).includes(sequence.toString()),
  };
}

/** The begin-block events of a block, over RPC `block_results`, as `{type, attrs}`. */
async function blockEvents(height: bigint): Promise<Array<{ type: string; attrs: Record<string, string> }>> {
  const result = await rpcCall(devnet.endpoints.nodeRpc, "block_results", { height: height.toString() });
  return (result.finalize_block_events as Loose[]).map((e) => ({
    type: e.type,
    attrs: Object.fromEntries((e.attributes as Loose[]).map((a) => [a.key, a.value])),
  }));
}

/** Signs and delivers one message from `account`; its result and the sequence it sent. */
async function deliver(account: number, message: TestMsg): Promise<{ sequence: bigint; height: bigint }> {
  const sender = devnet.accounts[account]!;
  const { accountNumber, sequence } = await accountOf(devnet.endpoints.nodeRest, sender.address);
  const tx = await signWire(sender.mnemonic, [message], {
    chainId: devnet.chainId,
    accountNumber,
    sequence,
    feeUusdc: FEE,
    gasLimit: 400_000n,
  });
  const checked = await broadcastSync(devnet.endpoints.nodeRpc, tx);
  expect(checked.code, checked.log).toBe(0);
  const [block] = devnet.mine(1);
  const result = block!.txResults.at(-1)!;
  expect(result.code, result.log).toBe(0);
  const sent = result.events.find((e) => e.type === "send_packet")!;
  const packetSequence = sent.attributes.find((a) => a.key === "packet_sequence")!.value;
  return { sequence: BigInt(packetSequence), height: block!.height };
}

function transfer(
  account: number,
  amount: bigint,
  timeout: { timestampMs?: bigint; height?: bigint } = {},
  denom = "uusdc",
): TestMsg {
  const now = BigInt(devnet.app.latestBlock().time.getTime());
  return msg(
    ibcTransfer.MsgTransferSchema,
    create(ibcTransfer.MsgTransferSchema, {
      sourcePort: "transfer",
      sourceChannel: "channel-0",
      token: { $typeName: "cosmos.base.v1beta1.Coin", denom, amount: amount.toString() },
      sender: devnet.accounts[account]!.address,
      receiver: "noble1receiver",
      ...(timeout.height === undefined
        ? {}
        : {
            timeoutHeight: {
              $typeName: "ibc.core.client.v1.Height",
              revisionNumber: 1n,
              revisionHeight: timeout.height,
            },
          }),
      timeoutTimestamp:
        timeout.height !== undefined && timeout.timestampMs === undefined
          ? 0n
          : (now + (timeout.timestampMs ?? 3_600_000n)) * 1_000_000n,
    }),
  );
}

/** Mines blocks one by one until the packet's commitment is gone; the height that removed it. */
async function mineUntilSettled(sequence: bigint, most = 10): Promise<bigint> {
  for (let i = 0; i < most; i++) {
    const [block] = devnet.mine(1);
    if (!(await commitment(sequence)).committed) return block!.height;
  }
  throw new Error(`packet ${sequence} still pending after ${most} blocks`);
}

describe("an outgoing transfer the counterparty acknowledges", () => {
  it("is delivered after the relay delay: commitment deleted, acknowledge_packet, capacity kept used", async () => {
    const alice = devnet.accounts[0]!.address;
    const settings = await fetch(`${devnet.endpoints.devnetControl}/devnet/ibc/relayer`).then((r) =>
      r.json(),
    );
    expect(settings).toMatchObject({ delayBlocks: 2, auto: true, packets: [] });
    const before = { uusdc: await balance(alice, "uusdc"), capacity: await capacities() };
    const escrowBefore = await escrowed("uusdc");

    const { sequence, height } = await deliver(0, transfer(0, AMOUNT));
    expect(await balance(alice, "uusdc")).toBe(before.uusdc - AMOUNT - FEE);
    expect(await escrowed("uusdc")).toBe(escrowBefore + AMOUNT);
    expect(await pendingSends()).toContain(`channel-0/${sequence}`);
    expect(await commitment(sequence)).toEqual({ committed: true, unreceivedAck: true });
    const used = await capacities();
    used.forEach((c, i) => {
      expect(c).toBeLessThanOrEqual(before.capacity[i]! - AMOUNT + SLACK);
    });
    const listed = await fetch(`${devnet.endpoints.devnetControl}/devnet/ibc/relayer`).then(
      (r) => r.json() as Promise<Loose>,
    );
    expect(listed.packets).toContainEqual(
      expect.objectContaining({
        sequence: sequence.toString(),
        amount: AMOUNT.toString(),
        dueHeight: (height + 2n).toString(),
      }),
    );

    // One block later it is not due yet; the next one delivers it.
    devnet.mine(1);
    expect((await commitment(sequence)).committed).toBe(true);
    const settled = await mineUntilSettled(sequence);
    expect(settled).toBe(height + 2n);

    const events = await blockEvents(settled);
    const ack = events.find(
      (e) => e.type === "acknowledge_packet" && e.attrs.packet_sequence === `${sequence}`,
    );
    expect(ack?.attrs).toMatchObject({
      packet_src_port: "transfer",
      packet_src_channel: "channel-0",
      packet_dst_port: "transfer",
      packet_dst_channel: "channel-0",
      packet_channel_ordering: "ORDER_UNORDERED",
      connection_id: "connection-0",
      mode: "BeginBlock",
    });
    const token = events.filter((e) => e.type === "fungible_token_packet");
    expect(token[0]?.attrs).toMatchObject({
      module: "transfer",
      sender: alice,
      receiver: "noble1receiver",
      denom: "uusdc",
      amount: AMOUNT.toString(),
      acknowledgement: 'result:"\\001" ',
    });
    expect(token[1]?.attrs.success).toBe("\u0001");

    // ibc-go's state after an acknowledgement: no commitment, no unreceived ack; the coins stay
    // escrowed (they are on the counterparty now), the limiter keeps the amount used.
    expect(await commitment(sequence)).toEqual({ committed: false, unreceivedAck: false });
    expect(await pendingSends()).not.toContain(`channel-0/${sequence}`);
    expect(await balance(alice, "uusdc")).toBe(before.uusdc - AMOUNT - FEE);
    expect(await escrowed("uusdc")).toBe(escrowBefore + AMOUNT);
    (await capacities()).forEach((c, i) => {
      expect(c).toBeLessThanOrEqual(before.capacity[i]! - AMOUNT + SLACK);
    });
  });
});

describe("an outgoing transfer the counterparty refuses", () => {
  it("is refunded from escrow on the error acknowledgement, and the limiter is undone", async () => {
    const bob = devnet.accounts[1]!.address;
    const fate = await control("ibc/packet-fate", { result: "error", error: "receiver address is blocked" });
    expect(fate.status, JSON.stringify(fate.body)).toBe(200);
    expect(fate.body).toMatchObject({ queued: 1 });
    const before = { uusdc: await balance(bob, "uusdc"), capacity: await capacities() };
    const escrowBefore = await escrowed("uusdc");

    const { sequence } = await deliver(1, transfer(1, AMOUNT));
    (await capacities()).forEach((c, i) => {
      expect(c).toBeLessThanOrEqual(before.capacity[i]! - AMOUNT + SLACK);
    });
    // Relay at once, without waiting for the delay; the events come out in the next block.
    const relayed = await control("ibc/relay", { channel: "channel-0", sequence: sequence.toString() });
    expect(relayed.status, JSON.stringify(relayed.body)).toBe(200);
    expect(relayed.body.packets).toEqual([
      {
        port: "transfer",
        channel: "channel-0",
        sequence: sequence.toString(),
        outcome: "error-acknowledged",
      },
    ]);
    const [block] = devnet.mine(1);
    const events = await blockEvents(block!.height);
    expect(events.find((e) => e.type === "acknowledge_packet")?.attrs.packet_sequence).toBe(`${sequence}`);
    const token = events.filter((e) => e.type === "fungible_token_packet");
    expect(token[0]?.attrs.acknowledgement).toBe('error:"receiver address is blocked" ');
    expect(token[1]?.attrs).toEqual({ error: "receiver address is blocked", mode: "BeginBlock" });

    expect(await commitment(sequence)).toEqual({ committed: false, unreceivedAck: false });
    expect(await pendingSends()).not.toContain(`channel-0/${sequence}`);
    // Refunded: only the fee is gone; the escrow is back where it was; capacity given back.
    expect(await balance(bob, "uusdc")).toBe(before.uusdc - FEE);
    expect(await escrowed("uusdc")).toBe(escrowBefore);
    (await capacities()).forEach((c, i) => {
      expect(c).toBeGreaterThanOrEqual(before.capacity[i]!);
    });
  });
});

describe("an outgoing transfer the counterparty never answers", () => {
  it("waits until its timeout timestamp passes, then times out here and is refunded", async () => {
    const carol = devnet.accounts[2]!.address;
    expect((await control("ibc/packet-fate", { result: "timeout" })).status).toBe(200);
    const before = { uusdc: await balance(carol, "uusdc"), capacity: await capacities() };

    const { sequence } = await deliver(2, transfer(2, AMOUNT, { timestampMs: 60_000n }));
    // Delivered and held: no answer, still pending well after the relay delay.
    devnet.mine(4);
    expect(await commitment(sequence)).toEqual({ committed: true, unreceivedAck: true });
    expect(await pendingSends()).toContain(`channel-0/${sequence}`);
    expect(await balance(carol, "uusdc")).toBe(before.uusdc - AMOUNT - FEE);

    // The counterparty's clock passes the timeout: the relayer proves it and times the packet out.
    const advanced = await control("advance-time", { ms: 61_000, mine: true });
    expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
    const height = BigInt(advanced.body.height);
    const events = await blockEvents(height);
    const timeout = events.find((e) => e.type === "timeout_packet");
    expect(timeout?.attrs).toMatchObject({
      packet_sequence: `${sequence}`,
      packet_src_channel: "channel-0",
      connection_id: "connection-0",
      packet_channel_ordering: "ORDER_UNORDERED",
    });
    expect(events.find((e) => e.type === "timeout")?.attrs).toMatchObject({
      module: "transfer",
      refund_receiver: carol,
      refund_denom: "uusdc",
      refund_amount: AMOUNT.toString(),
    });
    expect(await commitment(sequence)).toEqual({ committed: false, unreceivedAck: false });
    expect(await pendingSends()).not.toContain(`channel-0/${sequence}`);
    expect(await balance(carol, "uusdc")).toBe(before.uusdc - FEE);
    (await capacities()).forEach((c, i) => {
      expect(c).toBeGreaterThanOrEqual(before.capacity[i]!);
    });
  });

  it("times out at delivery when the counterparty's height is already past its timeout height", async () => {
    const dave = devnet.accounts[3]!.address;
    const before = await balance(dave, "uusdc");
    const next = devnet.app.latestBlock().height + 1n;
    // Timeout height 1-(next + 1): the counterparty (its height following ours) reaches it before
    // the relay delay (2 blocks) is over.
    const { sequence } = await deliver(3, transfer(3, 5_000_000n, { height: next + 1n }));
    const settled = await mineUntilSettled(sequence);
    const timeout = (await blockEvents(settled)).find((e) => e.type === "timeout_packet");
    expect(timeout?.attrs).toMatchObject({
      packet_sequence: `${sequence}`,
      packet_timeout_height: `1-${next + 1n}`,
      packet_timeout_timestamp: "0",
    });
    expect(await balance(dave, "uusdc")).toBe(before - FEE);
  });

  it("is refused at send when the counterparty is already at its timeout height (channel 14)", async () => {
    const dave = devnet.accounts[3]!;
    const { accountNumber, sequence } = await accountOf(devnet.endpoints.nodeRest, dave.address);
    const height = devnet.app.latestBlock().height;
    const tx = await signWire(dave.mnemonic, [transfer(3, 5_000n, { height })], {
      chainId: devnet.chainId,
      accountNumber,
      sequence,
      feeUusdc: FEE,
      gasLimit: 400_000n,
    });
    expect((await broadcastSync(devnet.endpoints.nodeRpc, tx)).code).toBe(0);
    const [block] = devnet.mine(1);
    const result = block!.txResults.at(-1)!;
    expect([result.codespace, result.code]).toEqual(["channel", 14]);
    expect(result.log).toContain(
      `receiving chain block height >= packet timeout height (1-${block!.height} >= 1-${height})`,
    );
  });
});

describe("a wrap MsgWithdraw", () => {
  const withdraw = (account: number, amount: bigint) =>
    msg(
      wrap.MsgWithdrawSchema,
      create(wrap.MsgWithdrawSchema, {
        sender: devnet.accounts[account]!.address,
        amount: amount.toString(),
        receiver: "noble1receiver",
        timeoutSeconds: 600n,
        voucherDenom: VOUCHER_0,
        localDenom: "uusdc",
      }),
    );

  it("is wrapped back on an error acknowledgement, and burned for good on a success", async () => {
    const erin = devnet.accounts[4]!.address;
    // Back the withdrawals with vouchers: an incoming USDC transfer, wrapped into uusdc.
    const received = await control("ibc/receive", {
      channel: "channel-0",
      denom: "uusdc",
      amount: (2n * AMOUNT).toString(),
      receiver: erin,
    });
    expect(received.status, JSON.stringify(received.body)).toBe(200);
    devnet.mine(1);
    const before = {
      uusdc: await balance(erin, "uusdc"),
      held: await balance(WRAP_ACCOUNT, VOUCHER_0),
      capacity: await capacities(),
    };

    expect((await control("ibc/packet-fate", { result: "error" })).status).toBe(200);
    const failed = await deliver(4, withdraw(4, AMOUNT));
    expect(await balance(WRAP_ACCOUNT, VOUCHER_0)).toBe(before.held - AMOUNT);
    const refundedAt = await mineUntilSettled(failed.sequence);
    const events = await blockEvents(refundedAt);
    expect(
      events.find((e) => e.type === "fungible_token_packet" && e.attrs.error !== undefined)?.attrs.error,
    ).toBe("ABCI code: 7: error handling packet: see events for details");
    expect(events.find((e) => e.type === "wrap_refund")?.attrs).toMatchObject({
      receiver: erin,
      voucher_denom: VOUCHER_0,
      local_denom: "uusdc",
      amount: AMOUNT.toString(),
    });
    // The voucher is collateral again and the sender holds the local denom again; limiter undone
    // (the capacity the incoming transfer added decays toward the baseline meanwhile).
    expect(await balance(WRAP_ACCOUNT, VOUCHER_0)).toBe(before.held);
    expect(await balance(erin, "uusdc")).toBe(before.uusdc - FEE);
    expect(await balance(erin, VOUCHER_0)).toBe(0n);
    (await capacities()).forEach((c, i) => {
      expect(c).toBeGreaterThanOrEqual(before.capacity[i]! - SLACK);
    });

    const ok = await deliver(4, withdraw(4, AMOUNT));
    const acknowledgedAt = await mineUntilSettled(ok.sequence);
    expect(
      (await blockEvents(acknowledgedAt)).find((e) => e.type === "acknowledge_packet")?.attrs.packet_sequence,
    ).toBe(`${ok.sequence}`);
    expect(await balance(WRAP_ACCOUNT, VOUCHER_0)).toBe(before.held - AMOUNT);
    expect(await balance(erin, "uusdc")).toBe(before.uusdc - AMOUNT - 2n * FEE);
    expect(await pendingSends()).not.toContain(`channel-0/${ok.sequence}`);
  });
});

describe("relayer control", () => {
  it("holds packets while automatic relaying is off, and refuses bad requests naming the field", async () => {
    const off = await control("ibc/relayer", { auto: false, delayBlocks: 1 });
    expect(off.body).toEqual({ delayBlocks: 1, auto: false });
    const { sequence } = await deliver(0, transfer(0, 1_000_000n));
    devnet.mine(3);
    expect((await commitment(sequence)).committed).toBe(true);
    const all = await control("ibc/relay", {});
    expect(all.body.packets).toContainEqual(
      expect.objectContaining({ sequence: `${sequence}`, outcome: "acknowledged" }),
    );
    expect((await commitment(sequence)).committed).toBe(false);
    expect((await control("ibc/relayer", { auto: true, delayBlocks: 2 })).status).toBe(200);

    const badResult = await control("ibc/packet-fate", { result: "maybe" });
    expect(badResult.status).toBe(400);
    expect(badResult.body.message).toContain('"result"');
    const unknown = await control("ibc/relay", { sequence: "999999" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("names no pending packet");
    const badDelay = await control("ibc/relayer", { delayBlocks: -1 });
    expect(badDelay.status).toBe(400);
    expect(badDelay.body.message).toContain("delayBlocks");
  });
});

describe("the relay delay option", () => {
  it("sets the relayer's delay at start, and refuses one out of range naming it", async () => {
    const slow = await startDevnet({ ports: "free", blockTimeMs: 0, ibcRelayDelayBlocks: 5 });
    try {
      const settings = (await fetch(`${slow.endpoints.devnetControl}/devnet/ibc/relayer`).then((r) =>
        r.json(),
      )) as Loose;
      expect(settings).toMatchObject({ delayBlocks: 5, auto: true });
    } finally {
      await slow.stop();
    }
    await expect(startDevnet({ ports: "free", blockTimeMs: 0, ibcRelayDelayBlocks: -1 })).rejects.toThrow(
      "delayBlocks",
    );
  });
});

// Last: it closes channel-0.
describe("a voucher sent home when its channel closes", () => {
  it("times out on close, and the voucher burned on its way home is minted back to its sender", async () => {
    const alice = devnet.accounts[0]!.address;
    const voucher = ibcDenom("transfer", "channel-0", "uosmo");
    const supply = async () =>
      BigInt(
        (
          await restGet(
            devnet.endpoints.nodeRest,
            `/cosmos/bank/v1beta1/supply/by_denom?denom=${encodeURIComponent(voucher)}`,
          )
        ).body.amount.amount,
      );
    const received = await control("ibc/receive", {
      channel: "channel-0",
      denom: "uosmo",
      amount: "9000",
      receiver: alice,
    });
    expect(received.status, JSON.stringify(received.body)).toBe(200);
    devnet.mine(1);
    const before = { held: await balance(alice, voucher), supply: await supply() };
    expect((await control("ibc/relayer", { auto: false })).status).toBe(200);

    const { sequence } = await deliver(0, transfer(0, 4_000n, {}, voucher));
    expect(await balance(alice, voucher)).toBe(before.held - 4_000n);
    expect(await supply()).toBe(before.supply - 4_000n);

    expect((await control("ibc/recreate-channel", { channel: "channel-0" })).status).toBe(200);
    const relayed = await control("ibc/relay", {});
    expect(relayed.body.packets).toContainEqual({
      port: "transfer",
      channel: "channel-0",
      sequence: `${sequence}`,
      outcome: "timed-out",
    });
    const [block] = devnet.mine(1);
    const events = await blockEvents(block!.height);
    expect(events.find((e) => e.type === "timeout_packet")?.attrs.packet_sequence).toBe(`${sequence}`);
    expect(events.find((e) => e.type === "timeout")?.attrs).toMatchObject({
      refund_receiver: alice,
      refund_denom: "transfer/channel-0/uosmo",
      refund_amount: "4000",
    });
    expect(await balance(alice, voucher)).toBe(before.held);
    expect(await supply()).toBe(before.supply);
    expect((await commitment(sequence)).committed).toBe(false);
  });
});
