/**
 * The end of an outgoing ICS-20 packet's life on this chain, as ibc-go v8 runs `MsgAcknowledgement`
 * and `MsgTimeout` (and `MsgTimeoutOnClose`): the packet commitment is deleted, the core event
 * (`acknowledge_packet`, `timeout_packet`) is emitted, then the application stack runs: x/ratelimit
 * first (a success acknowledgement settles the pending send; an error acknowledgement or a timeout
 * undoes it in every limiter, as dYdX's middleware does), then the transfer application (its
 * `fungible_token_packet` or `timeout` events, and the refund of an error acknowledgement or a
 * timeout: native coins come back out of the channel's escrow, vouchers that were burned on the way
 * home are minted again).
 *
 * Store slice `ibc/`: `packet/<port>/<channel>/<sequence:20>`: JSON {@link SentPacketRecord} of a
 * packet whose commitment is still here (removed with it).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { addressBytes } from "@perpx/address";
import type { Context } from "../../kernel/module.js";
import { fromUtf8, utf8 } from "../../lib/codec.js";
import type { Coin } from "../../lib/coins.js";
import type { AuthKeeper, StoreAccess } from "../auth/auth.js";
import type { BankKeeper } from "../bank/bank.js";
import type { RatelimitKeeper } from "../ratelimit/ratelimit.js";
import { padKey } from "../records.js";
import { addTotalEscrow, escrowAddress } from "./ibc-escrow.js";
import { type Ics20PacketData, packetKey } from "./ibc-packets.js";

const IBC = "ibc";

/** What this chain keeps of a packet it sent, until it is acknowledged or timed out. */
export interface SentPacketRecord {
  readonly sequence: string;
  readonly source_port: string;
  readonly source_channel: string;
  readonly destination_port: string;
  readonly destination_channel: string;
  readonly data: Ics20PacketData;
  /** `<revision number>-<revision height>` on the counterparty (`0-0`: none). */
  readonly timeout_height: string;
  /** Unix nanoseconds (`0`: none). */
  readonly timeout_timestamp: string;
  /** True when the coins wait in the channel's escrow; false when they were burned (a voucher home). */
  readonly escrowed: boolean;
  /** The block height the packet was sent at. */
  readonly sent_height?: string;
  /** The bank denom that left the sender (`ibc/<hash>` for a voucher). */
  readonly local_denom?: string;
  /** The denom whose rate limits the send used. */
  readonly rate_limit_denom?: string;
  /** A refund is wrapped again into this denom (a wrap `MsgWithdraw`) instead of paid as vouchers. */
  readonly refund_wrapped_as?: string;
}

/** The connection the devnet's channels run over, and their ordering, for the events. */
export interface ChannelFacts {
  readonly connectionId: string;
  readonly ordering: string;
}

/**
 * Offered the refund of a packet sent with `refund_wrapped_as`: `holder` holds the refunded
 * vouchers (an escrow account or the transfer module account); the hook takes them.
 */
export type RefundHook = (
  ctx: Context,
  refund: { holder: Uint8Array; receiver: Uint8Array; voucher: string; localDenom: string; amount: bigint },
) => void;

/** The keepers the lifecycle needs. */
export interface LifecycleDeps {
  readonly auth: AuthKeeper;
  readonly bank: BankKeeper;
  readonly ratelimit: RatelimitKeeper;
  readonly refundHook: RefundHook | undefined;
}

/** The store key of a sent packet's record. */
export function sentPacketKey(portId: string, channelId: string, sequence: bigint): string {
  return `packet/${portId}/${channelId}/${padKey(sequence, 20)}`;
}

/** Stores the record of a packet this chain sent. */
export function storeSentPacket(ctx: StoreAccess, record: SentPacketRecord): void {
  ctx
    .store(IBC)
    .set(
      sentPacketKey(record.source_port, record.source_channel, BigInt(record.sequence)),
      utf8(JSON.stringify(record)),
    );
}

/** The record of a packet this chain sent and that is still pending, or undefined. */
export function sentPacket(
  ctx: StoreAccess,
  portId: string,
  channelId: string,
  sequence: bigint,
): SentPacketRecord | undefined {
  if (!ctx.store(IBC).has(packetKey("commitment", portId, channelId, sequence))) return undefined;
  const bytes = ctx.store(IBC).get(sentPacketKey(portId, channelId, sequence));
  return bytes === undefined ? undefined : (JSON.parse(fromUtf8(bytes)) as SentPacketRecord);
}

/** Every packet this chain sent that is still pending (its commitment is here), in key order. */
export function pendingSentPackets(ctx: StoreAccess): SentPacketRecord[] {
  const out: SentPacketRecord[] = [];
  for (const [key, bytes] of ctx.store(IBC).entries("packet/")) {
    const record = JSON.parse(fromUtf8(bytes)) as SentPacketRecord;
    const [, portId = "", channelId = ""] = key.split("/");
    if (ctx.store(IBC).has(packetKey("commitment", portId, channelId, BigInt(record.sequence)))) {
      out.push(record);
    }
  }
  return out;
}

/** The timeout height of a record as numbers. */
export function timeoutHeightOf(record: SentPacketRecord): {
  revisionNumber: bigint;
  revisionHeight: bigint;
} {
  const [number = "0", height = "0"] = record.timeout_height.split("-");
  return { revisionNumber: BigInt(number), revisionHeight: BigInt(height) };
}

/** The bank denom that left the sender: stored, or derived from the packet's trace as ibc-go does. */
function localDenomOf(record: SentPacketRecord): string {
  if (record.local_denom !== undefined) return record.local_denom;
  const denom = record.data.denom;
  if (!denom.includes("/")) return denom;
  return `ibc/${Buffer.from(sha256(utf8(denom)))
    .toString("hex")
    .toUpperCase()}`;
}

/** The core event attributes ibc-go writes for a packet, in its order. */
function packetAttributes(record: SentPacketRecord, channel: ChannelFacts): Array<[string, string]> {
  return [
    ["packet_timeout_height", record.timeout_height],
    ["packet_timeout_timestamp", record.timeout_timestamp],
    ["packet_sequence", record.sequence],
    ["packet_src_port", record.source_port],
    ["packet_src_channel", record.source_channel],
    ["packet_dst_port", record.destination_port],
    ["packet_dst_channel", record.destination_channel],
    ["packet_channel_ordering", channel.ordering],
    ["packet_connection", channel.connectionId],
    ["connection_id", channel.connectionId],
  ];
}

/** Deletes the commitment and the record: the packet is no longer pending. */
function closePacket(ctx: Context, record: SentPacketRecord): void {
  const sequence = BigInt(record.sequence);
  const store = ctx.store(IBC);
  store.delete(packetKey("commitment", record.source_port, record.source_channel, sequence));
  store.delete(sentPacketKey(record.source_port, record.source_channel, sequence));
}

/**
 * ICS-20's refund of a failed packet (ibc-go `refundPacketToken`): out of the channel's escrow when
 * the coins were escrowed, else minted again (a voucher that was burned on its way home); paid to
 * the packet's sender, or handed to the refund hook for a wrapped withdrawal.
 */
function refund(deps: LifecycleDeps, ctx: Context, record: SentPacketRecord): void {
  const denom = localDenomOf(record);
  const amount = BigInt(record.data.amount);
  const coins: Coin[] = [{ denom, amount }];
  const receiver = addressBytes(record.data.sender);
  let holder: Uint8Array;
  if (record.escrowed) {
    holder = escrowAddress(record.source_port, record.source_channel);
    addTotalEscrow(ctx, denom, -amount);
  } else {
    deps.bank.mintCoins(ctx, "transfer", coins);
    holder = deps.auth.moduleAddress("transfer");
  }
  if (record.refund_wrapped_as !== undefined && deps.refundHook !== undefined) {
    deps.refundHook(ctx, { holder, receiver, voucher: denom, localDenom: record.refund_wrapped_as, amount });
  } else {
    deps.bank.sendCoins(ctx, holder, receiver, coins);
  }
}

/** How the counterparty answered a packet: the acknowledgement's JSON and what it means. */
export type PacketAcknowledgement =
  | { readonly success: true }
  | { readonly success: false; readonly error: string };

/** The gogoproto text form of an `Acknowledgement`, as ibc-go's `acknowledgement` attribute holds it. */
function acknowledgementText(ack: PacketAcknowledgement): string {
  return ack.success ? 'result:"\\001" ' : `error:${JSON.stringify(ack.error)} `;
}

/**
 * Runs `MsgAcknowledgement` for a pending packet: commitment deleted, `acknowledge_packet`, then
 * x/ratelimit (settle, or undo on an error) and ICS-20 (events; refund on an error).
 */
export function acknowledgeSentPacket(
  deps: LifecycleDeps,
  ctx: Context,
  record: SentPacketRecord,
  channel: ChannelFacts,
  ack: PacketAcknowledgement,
): void {
  closePacket(ctx, record);
  ctx.events.emitEvent("acknowledge_packet", packetAttributes(record, channel));
  const sequence = BigInt(record.sequence);
  if (ack.success) {
    deps.ratelimit.settleIbcSend(ctx, record.source_channel, sequence);
  } else {
    deps.ratelimit.undoIbcSend(
      ctx,
      record.source_channel,
      sequence,
      record.rate_limit_denom ?? localDenomOf(record),
      BigInt(record.data.amount),
    );
    refund(deps, ctx, record);
  }
  ctx.events.emitEvent("fungible_token_packet", [
    ["module", "transfer"],
    ["sender", record.data.sender],
    ["receiver", record.data.receiver],
    ["denom", record.data.denom],
    ["amount", record.data.amount],
    ["memo", record.data.memo],
    ["acknowledgement", acknowledgementText(ack)],
  ]);
  ctx.events.emitEvent(
    "fungible_token_packet",
    ack.success ? [["success", "\u0001"]] : [["error", ack.error]],
  );
}

/**
 * Runs `MsgTimeout` (or `MsgTimeoutOnClose`) for a pending packet: commitment deleted,
 * `timeout_packet`, then x/ratelimit's undo and ICS-20's refund with its `timeout` event.
 */
export function timeoutSentPacket(
  deps: LifecycleDeps,
  ctx: Context,
  record: SentPacketRecord,
  channel: ChannelFacts,
): void {
  closePacket(ctx, record);
  // ibc-go's timeout event: no deprecated `packet_connection`, the connection before the ordering.
  const attributes = packetAttributes(record, channel).slice(0, 7);
  attributes.push(["connection_id", channel.connectionId], ["packet_channel_ordering", channel.ordering]);
  ctx.events.emitEvent("timeout_packet", attributes);
  deps.ratelimit.undoIbcSend(
    ctx,
    record.source_channel,
    BigInt(record.sequence),
    record.rate_limit_denom ?? localDenomOf(record),
    BigInt(record.data.amount),
  );
  refund(deps, ctx, record);
  ctx.events.emitEvent("timeout", [
    ["module", "transfer"],
    ["refund_receiver", record.data.sender],
    ["refund_denom", record.data.denom],
    ["refund_amount", record.data.amount],
    ["memo", record.data.memo],
  ]);
}
