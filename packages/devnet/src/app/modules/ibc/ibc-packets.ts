/**
 * ICS-04 packet state of the devnet's IBC channels, as ibc-go keeps it, and its queries:
 *
 * - a packet this chain sends leaves a commitment, `sha256(timeout_timestamp ‖ timeout revision
 *   number ‖ timeout revision height ‖ sha256(data))` (8-byte big-endian integers), until its
 *   acknowledgement or timeout comes back (the simulated relayer, `ibc-relayer.ts`, delivers both);
 * - a packet this chain receives leaves a receipt (unordered channels) and the commitment of the
 *   acknowledgement it wrote, `sha256(ack)`; an ICS-20 success acknowledgement is
 *   `{"result":"AQ=="}`.
 *
 * Store slice `ibc/`: `commitment/<port>/<channel>/<sequence:20>` (32 bytes),
 * `receipt/<port>/<channel>/<sequence:20>` (0x01), `ack/<port>/<channel>/<sequence:20>` (32 bytes),
 * beside `recv_sequence/<port>/<channel>` (the next sequence to receive) of `ibc.ts`.
 */
import { create } from "@bufbuild/protobuf";
import { sha256 } from "@noble/hashes/sha2.js";
import { ibcChannel, ibcClient } from "@perpx/proto";
import {
  invalidArgument,
  notFound,
  type QueryContext,
  type QueryHandler,
  queryHandler,
} from "../../kernel/module.js";
import { concatBytes, decodeU64, encodeU64, utf8 } from "../../lib/codec.js";
import { paginate } from "../../lib/pagination.js";
import type { StoreAccess } from "../auth/auth.js";
import { padKey, readRecord, revisionOf } from "../records.js";

const IBC = "ibc";

/** The fields of an ICS-20 packet (`FungibleTokenPacketData`). */
export interface Ics20PacketData {
  readonly denom: string;
  readonly amount: string;
  readonly sender: string;
  readonly receiver: string;
  readonly memo: string;
}

/**
 * The bytes of an ICS-20 packet's data as ibc-go writes them: proto JSON with the original field
 * names, keys sorted, an empty memo left out.
 */
export function ics20PacketBytes(data: Ics20PacketData): Uint8Array {
  const fields: Record<string, string> = {
    amount: data.amount,
    denom: data.denom,
    ...(data.memo === "" ? {} : { memo: data.memo }),
    receiver: data.receiver,
    sender: data.sender,
  };
  return utf8(JSON.stringify(fields));
}

/** The commitment of a sent packet (ICS-04 `CommitPacket`). */
export function packetCommitment(packet: {
  readonly timeoutTimestamp: bigint;
  readonly timeoutHeight: { readonly revisionNumber: bigint; readonly revisionHeight: bigint };
  readonly data: Uint8Array;
}): Uint8Array {
  return sha256(
    concatBytes(
      encodeU64(packet.timeoutTimestamp),
      encodeU64(packet.timeoutHeight.revisionNumber),
      encodeU64(packet.timeoutHeight.revisionHeight),
      sha256(packet.data),
    ),
  );
}

/** The acknowledgement an ICS-20 application writes for a packet it accepted: `{"result":"AQ=="}`. */
export const ICS20_SUCCESS_ACK: Uint8Array = utf8('{"result":"AQ=="}');

/** The store key of a packet's state of `kind` under the `ibc/` slice. */
export function packetKey(
  kind: "commitment" | "receipt" | "ack",
  portId: string,
  channelId: string,
  sequence: bigint,
): string {
  return `${kind}/${portId}/${channelId}/${padKey(sequence, 20)}`;
}

/** Records the commitment of a packet this chain sent. */
export function commitSentPacket(
  ctx: StoreAccess,
  portId: string,
  channelId: string,
  sequence: bigint,
  commitment: Uint8Array,
): void {
  ctx.store(IBC).set(packetKey("commitment", portId, channelId, sequence), commitment);
}

/** Records the receipt of a packet this chain received and the commitment of its acknowledgement. */
export function recordReceivedPacket(
  ctx: StoreAccess,
  portId: string,
  channelId: string,
  sequence: bigint,
  acknowledgement: Uint8Array,
): void {
  const store = ctx.store(IBC);
  store.set(packetKey("receipt", portId, channelId, sequence), Uint8Array.of(1));
  store.set(packetKey("ack", portId, channelId, sequence), sha256(acknowledgement));
}

function height(ctx: QueryContext) {
  return create(ibcClient.HeightSchema, {
    revisionNumber: revisionOf(ctx.block.chainId),
    revisionHeight: ctx.block.height,
  });
}

const IDENTIFIER = /^[a-zA-Z0-9._+\-#[\]<>]{2,128}$/;

/** ibc-go's identifier checks of a query's port and channel (sdk 18, InvalidArgument). */
function checkIds(req: { portId: string; channelId: string }): void {
  if (!IDENTIFIER.test(req.portId)) throw invalidArgument(`invalid port ID: ${JSON.stringify(req.portId)}`);
  if (!IDENTIFIER.test(req.channelId)) {
    throw invalidArgument(`invalid channel ID: ${JSON.stringify(req.channelId)}`);
  }
}

function checkSequence(sequence: bigint): void {
  if (sequence === 0n) throw invalidArgument("packet sequence cannot be 0");
}

function channelOf(ctx: QueryContext, portId: string, channelId: string): ibcChannel.Channel {
  const channel = readRecord(ctx, IBC, `channel/${portId}/${channelId}`, ibcChannel.ChannelSchema);
  if (channel === undefined) {
    throw notFound(`port-id: ${portId}, channel-id: ${channelId}: channel not found`);
  }
  return channel;
}

/** Every packet state of `kind` on a channel, in sequence order, keyed by store key. */
function statesOf(ctx: QueryContext, kind: "commitment" | "ack", portId: string, channelId: string) {
  const prefix = `${kind}/${portId}/${channelId}/`;
  return [...ctx.store(IBC).entries(prefix)].map(([key, data]) => ({
    key: utf8(key),
    value: create(ibcChannel.PacketStateSchema, {
      portId,
      channelId,
      sequence: BigInt(key.slice(prefix.length)),
      data,
    }),
  }));
}

function nextSequenceRecv(ctx: QueryContext, portId: string, channelId: string): bigint {
  const bytes = ctx.store(IBC).get(`recv_sequence/${portId}/${channelId}`);
  return bytes === undefined ? 1n : decodeU64(bytes);
}

/** The ICS-04 packet-state queries of `ibc.core.channel.v1.Query`, by gRPC method path. */
export function packetQueries(): Record<string, QueryHandler> {
  const Q = "/ibc.core.channel.v1.Query";
  return {
    [`${Q}/PacketCommitment`]: queryHandler(
      () => ibcChannel.QueryPacketCommitmentRequestSchema,
      () => ibcChannel.QueryPacketCommitmentResponseSchema,
      (ctx, req) => {
        checkIds(req);
        checkSequence(req.sequence);
        const commitment = ctx
          .store(IBC)
          .get(packetKey("commitment", req.portId, req.channelId, req.sequence));
        if (commitment === undefined) throw notFound("packet commitment hash not found");
        return create(ibcChannel.QueryPacketCommitmentResponseSchema, {
          commitment,
          proofHeight: height(ctx),
        });
      },
    ),
    [`${Q}/PacketCommitments`]: queryHandler(
      () => ibcChannel.QueryPacketCommitmentsRequestSchema,
      () => ibcChannel.QueryPacketCommitmentsResponseSchema,
      (ctx, req) => {
        checkIds(req);
        channelOf(ctx, req.portId, req.channelId);
        const { page, pagination } = paginate(
          statesOf(ctx, "commitment", req.portId, req.channelId),
          req.pagination,
        );
        return create(ibcChannel.QueryPacketCommitmentsResponseSchema, {
          commitments: page,
          pagination,
          height: height(ctx),
        });
      },
    ),
    [`${Q}/PacketReceipt`]: queryHandler(
      () => ibcChannel.QueryPacketReceiptRequestSchema,
      () => ibcChannel.QueryPacketReceiptResponseSchema,
      (ctx, req) => {
        checkIds(req);
        checkSequence(req.sequence);
        const received = ctx.store(IBC).has(packetKey("receipt", req.portId, req.channelId, req.sequence));
        return create(ibcChannel.QueryPacketReceiptResponseSchema, { received, proofHeight: height(ctx) });
      },
    ),
    [`${Q}/PacketAcknowledgement`]: queryHandler(
      () => ibcChannel.QueryPacketAcknowledgementRequestSchema,
      () => ibcChannel.QueryPacketAcknowledgementResponseSchema,
      (ctx, req) => {
        checkIds(req);
        checkSequence(req.sequence);
        const ack = ctx.store(IBC).get(packetKey("ack", req.portId, req.channelId, req.sequence));
        if (ack === undefined) throw notFound("packet acknowledgement hash not found");
        return create(ibcChannel.QueryPacketAcknowledgementResponseSchema, {
          acknowledgement: ack,
          proofHeight: height(ctx),
        });
      },
    ),
    [`${Q}/PacketAcknowledgements`]: queryHandler(
      () => ibcChannel.QueryPacketAcknowledgementsRequestSchema,
      () => ibcChannel.QueryPacketAcknowledgementsResponseSchema,
      (ctx, req) => {
        checkIds(req);
        channelOf(ctx, req.portId, req.channelId);
        if (req.packetCommitmentSequences.length > 0) {
          // The acknowledgements of the given sequences that exist, unpaginated (as ibc-go).
          const store = ctx.store(IBC);
          const acknowledgements = req.packetCommitmentSequences.flatMap((sequence) => {
            const data = store.get(packetKey("ack", req.portId, req.channelId, sequence));
            return data === undefined
              ? []
              : [
                  create(ibcChannel.PacketStateSchema, {
                    portId: req.portId,
                    channelId: req.channelId,
                    sequence,
                    data,
                  }),
                ];
          });
          return create(ibcChannel.QueryPacketAcknowledgementsResponseSchema, {
            acknowledgements,
            height: height(ctx),
          });
        }
        const { page, pagination } = paginate(
          statesOf(ctx, "ack", req.portId, req.channelId),
          req.pagination,
        );
        return create(ibcChannel.QueryPacketAcknowledgementsResponseSchema, {
          acknowledgements: page,
          pagination,
          height: height(ctx),
        });
      },
    ),
    [`${Q}/UnreceivedPackets`]: queryHandler(
      () => ibcChannel.QueryUnreceivedPacketsRequestSchema,
      () => ibcChannel.QueryUnreceivedPacketsResponseSchema,
      (ctx, req) => {
        checkIds(req);
        const channel = channelOf(ctx, req.portId, req.channelId);
        req.packetCommitmentSequences.forEach((sequence, i) => {
          if (sequence === 0n) throw invalidArgument(`packet sequence ${i} cannot be 0`);
        });
        const store = ctx.store(IBC);
        const next = nextSequenceRecv(ctx, req.portId, req.channelId);
        const sequences = req.packetCommitmentSequences.filter((sequence) =>
          channel.ordering === ibcChannel.Order.ORDERED
            ? sequence >= next
            : !store.has(packetKey("receipt", req.portId, req.channelId, sequence)),
        );
        return create(ibcChannel.QueryUnreceivedPacketsResponseSchema, { sequences, height: height(ctx) });
      },
    ),
    [`${Q}/UnreceivedAcks`]: queryHandler(
      () => ibcChannel.QueryUnreceivedAcksRequestSchema,
      () => ibcChannel.QueryUnreceivedAcksResponseSchema,
      (ctx, req) => {
        checkIds(req);
        channelOf(ctx, req.portId, req.channelId);
        req.packetAckSequences.forEach((sequence, i) => {
          if (sequence === 0n) throw invalidArgument(`packet sequence ${i} cannot be 0`);
        });
        const store = ctx.store(IBC);
        // An acknowledgement not yet received is one whose packet's commitment is still here.
        const sequences = req.packetAckSequences.filter((sequence) =>
          store.has(packetKey("commitment", req.portId, req.channelId, sequence)),
        );
        return create(ibcChannel.QueryUnreceivedAcksResponseSchema, { sequences, height: height(ctx) });
      },
    ),
    [`${Q}/NextSequenceReceive`]: queryHandler(
      () => ibcChannel.QueryNextSequenceReceiveRequestSchema,
      () => ibcChannel.QueryNextSequenceReceiveResponseSchema,
      (ctx, req) => {
        checkIds(req);
        const channel = channelOf(ctx, req.portId, req.channelId);
        // Unordered channels do not use the receive sequence: ibc-go answers 0 for them.
        const nextSequenceReceive =
          channel.ordering === ibcChannel.Order.UNORDERED
            ? 0n
            : nextSequenceRecv(ctx, req.portId, req.channelId);
        return create(ibcChannel.QueryNextSequenceReceiveResponseSchema, {
          nextSequenceReceive,
          proofHeight: height(ctx),
        });
      },
    ),
  };
}
