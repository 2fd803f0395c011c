/** IBC packet state (ICS-04), ICS-20 vouchers and escrow, as rows over {@link defineQuery}. */
import { type IntegerInput, InvalidArgumentError } from "@perpx/core";
import { ibcChannel, ibcTransfer } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { coinAmount } from "../errors/query.js";
import { nonEmpty, positiveUint64 } from "../messages/validate.js";
import { definePagedQuery, defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

/** ibc-go's identifier alphabet and length (ICS-24), for ports and channels. */
const IDENTIFIER = /^[a-zA-Z0-9._+\-#[\]<>]{2,128}$/;
const VOUCHER = /^(ibc\/)?[0-9A-Fa-f]{64}$/;

function identifier(value: unknown, argument: string): string {
  if (typeof value === "string" && IDENTIFIER.test(value)) return value;
  const got = JSON.stringify(String(value));
  throw new InvalidArgumentError(
    argument,
    `must be an IBC identifier (2 to 128 of a-z A-Z 0-9 . _ + - # [ ] < >), got ${got}`,
  );
}

function sequenceList(value: unknown, argument: string): bigint[] {
  if (!Array.isArray(value)) throw new InvalidArgumentError(argument, "must be an array of packet sequences");
  return value.map((s: IntegerInput, i) => positiveUint64(s, `${argument}[${i}]`));
}

/** A channel end (its port is `transfer` unless given), with the call options. */
type IbcChannelParams = QueryOptions & { portId?: string; channelId: string };
/** Packet sequences (each > 0) on a channel end; optional where every packet is meant. */
type Sequences<Optional extends boolean> = IbcChannelParams &
  (Optional extends true ? { sequences?: readonly IntegerInput[] } : { sequences: readonly IntegerInput[] });

const channel = (p: IbcChannelParams) => ({
  portId: identifier(p.portId ?? "transfer", "portId"),
  channelId: identifier(p.channelId, "channelId"),
});
const packet = (p: IbcChannelParams & { sequence: IntegerInput }) => ({
  ...channel(p),
  sequence: positiveUint64(p.sequence, "sequence"),
});
const sequences = (p: Sequences<false>) => ({
  ...channel(p),
  packetCommitmentSequences: sequenceList(p.sequences, "sequences"),
});

const acknowledgements = () => ibcChannel.Query.method.packetAcknowledgements;
const allAcknowledgements = definePagedQuery("getPacketAcknowledgements", acknowledgements, {
  request: channel,
  pick: (r) => r.acknowledgements,
});
const someAcknowledgements = defineQuery("getPacketAcknowledgements", acknowledgements, {
  request: sequences,
  pick: (r) => r.acknowledgements,
});

/**
 * The IBC queries, each `query(client, params)`; a channel end is `{ channelId, portId? }` (port
 * `transfer` by default), a packet adds its `sequence` (> 0), and the params carry the call options.
 * Packets this chain sent: `getPacketCommitment` (`undefined` once acknowledged or timed out),
 * `getPacketCommitments` (all pages), `getUnreceivedAcks({ sequences })` (those still in flight).
 * Packets it received: `getPacketReceipt` (a boolean), `getPacketAcknowledgement` (`undefined` when
 * none), `getPacketAcknowledgements` (all, or of `sequences`), `getUnreceivedPackets({ sequences })`,
 * `getNextSequenceReceive` (0 on an unordered channel). ICS-20: `getDenomTrace({ denom })` (an
 * `ibc/<64 hex>` voucher or its hash; `undefined` when never minted), `getDenomTraces`,
 * `getEscrowAddress`, `getTotalEscrow({ denom })` (a bigint). A malformed identifier, sequence or
 * voucher is refused with an `InvalidArgumentError` naming it before the query leaves.
 * @example
 * ```ts
 * await ibcQueries.getPacketCommitment(client, { channelId: "channel-0", sequence: 999_999n }); // undefined
 * await ibcQueries.getPacketReceipt(client, { channelId: "channel-0", sequence: 999_999n }); // false
 * (await ibcQueries.getEscrowAddress(client, { channelId: "channel-0" })).startsWith("perpx1"); // true
 * (await ibcQueries.getTotalEscrow(client, { denom: "uusdc" })) >= 0n; // true
 * ```
 */
export const ibcQueries = {
  getPacketCommitment: defineQuery("getPacketCommitment", () => ibcChannel.Query.method.packetCommitment, {
    request: packet,
    pick: (r) => r.commitment,
    orUndefined: true,
  }),
  getPacketCommitments: definePagedQuery(
    "getPacketCommitments",
    () => ibcChannel.Query.method.packetCommitments,
    { request: channel, pick: (r) => r.commitments },
  ),
  getPacketReceipt: defineQuery("getPacketReceipt", () => ibcChannel.Query.method.packetReceipt, {
    request: packet,
    pick: (r) => r.received,
  }),
  getPacketAcknowledgement: defineQuery(
    "getPacketAcknowledgement",
    () => ibcChannel.Query.method.packetAcknowledgement,
    { request: packet, pick: (r) => r.acknowledgement, orUndefined: true },
  ),
  getPacketAcknowledgements: (
    client: NodeConnection,
    params: Sequences<true>,
  ): Promise<ibcChannel.PacketState[]> =>
    params?.sequences === undefined
      ? allAcknowledgements(client, params)
      : someAcknowledgements(client, params as Sequences<false>),
  getUnreceivedPackets: defineQuery("getUnreceivedPackets", () => ibcChannel.Query.method.unreceivedPackets, {
    request: sequences,
    pick: (r) => r.sequences,
  }),
  getUnreceivedAcks: defineQuery("getUnreceivedAcks", () => ibcChannel.Query.method.unreceivedAcks, {
    request: (p: Sequences<false>) => ({
      ...channel(p),
      packetAckSequences: sequenceList(p.sequences, "sequences"),
    }),
    pick: (r) => r.sequences,
  }),
  getNextSequenceReceive: defineQuery(
    "getNextSequenceReceive",
    () => ibcChannel.Query.method.nextSequenceReceive,
    { request: channel, pick: (r) => r.nextSequenceReceive },
  ),
  getDenomTrace: defineQuery("getDenomTrace", () => ibcTransfer.Query.method.denomTrace, {
    request: ({ denom }: QueryOptions & { denom: string }) => {
      if (typeof denom === "string" && VOUCHER.test(denom)) return { hash: denom.replace(/^ibc\//, "") };
      const got = JSON.stringify(String(denom));
      throw new InvalidArgumentError("denom", `must be an IBC voucher ibc/<64 hex> or its hash, got ${got}`);
    },
    pick: (r) => r.denomTrace,
    orUndefined: true,
  }),
  getDenomTraces: definePagedQuery("getDenomTraces", () => ibcTransfer.Query.method.denomTraces, {
    pick: (r) => r.denomTraces,
  }),
  getEscrowAddress: defineQuery("getEscrowAddress", () => ibcTransfer.Query.method.escrowAddress, {
    request: channel,
    pick: (r) => r.escrowAddress,
  }),
  getTotalEscrow: defineQuery("getTotalEscrow", () => ibcTransfer.Query.method.totalEscrowForDenom, {
    request: ({ denom }: QueryOptions & { denom: string }) => ({ denom: nonEmpty(denom, "denom") }),
    pick: (r, path) => (r.amount === undefined ? 0n : coinAmount(r.amount.amount, path, "amount.amount")),
  }),
} as const;
