/**
 * ICS-04 packet state against a running devnet: an outgoing ICS-20 `MsgTransfer` (signed in the
 * test) leaves a packet commitment computed as ibc-go computes it, an incoming packet (devnet
 * control) leaves a receipt and the commitment of a success acknowledgement; both are read over
 * RPC `abci_query` and REST, with ibc-go's error answers for bad requests; native coins sent over a
 * channel wait in its ICS-20 escrow address.
 */
import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { sha256 } from "@noble/hashes/sha2.js";
import { addressBytes } from "@perpx/address";
import { cosmosAbci, ibcChannel, ibcTransfer } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import type { Loose } from "./support/loose.js";
import { msg, signTx } from "./support/sign-tx.js";

let devnet: Devnet;
const CHANNEL = "/ibc/core/channel/v1/channels/channel-0/ports/transfer";
const Q = "/ibc.core.channel.v1.Query";

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0, faucetWindowMs: 0 });
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

async function json(url: string, init?: RequestInit): Promise<{ status: number; body: Loose }> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json() };
}

async function rpc(method: string, params: Record<string, unknown>): Promise<Loose> {
  const { body } = await json(devnet.endpoints.nodeRpc, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  if (body.error !== undefined) throw new Error(JSON.stringify(body.error));
  return body.result;
}

/** An ABCI query over RPC: the decoded answer, or the refusal's code and log. */
async function abci<Req extends DescMessage, Res extends DescMessage>(
  method: string,
  request: Req,
  value: Omit<MessageShape<Req>, "$typeName">,
  response: Res,
): Promise<{ code: number; log: string; value?: MessageShape<Res> }> {
  const result = await rpc("abci_query", {
    path: `${Q}/${method}`,
    data: Buffer.from(toBinary(request, create(request, value as MessageShape<Req>))).toString("hex"),
  });
  const { code, log } = result.response as { code: number; log: string };
  if (code !== 0) return { code, log };
  return {
    code,
    log,
    value: fromBinary(response, new Uint8Array(Buffer.from(result.response.value ?? "", "base64"))),
  };
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const u64 = (value: bigint) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value);
  return out;
};

describe("packets this chain sends", () => {
  it("leave ibc-go's commitment, listed and unacknowledged, readable over RPC and REST", async () => {
    const bob = devnet.accounts[1]!;
    const timeoutTimestamp = (BigInt(devnet.app.latestBlock().time.getTime()) + 3_600_000n) * 1_000_000n;
    const info = (await json(`${devnet.endpoints.nodeRest}/cosmos/auth/v1beta1/accounts/${bob.address}`)).body
      .account;
    const tx = await signTx({
      mnemonic: bob.mnemonic,
      chainId: devnet.chainId,
      accountNumber: BigInt(info.account_number),
      sequence: BigInt(info.sequence),
      msgs: [
        msg(
          ibcTransfer.MsgTransferSchema,
          create(ibcTransfer.MsgTransferSchema, {
            sourcePort: "transfer",
            sourceChannel: "channel-0",
            token: { denom: "aperpx", amount: "5000" },
            sender: bob.address,
            receiver: "noble1receiver",
            timeoutTimestamp,
          }),
        ),
      ],
    });
    const sync = await rpc("broadcast_tx_sync", { tx: Buffer.from(tx).toString("base64") });
    expect(sync.code, sync.log).toBe(0);
    const [block] = devnet.mine(1);
    const result = block!.txResults.at(-1)!;
    expect(result.code, result.log).toBe(0);
    const data = fromBinary(cosmosAbci.TxMsgDataSchema, result.data);
    const { sequence } = fromBinary(ibcTransfer.MsgTransferResponseSchema, data.msgResponses[0]!.value);

    // ibc-go's packet data: sorted JSON keys, an empty memo left out; the event carries the same bytes.
    const packetData = `{"amount":"5000","denom":"aperpx","receiver":"noble1receiver","sender":"${bob.address}"}`;
    const sent = result.events.find((e) => e.type === "send_packet")!;
    expect(sent.attributes).toContainEqual(
      expect.objectContaining({ key: "packet_data", value: packetData }),
    );
    const expected = sha256(
      Buffer.concat([u64(timeoutTimestamp), u64(0n), u64(0n), sha256(new TextEncoder().encode(packetData))]),
    );

    const one = await abci(
      "PacketCommitment",
      ibcChannel.QueryPacketCommitmentRequestSchema,
      { portId: "transfer", channelId: "channel-0", sequence },
      ibcChannel.QueryPacketCommitmentResponseSchema,
    );
    expect(hex(one.value!.commitment)).toBe(hex(expected));
    expect(one.value!.proofHeight?.revisionHeight).toBe(block!.height);

    const rest = await json(`${devnet.endpoints.nodeRest}${CHANNEL}/packet_commitments/${sequence}`);
    expect(rest.status).toBe(200);
    expect(rest.body.commitment).toBe(Buffer.from(expected).toString("base64"));

    const all = await json(`${devnet.endpoints.nodeRest}${CHANNEL}/packet_commitments`);
    expect(all.body.commitments).toContainEqual({
      port_id: "transfer",
      channel_id: "channel-0",
      sequence: sequence.toString(),
      data: Buffer.from(expected).toString("base64"),
    });

    // The relayer delivers 2 blocks after the send: the ack of `sequence` is still unreceived.
    const acks = await json(
      `${devnet.endpoints.nodeRest}${CHANNEL}/packet_commitments/${sequence},${sequence + 100n}/unreceived_acks`,
    );
    expect(acks.body.sequences).toEqual([sequence.toString()]);
  });

  it("refuses a zero sequence and answers not found for a commitment that does not exist", async () => {
    const zero = await abci(
      "PacketCommitment",
      ibcChannel.QueryPacketCommitmentRequestSchema,
      { portId: "transfer", channelId: "channel-0", sequence: 0n },
      ibcChannel.QueryPacketCommitmentResponseSchema,
    );
    expect(zero.code).toBe(18);
    expect(zero.log).toContain("packet sequence cannot be 0");
    const none = await json(`${devnet.endpoints.nodeRest}${CHANNEL}/packet_commitments/999999`);
    expect(none.status).toBe(404);
    expect(none.body.message).toContain("packet commitment hash not found");
    const unknown = await json(
      `${devnet.endpoints.nodeRest}/ibc/core/channel/v1/channels/channel-77/ports/transfer/packet_commitments`,
    );
    expect(unknown.status).toBe(404);
    const badPort = await abci(
      "PacketCommitments",
      ibcChannel.QueryPacketCommitmentsRequestSchema,
      { portId: "", channelId: "channel-0" },
      ibcChannel.QueryPacketCommitmentsResponseSchema,
    );
    expect(badPort.code).toBe(18);
  });
});

describe("packets this chain receives", () => {
  it("leave a receipt and a success acknowledgement's commitment; the unreceived ones are named", async () => {
    const alice = devnet.accounts[0]!.address;
    const received = await json(`${devnet.endpoints.devnetControl}/devnet/ibc/receive`, {
      method: "POST",
      body: JSON.stringify({ channel: "channel-0", denom: "uosmo", amount: "7", receiver: alice }),
    });
    expect(received.status, JSON.stringify(received.body)).toBe(200);
    devnet.mine(1);
    const sequence = BigInt(received.body.sequence);

    const receipt = await abci(
      "PacketReceipt",
      ibcChannel.QueryPacketReceiptRequestSchema,
      { portId: "transfer", channelId: "channel-0", sequence },
      ibcChannel.QueryPacketReceiptResponseSchema,
    );
    expect(receipt.value!.received).toBe(true);
    const later = await json(`${devnet.endpoints.nodeRest}${CHANNEL}/packet_receipts/${sequence + 1n}`);
    expect(later.body.received).toBe(false);

    const ack = sha256(new TextEncoder().encode('{"result":"AQ=="}'));
    const one = await json(`${devnet.endpoints.nodeRest}${CHANNEL}/packet_acks/${sequence}`);
    expect(one.body.acknowledgement).toBe(Buffer.from(ack).toString("base64"));
    const listed = await abci(
      "PacketAcknowledgements",
      ibcChannel.QueryPacketAcknowledgementsRequestSchema,
      { portId: "transfer", channelId: "channel-0", packetCommitmentSequences: [sequence, sequence + 5n] },
      ibcChannel.QueryPacketAcknowledgementsResponseSchema,
    );
    expect(listed.value!.acknowledgements.map((a) => [a.sequence, hex(a.data)])).toEqual([
      [sequence, hex(ack)],
    ]);
    expect((await json(`${devnet.endpoints.nodeRest}${CHANNEL}/packet_acks/${sequence + 1n}`)).status).toBe(
      404,
    );

    const unreceived = await json(
      `${devnet.endpoints.nodeRest}${CHANNEL}/packet_commitments/${sequence},${sequence + 1n}/unreceived_packets`,
    );
    expect(unreceived.body.sequences).toEqual([(sequence + 1n).toString()]);

    // The transfer channel is unordered: ibc-go answers 0 for its next receive sequence.
    const next = await json(`${devnet.endpoints.nodeRest}${CHANNEL}/next_sequence`);
    expect(next.body.next_sequence_receive).toBe("0");
  });
});

describe("ICS-20 escrow", () => {
  it("holds a channel's outgoing native coins in ibc-go's escrow address, counted per denom", async () => {
    const rest = async (path: string) => json(`${devnet.endpoints.nodeRest}${path}`);
    const version = new TextEncoder().encode("ics20-1");
    const expected = sha256(
      Buffer.concat([version, Uint8Array.of(0), new TextEncoder().encode("transfer/channel-0")]),
    );
    const escrow = await rest("/ibc/apps/transfer/v1/channels/channel-0/ports/transfer/escrow_address");
    expect(escrow.status).toBe(200);
    const address = escrow.body.escrow_address as string;
    expect(hex(addressBytes(address))).toBe(hex(expected.subarray(0, 20)));
    // The earlier transfer of 5000 aperpx over channel-0 sits there, and is the denom's whole escrow.
    const held = await rest(`/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=aperpx`);
    expect(held.body.balance.amount).toBe("5000");
    const total = await rest("/ibc/apps/transfer/v1/denoms/aperpx/total_escrow");
    expect(total.body.amount).toEqual({ denom: "aperpx", amount: "5000" });
    expect(
      (await rest("/ibc/apps/transfer/v1/channels/channel-77/ports/transfer/escrow_address")).status,
    ).toBe(404);

    // Coins coming back over the channel leave its escrow.
    const bob = devnet.accounts[1]!.address;
    const back = await json(`${devnet.endpoints.devnetControl}/devnet/ibc/receive`, {
      method: "POST",
      body: JSON.stringify({
        channel: "channel-0",
        denom: "transfer/channel-0/aperpx",
        amount: "2000",
        receiver: bob,
      }),
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    devnet.mine(1);
    expect(
      (await rest(`/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=aperpx`)).body.balance.amount,
    ).toBe("3000");
    expect((await rest("/ibc/apps/transfer/v1/denoms/aperpx/total_escrow")).body.amount.amount).toBe("3000");
  });
});
