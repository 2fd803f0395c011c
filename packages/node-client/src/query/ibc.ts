/**
 * IBC packet state (ICS-04, `ibc.core.channel.v1.Query`) and ICS-20 denom traces
 * (`ibc.applications.transfer.v1.Query`): what a wallet or a bridge UI reads to follow a transfer:
 * the commitment of a packet this chain sent (there until its acknowledgement or timeout comes
 * back), the receipt and acknowledgement of a packet it received, which sequences are still
 * unrelayed, what an `ibc/<hash>` voucher is, and where and how much of this chain's coins wait in
 * escrow.
 */
import { type IntegerInput, InvalidArgumentError } from "@perpx/core";
import { ibcChannel, ibcTransfer } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { isQueryError } from "../errors.js";
import { checkParams, nonEmpty, positiveUint64 } from "../messages/validate.js";
import { allPages } from "./pages.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

/** ibc-go's identifier alphabet and length (ICS-24), for ports and channels. */
const IDENTIFIER = /^[a-zA-Z0-9._+\-#[\]<>]{2,128}$/;

function identifier(value: unknown, argument: string): string {
  if (typeof value !== "string" || !IDENTIFIER.test(value)) {
    throw new InvalidArgumentError(
      argument,
      `must be an IBC identifier (2 to 128 of a-z A-Z 0-9 . _ + - # [ ] < >), got ${JSON.stringify(String(value))}`,
    );
  }
  return value;
}

function sequenceList(value: unknown, argument: string): bigint[] {
  if (!Array.isArray(value)) throw new InvalidArgumentError(argument, "must be an array of packet sequences");
  return value.map((s: IntegerInput, i) => positiveUint64(s, `${argument}[${i}]`));
}

/**
 * A channel end: its port (`transfer` unless given) and channel id.
 *
 * @example
 * ```ts
 * const ref: IbcChannelParams = { channelId: "channel-0" };
 * ```
 */
export interface IbcChannelParams extends QueryOptions {
  /**
   * The port.
   * @default "transfer"
   */
  portId?: string;
  /** The channel, `channel-<n>`. */
  channelId: string;
}

/**
 * One packet on a channel end: the channel and the packet's sequence (from 1).
 *
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
 *
 * @example
 * ```ts
 * const ref: IbcSequencesParams = { channelId: "channel-0", sequences: [1n, 2n, 3n] };
 * ```
 */
export interface IbcSequencesParams extends IbcChannelParams {
  /** The packet sequences, each > 0. */
  sequences: readonly IntegerInput[];
}

function channelFields(params: IbcChannelParams): { portId: string; channelId: string } {
  return {
    portId: identifier(params.portId ?? "transfer", "portId"),
    channelId: identifier(params.channelId, "channelId"),
  };
}

/** The answer of a by-sequence query, or `undefined` when the node says it does not exist. */
async function orUndefined<T>(query: Promise<T>): Promise<T | undefined> {
  try {
    return await query;
  } catch (error) {
    if (isQueryError(error) && error.notFound) return undefined;
    throw error;
  }
}

/**
 * The commitment (32-byte hash) of a packet this chain sent, or `undefined` once there is none:
 * its acknowledgement or timeout came back (or it was never sent). While a commitment exists the
 * transfer is in flight.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`IbcPacketParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with the commitment (32-byte hash) of a packet this chain sent, or `undefined`
 *   once there is none: its acknowledgement or timeout came back (or it was never sent). While a
 *   commitment exists the transfer is in flight.
 * @throws {InvalidArgumentError} for a malformed channel or a sequence that is not > 0, before the query leaves.
 *
 * @example
 * ```ts
 * const sent = await client.ibcTransfer({ signer: wallet, sender: wallet.address, receiver: "noble1...", sourceChannel: "channel-0",
 *   token: { denom: "uusdc", amount: 1n }, timeoutTimestampNs: BigInt(Date.now() + 600_000) * 1_000_000n });
 * const packet = sent.events.find((e) => e.type === "send_packet");
 * const sequence = BigInt(packet?.attributes.find((a) => a.key === "packet_sequence")?.value ?? "0");
 * const inFlight = (await getPacketCommitment(client, { channelId: "channel-0", sequence })) !== undefined; // true: until acknowledged
 * ```
 */
export async function getPacketCommitment(
  client: NodeConnection,
  params: IbcPacketParams,
): Promise<Uint8Array | undefined> {
  checkParams(params, "getPacketCommitment");
  const request = { ...channelFields(params), sequence: positiveUint64(params.sequence, "sequence") };
  return orUndefined(
    unaryQuery(client, {
      ...params,
      method: ibcChannel.Query.method.packetCommitment,
      request: request,
    }).then((r) => r.commitment),
  );
}

/**
 * Every packet commitment of a channel end (all pages): the packets this chain sent that are still
 * in flight, each with its sequence and commitment in `data`.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`IbcChannelParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with every packet commitment of a channel end (all pages): the packets this
 *   chain sent that are still in flight, each with its sequence and commitment in `data`; rejects
 *   with `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const inFlight = (await getPacketCommitments(client, { channelId: "channel-0" })).map((p) => p.sequence);
 * ```
 */
export async function getPacketCommitments(
  client: NodeConnection,
  params: IbcChannelParams,
): Promise<ibcChannel.PacketState[]> {
  checkParams(params, "getPacketCommitments");
  return allPages(client, {
    ...params,
    method: ibcChannel.Query.method.packetCommitments,
    request: channelFields(params),
    pick: (r) => r.commitments,
  });
}

/**
 * Whether this chain received a packet (its receipt, on an unordered channel).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`IbcPacketParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with whether this chain received a packet (its receipt, on an unordered
 *   channel); rejects with `QueryError` when the node refuses the query (`notFound` set for a
 *   missing entry).
 * @example
 * ```ts
 * const received = await getPacketReceipt(client, { channelId: "channel-0", sequence: 4n });
 * ```
 */
export async function getPacketReceipt(client: NodeConnection, params: IbcPacketParams): Promise<boolean> {
  checkParams(params, "getPacketReceipt");
  const request = { ...channelFields(params), sequence: positiveUint64(params.sequence, "sequence") };
  const response = await unaryQuery(client, {
    ...params,
    method: ibcChannel.Query.method.packetReceipt,
    request: request,
  });
  return response.received;
}

/**
 * The commitment (32-byte hash) of the acknowledgement this chain wrote for a packet it received,
 * or `undefined` when it wrote none.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`IbcPacketParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with the commitment (32-byte hash) of the acknowledgement this chain wrote for
 *   a packet it received, or `undefined` when it wrote none; rejects with `QueryError` when the
 *   node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const ack = await getPacketAcknowledgement(client, { channelId: "channel-0", sequence: 4n });
 * ```
 */
export async function getPacketAcknowledgement(
  client: NodeConnection,
  params: IbcPacketParams,
): Promise<Uint8Array | undefined> {
  checkParams(params, "getPacketAcknowledgement");
  const request = { ...channelFields(params), sequence: positiveUint64(params.sequence, "sequence") };
  return orUndefined(
    unaryQuery(client, {
      ...params,
      method: ibcChannel.Query.method.packetAcknowledgement,
      request: request,
    }).then((r) => r.acknowledgement),
  );
}

/**
 * Parameters of {@link getPacketAcknowledgements}.
 *
 * @example
 * ```ts
 * await getPacketAcknowledgements(client, { channelId: "channel-0", sequences: [4n, 5n] });
 * ```
 */
export interface GetPacketAcknowledgementsParams extends IbcChannelParams {
  /**
   * Only these sequences (those with an acknowledgement are answered).
   * @default every acknowledgement of the channel end (all pages)
   */
  sequences?: readonly IntegerInput[];
}

/**
 * The acknowledgement commitments this chain wrote on a channel end, each with its sequence and
 * commitment in `data`.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`GetPacketAcknowledgementsParams`: each field is documented there),
 *   with the call options `signal` and `timeoutMs`.
 * @returns resolves with the acknowledgement commitments this chain wrote on a channel end, each
 *   with its sequence and commitment in `data`; rejects with `QueryError` when the node refuses the
 *   query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const acks = await getPacketAcknowledgements(client, { channelId: "channel-0" });
 * ```
 */
export async function getPacketAcknowledgements(
  client: NodeConnection,
  params: GetPacketAcknowledgementsParams,
): Promise<ibcChannel.PacketState[]> {
  checkParams(params, "getPacketAcknowledgements");
  const fields = channelFields(params);
  if (params.sequences !== undefined) {
    const packetCommitmentSequences = sequenceList(params.sequences, "sequences");
    const response = await unaryQuery(client, {
      ...params,
      method: ibcChannel.Query.method.packetAcknowledgements,
      request: { ...fields, packetCommitmentSequences },
    });
    return response.acknowledgements;
  }
  return allPages(client, {
    ...params,
    method: ibcChannel.Query.method.packetAcknowledgements,
    request: fields,
    pick: (r) => r.acknowledgements,
  });
}

/**
 * Of the given sequences of packets the counterparty sent over this channel end, those this chain
 * has not received yet (what a relayer still has to deliver).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`IbcSequencesParams`: each field is documented there), with the
 *   call options `signal` and `timeoutMs`.
 * @returns resolves with the sequences (of those given) the relayer still has to deliver here;
 *   rejects with `QueryError` when the node refuses the query.
 * @example
 * ```ts
 * await getUnreceivedPackets(client, { channelId: "channel-0", sequences: [1n, 2n] }); // [1n, 2n]: nothing came in over channel-0 yet
 * ```
 */
export async function getUnreceivedPackets(
  client: NodeConnection,
  params: IbcSequencesParams,
): Promise<bigint[]> {
  checkParams(params, "getUnreceivedPackets");
  const request = {
    ...channelFields(params),
    packetCommitmentSequences: sequenceList(params.sequences, "sequences"),
  };
  const response = await unaryQuery(client, {
    ...params,
    method: ibcChannel.Query.method.unreceivedPackets,
    request: request,
  });
  return response.sequences;
}

/**
 * Of the given sequences of packets this chain sent, those whose acknowledgement it has not
 * received yet (their commitments are still here).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`IbcSequencesParams`: each field is documented there), with the
 *   call options `signal` and `timeoutMs`.
 * @returns resolves with the sequences (of those given) whose acknowledgement this chain still
 *   waits for; rejects with `QueryError` when the node refuses the query.
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
export async function getUnreceivedAcks(
  client: NodeConnection,
  params: IbcSequencesParams,
): Promise<bigint[]> {
  checkParams(params, "getUnreceivedAcks");
  const request = {
    ...channelFields(params),
    packetAckSequences: sequenceList(params.sequences, "sequences"),
  };
  const response = await unaryQuery(client, {
    ...params,
    method: ibcChannel.Query.method.unreceivedAcks,
    request: request,
  });
  return response.sequences;
}

/**
 * The next sequence this chain expects on an ordered channel end; 0 on an unordered one (ICS-20
 * channels are unordered and do not use it).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`IbcChannelParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with the next sequence this chain expects on an ordered channel end; 0 on an
 *   unordered one (ICS-20 channels are unordered and do not use it); rejects with `QueryError` when
 *   the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const next = await getNextSequenceReceive(client, { channelId: "channel-0" }); // 0n for a transfer channel
 * ```
 */
export async function getNextSequenceReceive(
  client: NodeConnection,
  params: IbcChannelParams,
): Promise<bigint> {
  checkParams(params, "getNextSequenceReceive");
  const response = await unaryQuery(client, {
    ...params,
    method: ibcChannel.Query.method.nextSequenceReceive,
    request: channelFields(params),
  });
  return response.nextSequenceReceive;
}

/**
 * Parameters of {@link getDenomTrace}.
 *
 * @example
 * ```ts
 * const params: GetDenomTraceParams = { denom: "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2" };
 * ```
 */
export interface GetDenomTraceParams extends QueryOptions {
  /** The voucher, `ibc/<64 hex>`, or its hash alone. */
  denom: string;
}

const VOUCHER = /^(ibc\/)?[0-9A-Fa-f]{64}$/;

/**
 * What an `ibc/<hash>` voucher is: its trace path (`transfer/channel-0`) and base denom (`uusdc`),
 * or `undefined` for a hash this chain has never minted.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`GetDenomTraceParams`: each field is documented there), with the
 *   call options `signal` and `timeoutMs`.
 * @returns resolves with what an `ibc/<hash>` voucher is: its trace path (`transfer/channel-0`) and
 *   base denom (`uusdc`), or `undefined` for a hash this chain has never minted.
 * @throws {InvalidArgumentError} for a denom that is not `ibc/<64 hex>` (or the hash alone), before the query leaves.
 *
 * @example
 * ```ts
 * // The voucher of ATOM received over channel-0: ibc/ + SHA-256 of "transfer/channel-0/uatom".
 * const voucher = "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2";
 * const trace = await getDenomTrace(client, { denom: voucher }); // undefined: no ATOM came in over channel-0 yet
 * ```
 */
export async function getDenomTrace(
  client: NodeConnection,
  params: GetDenomTraceParams,
): Promise<ibcTransfer.DenomTrace | undefined> {
  checkParams(params, "getDenomTrace");
  if (typeof params.denom !== "string" || !VOUCHER.test(params.denom)) {
    throw new InvalidArgumentError(
      "denom",
      `must be an IBC voucher ibc/<64 hex> or its hash, got ${JSON.stringify(String(params.denom))}`,
    );
  }
  const hash = params.denom.replace(/^ibc\//, "");
  return orUndefined(
    unaryQuery(client, { ...params, method: ibcTransfer.Query.method.denomTrace, request: { hash } }).then(
      (r) => r.denomTrace,
    ),
  );
}

/**
 * Every denom trace of the vouchers this chain has minted (all pages).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport` (grpc or rpc), `height` (read a past state), `signal`
 *   and `timeoutMs`.
 * @returns resolves with every denom trace of the vouchers this chain has minted (all pages);
 *   rejects with `QueryError` when the node refuses the query (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const traces = await getDenomTraces(client);
 * ```
 */
export async function getDenomTraces(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<ibcTransfer.DenomTrace[]> {
  checkParams(params, "getDenomTraces", true);
  return allPages(client, {
    ...params,
    method: ibcTransfer.Query.method.denomTraces,
    request: {},
    pick: (r) => r.denomTraces,
  });
}

/**
 * The ICS-20 escrow account of a channel end: where coins of this chain sent over it wait until
 * they come back.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`IbcChannelParams`: each field is documented there), with the call
 *   options `signal` and `timeoutMs`.
 * @returns resolves with the ICS-20 escrow account of a channel end: where coins of this chain sent
 *   over it wait until they come back; rejects with `QueryError` when the node refuses the query
 *   (`notFound` set for a missing entry).
 * @example
 * ```ts
 * const escrow = await getEscrowAddress(client, { channelId: "channel-0" }); // "perpx1..."
 * ```
 */
export async function getEscrowAddress(client: NodeConnection, params: IbcChannelParams): Promise<string> {
  checkParams(params, "getEscrowAddress");
  const response = await unaryQuery(client, {
    ...params,
    method: ibcTransfer.Query.method.escrowAddress,
    request: channelFields(params),
  });
  return response.escrowAddress;
}

/**
 * Parameters of {@link getTotalEscrow}.
 *
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
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - what to read (`GetTotalEscrowParams`: each field is documented there), with the
 *   call options `signal` and `timeoutMs`.
 * @returns resolves with how much of a denom this chain holds in escrow over every channel, in base
 *   units; rejects with `QueryError` when the node refuses the query (`notFound` set for a missing
 *   entry).
 * @example
 * ```ts
 * const escrowed = await getTotalEscrow(client, { denom: "uusdc" }); // 1234n
 * ```
 */
export async function getTotalEscrow(client: NodeConnection, params: GetTotalEscrowParams): Promise<bigint> {
  checkParams(params, "getTotalEscrow");
  const denom = nonEmpty(params.denom, "denom");
  const response = await unaryQuery(client, {
    ...params,
    method: ibcTransfer.Query.method.totalEscrowForDenom,
    request: { denom },
  });
  return BigInt(response.amount?.amount || "0");
}
