/**
 * IBC packet state (ICS-04) and ICS-20 vouchers and escrow, as rows over {@link defineQuery}: what a
 * wallet or a bridge UI reads to follow a transfer.
 */
import { type IntegerInput, InvalidArgumentError } from "@perpx/core";
import { ibcChannel, ibcTransfer } from "@perpx/proto";
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

/**
 * A channel end: its port (`transfer` unless given) and channel id.
 * @example
 * ```ts
 * const ref: IbcChannelParams = { channelId: "channel-0" };
 * ```
 */
export interface IbcChannelParams extends QueryOptions {
  /** The port. @default "transfer" */
  portId?: string;
  /** The channel, `channel-<n>`. */
  channelId: string;
}

/**
 * One packet on a channel end: the channel and the packet's sequence (from 1).
 * @example
 * ```ts
 * const ref: IbcPacketParams = { channelId: "channel-0", sequence: 1n };
 * ```
 */
export interface IbcPacketParams extends IbcChannelParams {
  /** The packet sequence, > 0 (a `MsgTransfer`'s response carries it). */
  sequence: IntegerInput;
}

/**
 * Packet sequences on a channel end.
 * @example
 * ```ts
 * const ref: IbcSequencesParams = { channelId: "channel-0", sequences: [1n, 2n, 3n] };
 * ```
 */
export interface IbcSequencesParams extends IbcChannelParams {
  /** The packet sequences, each > 0. */
  sequences: readonly IntegerInput[];
}

const channel = (p: IbcChannelParams) => ({
  portId: identifier(p.portId ?? "transfer", "portId"),
  channelId: identifier(p.channelId, "channelId"),
});
const packet = (p: IbcPacketParams) => ({ ...channel(p), sequence: positiveUint64(p.sequence, "sequence") });

/**
 * The commitment (32-byte hash) of a packet this chain sent: there while the transfer is in flight.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the packet (`IbcPacketParams`), with the call options.
 * @returns the commitment, or `undefined` once its acknowledgement or timeout came back.
 * @throws {InvalidArgumentError} for a malformed channel or a sequence not > 0, before the query leaves.
 * @example
 * ```ts
 * await getPacketCommitment(client, { channelId: "channel-0", sequence: 999_999n }); // undefined
 * ```
 */
export const getPacketCommitment = defineQuery(
  "getPacketCommitment",
  () => ibcChannel.Query.method.packetCommitment,
  {
    request: packet,
    pick: (r) => r.commitment,
    orUndefined: true,
  },
);

/**
 * Every packet commitment of a channel end (all pages): the packets this chain sent still in flight.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the channel end (`IbcChannelParams`), with the call options.
 * @returns each packet's sequence and commitment (`data`).
 * @example
 * ```ts
 * const inFlight = (await getPacketCommitments(client, { channelId: "channel-0" })).map((p) => p.sequence);
 * ```
 */
export const getPacketCommitments = definePagedQuery(
  "getPacketCommitments",
  () => ibcChannel.Query.method.packetCommitments,
  { request: channel, pick: (r) => r.commitments },
);

/**
 * Whether this chain received a packet (its receipt, on an unordered channel).
 * @param client - the node client (from `createNodeClient`).
 * @param params - the packet (`IbcPacketParams`), with the call options.
 * @returns whether the receipt exists.
 * @example
 * ```ts
 * await getPacketReceipt(client, { channelId: "channel-0", sequence: 999_999n }); // false
 * ```
 */
export const getPacketReceipt = defineQuery("getPacketReceipt", () => ibcChannel.Query.method.packetReceipt, {
  request: packet,
  pick: (r) => r.received,
});

/**
 * The commitment (32-byte hash) of the acknowledgement this chain wrote for a packet it received.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the packet (`IbcPacketParams`), with the call options.
 * @returns the commitment, or `undefined` when it wrote none.
 * @example
 * ```ts
 * await getPacketAcknowledgement(client, { channelId: "channel-0", sequence: 999_999n }); // undefined
 * ```
 */
export const getPacketAcknowledgement = defineQuery(
  "getPacketAcknowledgement",
  () => ibcChannel.Query.method.packetAcknowledgement,
  { request: packet, pick: (r) => r.acknowledgement, orUndefined: true },
);

/**
 * Parameters of {@link getPacketAcknowledgements}.
 * @example
 * ```ts
 * await getPacketAcknowledgements(client, { channelId: "channel-0", sequences: [4n, 5n] });
 * ```
 */
export interface GetPacketAcknowledgementsParams extends IbcChannelParams {
  /** Only these sequences (those with an acknowledgement are answered). @default every one (all pages) */
  sequences?: readonly IntegerInput[];
}

const acknowledgements = () => ibcChannel.Query.method.packetAcknowledgements;
const allAcknowledgements = definePagedQuery("getPacketAcknowledgements", acknowledgements, {
  request: channel,
  pick: (r) => r.acknowledgements,
});
const someAcknowledgements = defineQuery("getPacketAcknowledgements", acknowledgements, {
  request: (p: GetPacketAcknowledgementsParams) => ({
    ...channel(p),
    packetCommitmentSequences: sequenceList(p.sequences, "sequences"),
  }),
  pick: (r) => r.acknowledgements,
});

/**
 * The acknowledgement commitments this chain wrote on a channel end (all, or of given sequences).
 * @param client - the node client (from `createNodeClient`).
 * @param params - the channel end and sequences (`GetPacketAcknowledgementsParams`), with the call options.
 * @returns each acknowledgement's sequence and commitment (`data`).
 * @example
 * ```ts
 * const acks = await getPacketAcknowledgements(client, { channelId: "channel-0" });
 * ```
 */
export const getPacketAcknowledgements: (
  client: Parameters<typeof allAcknowledgements>[0],
  params: GetPacketAcknowledgementsParams,
) => Promise<ibcChannel.PacketState[]> = (client, params) =>
  params?.sequences === undefined
    ? allAcknowledgements(client, params)
    : someAcknowledgements(client, params);

/**
 * Of the given sequences of packets the counterparty sent here, those this chain has not received.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the channel end and sequences (`IbcSequencesParams`), with the call options.
 * @returns the sequences a relayer still has to deliver.
 * @example
 * ```ts
 * await getUnreceivedPackets(client, { channelId: "channel-0", sequences: [1n, 2n] }); // [1n, 2n]
 * ```
 */
export const getUnreceivedPackets = defineQuery(
  "getUnreceivedPackets",
  () => ibcChannel.Query.method.unreceivedPackets,
  {
    request: (p: IbcSequencesParams) => ({
      ...channel(p),
      packetCommitmentSequences: sequenceList(p.sequences, "sequences"),
    }),
    pick: (r) => r.sequences,
  },
);

/**
 * Of the given sequences of packets this chain sent, those whose acknowledgement has not come back.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the channel end and sequences (`IbcSequencesParams`), with the call options.
 * @returns the sequences still in flight.
 * @example
 * ```ts
 * const sent = await client.ibcTransfer({ signer: wallet, sender: wallet.address, receiver: "noble1...", sourceChannel: "channel-0",
 *   token: { denom: "uusdc", amount: 1n }, timeoutTimestampNs: BigInt(Date.now() + 600_000) * 1_000_000n });
 * const packet = sent.events.find((e) => e.type === "send_packet");
 * const sequence = BigInt(packet?.attributes.find((a) => a.key === "packet_sequence")?.value ?? "0");
 * // In flight until a relayer brings the counterparty's acknowledgement back (the devnet's, 2 blocks later).
 * let inFlight = await getUnreceivedAcks(client, { channelId: "channel-0", sequences: [sequence] });
 * while (inFlight.length > 0) inFlight = await getUnreceivedAcks(client, { channelId: "channel-0", sequences: [sequence] });
 * inFlight; // []
 * ```
 */
export const getUnreceivedAcks = defineQuery(
  "getUnreceivedAcks",
  () => ibcChannel.Query.method.unreceivedAcks,
  {
    request: (p: IbcSequencesParams) => ({
      ...channel(p),
      packetAckSequences: sequenceList(p.sequences, "sequences"),
    }),
    pick: (r) => r.sequences,
  },
);

/**
 * The next sequence this chain expects on an ordered channel end; 0 on an unordered (ICS-20) one.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the channel end (`IbcChannelParams`), with the call options.
 * @returns the next sequence.
 * @example
 * ```ts
 * await getNextSequenceReceive(client, { channelId: "channel-0" }); // 0n
 * ```
 */
export const getNextSequenceReceive = defineQuery(
  "getNextSequenceReceive",
  () => ibcChannel.Query.method.nextSequenceReceive,
  { request: channel, pick: (r) => r.nextSequenceReceive },
);

/**
 * Parameters of {@link getDenomTrace}.
 * @example
 * ```ts
 * const params: GetDenomTraceParams = { denom: "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2" };
 * ```
 */
export interface GetDenomTraceParams extends QueryOptions {
  /** The voucher, `ibc/<64 hex>`, or its hash alone. */
  denom: string;
}

/**
 * What an `ibc/<hash>` voucher is: its trace path (`transfer/channel-0`) and base denom (`uusdc`).
 * @param client - the node client (from `createNodeClient`).
 * @param params - the voucher (`GetDenomTraceParams`), with the call options.
 * @returns the trace, or `undefined` for a hash this chain has never minted.
 * @throws {InvalidArgumentError} for a denom that is not `ibc/<64 hex>` (or the hash alone), before the query leaves.
 * @example
 * ```ts
 * await getDenomTrace(client, { denom: "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2" }); // undefined
 * ```
 */
export const getDenomTrace = defineQuery("getDenomTrace", () => ibcTransfer.Query.method.denomTrace, {
  request: ({ denom }: GetDenomTraceParams) => {
    if (typeof denom === "string" && VOUCHER.test(denom)) return { hash: denom.replace(/^ibc\//, "") };
    const got = JSON.stringify(String(denom));
    throw new InvalidArgumentError("denom", `must be an IBC voucher ibc/<64 hex> or its hash, got ${got}`);
  },
  pick: (r) => r.denomTrace,
  orUndefined: true,
});

/**
 * Every denom trace of the vouchers this chain has minted (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the traces.
 * @example
 * ```ts
 * const traces = await getDenomTraces(client);
 * ```
 */
export const getDenomTraces = definePagedQuery("getDenomTraces", () => ibcTransfer.Query.method.denomTraces, {
  pick: (r) => r.denomTraces,
});

/**
 * The ICS-20 escrow account of a channel end, where coins sent over it wait until they come back.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the channel end (`IbcChannelParams`), with the call options.
 * @returns the escrow address.
 * @example
 * ```ts
 * (await getEscrowAddress(client, { channelId: "channel-0" })).startsWith("perpx1"); // true
 * ```
 */
export const getEscrowAddress = defineQuery(
  "getEscrowAddress",
  () => ibcTransfer.Query.method.escrowAddress,
  {
    request: channel,
    pick: (r) => r.escrowAddress,
  },
);

/**
 * Parameters of {@link getTotalEscrow}.
 * @example
 * ```ts
 * await getTotalEscrow(client, { denom: "uusdc" });
 * ```
 */
export interface GetTotalEscrowParams extends QueryOptions {
  /** The denom, e.g. `uusdc`. */
  denom: string;
}

/**
 * How much of a denom this chain holds in escrow over every channel, in base units.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the denom (`GetTotalEscrowParams`), with the call options.
 * @returns the escrowed amount.
 * @example
 * ```ts
 * (await getTotalEscrow(client, { denom: "uusdc" })) >= 0n; // true
 * ```
 */
export const getTotalEscrow = defineQuery(
  "getTotalEscrow",
  () => ibcTransfer.Query.method.totalEscrowForDenom,
  {
    request: ({ denom }: GetTotalEscrowParams) => ({ denom: nonEmpty(denom, "denom") }),
    pick: (r) => BigInt(r.amount?.amount || "0"),
  },
);
