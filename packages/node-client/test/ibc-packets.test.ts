/**
 * IBC packet state and denom traces through the client against a devnet: an ICS-20 transfer sent
 * with `ibcTransfer` is read back as a packet commitment (checked against ibc-go's formula) until
 * acknowledged; an incoming packet leaves a receipt and an acknowledgement; over gRPC and RPC.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { isInvalidArgumentError } from "@perpx/core";
import { describe, expect, it, vi } from "vitest";
import { ibcQueries } from "../src/queries.js";
import { useDevnet } from "./support.js";

const {
  getDenomTrace,
  getDenomTraces,
  getEscrowAddress,
  getNextSequenceReceive,
  getPacketAcknowledgement,
  getPacketAcknowledgements,
  getPacketCommitment,
  getPacketCommitments,
  getPacketReceipt,
  getTotalEscrow,
  getUnreceivedAcks,
  getUnreceivedPackets,
} = ibcQueries;

const net = useDevnet();
const NOBLE = "noble1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy";
const TRANSPORTS = ["grpc", "rpc"] as const;

const u64 = (value: bigint) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value);
  return out;
};
const hex = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : Buffer.from(bytes).toString("hex");

async function receive(body: Record<string, string>): Promise<Record<string, string>> {
  const response = await fetch(`${net.devnet.endpoints.devnetControl}/devnet/ibc/receive`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, string>;
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json;
}

async function control(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(`${net.devnet.endpoints.devnetControl}/devnet/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json;
}

describe("a transfer this chain sends", () => {
  it("is readable as its packet commitment while unacknowledged, and gone once refused and refunded", async () => {
    // The devnet's relayer holds the packet until this test relays it.
    await control("ibc/relayer", { auto: false });
    const alice = net.wallets[0]!;
    const uusdcBefore = BigInt(
      (await net.client.getBalance({ address: alice.address, denom: "uusdc" })).amount,
    );
    const timeoutTimestampNs = BigInt(Date.now() + 600_000) * 1_000_000n;
    const result = await net.client.ibcTransfer({
      signer: alice,
      sender: alice.address,
      receiver: NOBLE,
      sourceChannel: "channel-0",
      token: { denom: "uusdc", amount: 1_234n },
      timeoutTimestampNs,
    });
    expect(result.tx?.code).toBe(0);
    const packet = result.events.find((e) => e.type === "send_packet")!;
    const attribute = (key: string) => packet.attributes.find((a) => a.key === key)?.value ?? "";
    const sequence = BigInt(attribute("packet_sequence"));
    const data = attribute("packet_data");
    expect(JSON.parse(data)).toEqual({
      amount: "1234",
      denom: "uusdc",
      receiver: NOBLE,
      sender: alice.address,
    });
    const expected = sha256(
      Buffer.concat([u64(timeoutTimestampNs), u64(0n), u64(0n), sha256(new TextEncoder().encode(data))]),
    );

    for (const transport of TRANSPORTS) {
      const ref = { channelId: "channel-0", sequence, transport };
      expect(hex(await getPacketCommitment(net.client, ref))).toBe(hex(expected));
      const all = await getPacketCommitments(net.client, { channelId: "channel-0", transport });
      expect(all.find((p) => p.sequence === sequence)?.data).toEqual(expected);
      expect(
        await getUnreceivedAcks(net.client, { channelId: "channel-0", sequences: [sequence], transport }),
      ).toEqual([sequence]);
      expect(
        await getPacketCommitment(net.client, { channelId: "channel-0", sequence: 9_999_999n, transport }),
      ).toBeUndefined();
    }
    // Native coins sent wait in the channel's escrow account, counted per denom.
    for (const transport of TRANSPORTS) {
      const escrow = await getEscrowAddress(net.client, { channelId: "channel-0", transport });
      const held = BigInt((await net.client.getBalance({ address: escrow, denom: "uusdc" })).amount);
      expect(held).toBeGreaterThanOrEqual(1_234n);
      expect(await getTotalEscrow(net.client, { denom: "uusdc", transport })).toBe(held);
    }
    // The same through the bound client, with the port given.
    expect(
      hex(await net.client.getPacketCommitment({ portId: "transfer", channelId: "channel-0", sequence })),
    ).toBe(hex(expected));

    // The counterparty refuses it: the error acknowledgement deletes the commitment and refunds.
    await control("ibc/packet-fate", { sequence: sequence.toString(), result: "error", error: "blocked" });
    await control("ibc/relay", { sequence: sequence.toString() });
    await control("ibc/relayer", { auto: true });
    for (const transport of TRANSPORTS) {
      const ref = { channelId: "channel-0", sequence, transport };
      expect(await getPacketCommitment(net.client, ref)).toBeUndefined();
      expect(
        await getUnreceivedAcks(net.client, { channelId: "channel-0", sequences: [sequence], transport }),
      ).toEqual([]);
    }
    const uusdcAfter = BigInt(
      (await net.client.getBalance({ address: alice.address, denom: "uusdc" })).amount,
    );
    const fee = result.events
      .flatMap((e) => (e.type === "tx" ? e.attributes : []))
      .find((a) => a.key === "fee")?.value;
    const uusdcFee = BigInt(/^(\d+)uusdc$/.exec(fee ?? "")?.[1] ?? "0");
    expect(uusdcAfter).toBe(uusdcBefore - uusdcFee);
  });
});

describe("a packet this chain receives", () => {
  it("leaves a receipt, an acknowledgement and a denom trace", async () => {
    const bob = net.wallets[1]!;
    const received = await receive({
      channel: "channel-0",
      denom: "uatom",
      amount: "9",
      receiver: bob.address,
    });
    const sequence = BigInt(received.sequence!);
    const voucher = received.voucherDenom!;
    // The control call's state is queryable once committed.
    await vi.waitFor(
      async () => expect(await getPacketReceipt(net.client, { channelId: "channel-0", sequence })).toBe(true),
      { timeout: 10_000, interval: 25 },
    );
    const ack = sha256(new TextEncoder().encode('{"result":"AQ=="}'));
    for (const transport of TRANSPORTS) {
      const ref = { channelId: "channel-0", transport };
      expect(await getPacketReceipt(net.client, { ...ref, sequence })).toBe(true);
      expect(await getPacketReceipt(net.client, { ...ref, sequence: sequence + 1_000n })).toBe(false);
      expect(hex(await getPacketAcknowledgement(net.client, { ...ref, sequence }))).toBe(hex(ack));
      expect(
        await getPacketAcknowledgement(net.client, { ...ref, sequence: sequence + 1_000n }),
      ).toBeUndefined();
      const acks = await getPacketAcknowledgements(net.client, ref);
      expect(acks.find((a) => a.sequence === sequence)?.data).toEqual(ack);
      const some = await getPacketAcknowledgements(net.client, {
        ...ref,
        sequences: [sequence, sequence + 1_000n],
      });
      expect(some.map((a) => a.sequence)).toEqual([sequence]);
      expect(
        await getUnreceivedPackets(net.client, { ...ref, sequences: [sequence, sequence + 1_000n] }),
      ).toEqual([sequence + 1_000n]);
      expect(await getNextSequenceReceive(net.client, ref)).toBe(0n);
      expect(await getDenomTrace(net.client, { denom: voucher, transport })).toMatchObject({
        path: "transfer/channel-0",
        baseDenom: "uatom",
      });
      expect(await getDenomTrace(net.client, { denom: `ibc/${"0".repeat(64)}`, transport })).toBeUndefined();
      expect((await getDenomTraces(net.client, { transport })).map((t) => t.baseDenom)).toContain("uatom");
    }
  });
});

describe("bad input", () => {
  it("is refused with a typed error naming the argument before anything is sent", async () => {
    const refusal = async (promise: Promise<unknown>, argument: string) => {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isInvalidArgumentError(error), String(error)).toBe(true);
      expect((error as { argument: string }).argument).toBe(argument);
    };
    await refusal(getPacketCommitment(net.client, { channelId: "channel-0", sequence: 0n }), "sequence");
    await refusal(
      getPacketCommitment(net.client, { channelId: "channel-0", sequence: 1n << 64n }),
      "sequence",
    );
    await refusal(getPacketReceipt(net.client, { channelId: "c", sequence: 1n }), "channelId");
    await refusal(
      getPacketReceipt(net.client, { portId: "", channelId: "channel-0", sequence: 1n }),
      "portId",
    );
    await refusal(
      getUnreceivedPackets(net.client, { channelId: "channel-0", sequences: [1n, -2n] }),
      "sequences[1]",
    );
    await refusal(
      getUnreceivedAcks(net.client, { channelId: "channel-0", sequences: "1" as unknown as bigint[] }),
      "sequences",
    );
    await refusal(getDenomTrace(net.client, { denom: "uusdc" }), "denom");
    await refusal(getNextSequenceReceive(net.client, null as never), "getNextSequenceReceive parameters");
  });
});
