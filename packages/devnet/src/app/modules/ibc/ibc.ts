/**
 * ICS-20 transfers over the devnet's simulated IBC channels, extending the IBC module of
 * `records.ts` (channels and their queries): incoming packets (devnet control `receive`, offered to
 * a receive hook, the wrap module; coins of this chain coming back are released from their
 * channel's escrow account), channel recreation (control `recreate-channel`), outgoing `MsgTransfer`
 * (native coins escrowed in the channel's escrow account of `ibc-escrow.ts`, vouchers returning to
 * their source burned), packet sequences and records, and the end of a sent packet's life
 * (acknowledgement, timeout: `ibc-lifecycle.ts`). The module's wiring is in `ibc-module.ts`.
 *
 * Store slice `ibc/` (besides `channel/...` and `chain`):
 * - `send_sequence/<port>/<channel>`, `recv_sequence/<port>/<channel>`: u64 next sequence;
 * - `packet/<port>/<channel>/<sequence:20>`: JSON of a pending outgoing packet (`ibc-lifecycle.ts`);
 * - `denom_trace/<hash>`: the trace path (`transfer/channel-0/uusdc`) of a voucher;
 * - the ICS-04 packet state (commitments, receipts, acknowledgements) of `ibc-packets.ts`.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { ibcDenom } from "@perpx/core";
import { ibcChannel } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import { bech32Of } from "../../lib/addresses.js";
import { decodeU64, encodeU64, fromUtf8, utf8 } from "../../lib/codec.js";
import { abciError, registerError } from "../../lib/errors.js";
import type { AuthKeeper, StoreAccess } from "../auth/auth.js";
import type { BankKeeper } from "../bank/bank.js";
import type { RatelimitKeeper } from "../ratelimit/ratelimit.js";
import { readRecords, revisionOf } from "../records.js";
import { addTotalEscrow, escrowAddress } from "./ibc-escrow.js";
import {
  acknowledgeSentPacket,
  type ChannelFacts,
  type LifecycleDeps,
  type PacketAcknowledgement,
  type RefundHook,
  type SentPacketRecord,
  storeSentPacket,
  timeoutSentPacket,
} from "./ibc-lifecycle.js";
import {
  commitSentPacket,
  ICS20_SUCCESS_ACK,
  ics20PacketBytes,
  packetCommitment,
  recordReceivedPacket,
} from "./ibc-packets.js";

/** The store slice of the IBC module. */
export const IBC = "ibc";
/** The ICS-20 port. */
export const TRANSFER_PORT = "transfer";

/** Errors of the ICS-20 application (codespace `transfer`) and of channels (codespace `channel`). */
export const ibcErrors = {
  invalidDenom: registerError("transfer", 3, "invalid denomination for cross-chain transfer"),
  invalidAmount: registerError("transfer", 5, "invalid token amount"),
  channelNotFound: registerError("channel", 3, "channel not found"),
  invalidChannelState: registerError("channel", 5, "invalid channel state"),
  invalidPacket: registerError("channel", 13, "invalid packet"),
  packetTimeout: registerError("channel", 14, "packet timeout"),
} as const;

/** An incoming ICS-20 packet, as the devnet simulates it. */
export interface IncomingTransfer {
  readonly portId: string;
  readonly channelId: string;
  /** The denom as carried in the packet (the sender chain's denom), e.g. `uusdc`. */
  readonly denom: string;
  readonly amount: bigint;
  /** The sender on the counterparty chain (not checked). */
  readonly sender: string;
  /** 20 bytes of the receiver on this chain. */
  readonly receiver: Uint8Array;
}

/**
 * Offered every incoming voucher before it is credited: returns the local denom it was wrapped
 * into (the hook took the voucher from the transfer module account), or undefined to let it land.
 */
export type ReceiveHook = (ctx: Context, packet: IncomingTransfer, voucher: string) => string | undefined;

/** An outgoing ICS-20 transfer. */
export interface OutgoingTransfer {
  readonly sourcePort: string;
  readonly sourceChannel: string;
  readonly denom: string;
  readonly amount: bigint;
  /** 20 bytes of the account the tokens leave (an account or a module account). */
  readonly from: Uint8Array;
  /** The sender written in the packet (bech32). */
  readonly sender: string;
  readonly receiver: string;
  readonly timeoutHeight: { revisionNumber: bigint; revisionHeight: bigint };
  /** Unix nanoseconds (0: none). */
  readonly timeoutTimestamp: bigint;
  readonly memo: string;
  /** The denom whose rate limits apply (default: `denom`). */
  readonly rateLimitDenom?: string;
  /** On an error acknowledgement or a timeout, the refund is wrapped again into this denom. */
  readonly refundWrappedAs?: string;
}

function sequenceOf(ctx: StoreAccess, key: string): bigint {
  const bytes = ctx.store(IBC).get(key);
  return bytes === undefined ? 1n : decodeU64(bytes);
}

/** ICS-20 state operations: channels, sequences, packets and traces. */
export class IbcKeeper {
  private receiveHook: ReceiveHook | undefined;
  private refundHook: RefundHook | undefined;
  private wrappedDenom: ((ctx: Context, packet: IncomingTransfer) => string | undefined) | undefined;

  constructor(
    private readonly auth: AuthKeeper,
    private readonly bank: BankKeeper,
    private readonly ratelimit: RatelimitKeeper,
  ) {}

  /**
   * Installs the hook offered every incoming voucher (the wrap module's), and the lookup of the
   * local denom it would credit for a packet (read only); wiring only, no state.
   */
  setReceiveHook(
    hook: ReceiveHook,
    wrappedDenom?: (ctx: Context, packet: IncomingTransfer) => string | undefined,
  ): void {
    this.receiveHook = hook;
    this.wrappedDenom = wrappedDenom;
  }

  /**
   * The counterparty chain's latest height as this chain's client of it knows it: the revision of
   * its chain id (`usdc-local-1` -> 1) at this chain's height (the simulated chains keep pace).
   */
  counterpartyHeight(ctx: Context): { revisionNumber: bigint; revisionHeight: bigint } {
    const chain = ctx.store(IBC).get("chain");
    const chainId = chain === undefined ? "" : (JSON.parse(fromUtf8(chain)) as { chainId?: string }).chainId;
    return { revisionNumber: revisionOf(chainId ?? ""), revisionHeight: ctx.block.height };
  }

  /** Installs the hook offered the refund of a wrapped withdrawal (the wrap module's); wiring only. */
  setRefundHook(hook: RefundHook): void {
    this.refundHook = hook;
  }

  /** The connection and ordering of a channel, as the packet events name them. */
  channelFacts(ctx: StoreAccess, portId: string, channelId: string): ChannelFacts {
    const channel = this.channel(ctx, portId, channelId);
    return {
      connectionId: channel?.connectionHops[0] ?? "",
      ordering: `ORDER_${ibcChannel.Order[channel?.ordering ?? ibcChannel.Order.UNORDERED]}`,
    };
  }

  /** Runs `MsgAcknowledgement` for a pending packet this chain sent (see `ibc-lifecycle.ts`). */
  acknowledge(ctx: Context, record: SentPacketRecord, ack: PacketAcknowledgement): void {
    acknowledgeSentPacket(
      this.lifecycleDeps(),
      ctx,
      record,
      this.channelFacts(ctx, record.source_port, record.source_channel),
      ack,
    );
  }

  /** Runs `MsgTimeout` for a pending packet this chain sent (see `ibc-lifecycle.ts`). */
  timeout(ctx: Context, record: SentPacketRecord): void {
    timeoutSentPacket(
      this.lifecycleDeps(),
      ctx,
      record,
      this.channelFacts(ctx, record.source_port, record.source_channel),
    );
  }

  private lifecycleDeps(): LifecycleDeps {
    return { auth: this.auth, bank: this.bank, ratelimit: this.ratelimit, refundHook: this.refundHook };
  }

  /** A channel, or undefined. */
  channel(ctx: StoreAccess, portId: string, channelId: string): ibcChannel.Channel | undefined {
    const bytes = ctx.store(IBC).get(`channel/${portId}/${channelId}`);
    return bytes === undefined ? undefined : fromBinary(ibcChannel.ChannelSchema, bytes);
  }

  /** An open channel; throws the channel errors otherwise. */
  openChannel(ctx: StoreAccess, portId: string, channelId: string): ibcChannel.Channel {
    const channel = this.channel(ctx, portId, channelId);
    if (channel === undefined) {
      throw abciError(ibcErrors.channelNotFound, `port ID (${portId}) channel ID (${channelId})`);
    }
    if (channel.state !== ibcChannel.State.OPEN) {
      throw abciError(
        ibcErrors.invalidChannelState,
        `channel (${channelId}) state is ${ibcChannel.State[channel.state]}, expected OPEN`,
      );
    }
    return channel;
  }

  /** The trace path of a voucher (`transfer/channel-0/uusdc`), or undefined. */
  trace(ctx: StoreAccess, voucher: string): string | undefined {
    const bytes = ctx.store(IBC).get(`denom_trace/${voucher.slice("ibc/".length)}`);
    return bytes === undefined ? undefined : fromUtf8(bytes);
  }

  /** Receives an ICS-20 packet: mints the voucher and offers it to the hook, or credits it. */
  receive(
    ctx: Context,
    packet: IncomingTransfer,
  ): { sequence: bigint; voucherDenom: string; creditedDenom: string; wrapped: boolean } {
    const channel = this.openChannel(ctx, packet.portId, packet.channelId);
    if (packet.amount <= 0n) throw abciError(ibcErrors.invalidAmount, `amount ${packet.amount}`);
    if (!/^[a-zA-Z][a-zA-Z0-9/:._-]{1,127}$/.test(packet.denom)) {
      throw abciError(ibcErrors.invalidDenom, packet.denom);
    }
    const store = ctx.store(IBC);
    const seqKey = `recv_sequence/${packet.portId}/${packet.channelId}`;
    const sequence = sequenceOf(ctx, seqKey);
    store.set(seqKey, encodeU64(sequence + 1n));
    recordReceivedPacket(ctx, packet.portId, packet.channelId, sequence, ICS20_SUCCESS_ACK);
    const prefix = `${channel.counterparty?.portId ?? ""}/${channel.counterparty?.channelId ?? ""}/`;
    const voucher = ibcDenom(packet.portId, packet.channelId, packet.denom);
    const receiver = bech32Of(packet.receiver);
    const data = ics20PacketBytes({
      denom: packet.denom,
      amount: packet.amount.toString(),
      sender: packet.sender,
      receiver,
      memo: "",
    });
    // ibc-go's core events around the application's: recv_packet, (ICS-20), write_acknowledgement.
    const core: Array<[string, string]> = [
      ["packet_data", fromUtf8(data)],
      ["packet_data_hex", Buffer.from(data).toString("hex")],
      ["packet_timeout_height", "0-0"],
      ["packet_timeout_timestamp", "0"],
      ["packet_sequence", sequence.toString()],
      ["packet_src_port", channel.counterparty?.portId ?? ""],
      ["packet_src_channel", channel.counterparty?.channelId ?? ""],
      ["packet_dst_port", packet.portId],
      ["packet_dst_channel", packet.channelId],
    ];
    const connection = channel.connectionHops[0] ?? "";
    ctx.events.emitEvent("recv_packet", [
      ...core,
      ["packet_channel_ordering", `ORDER_${ibcChannel.Order[channel.ordering]}`],
      ["packet_connection", connection],
      ["connection_id", connection],
    ]);
    // x/ratelimit's middleware, before the transfer app: an incoming transfer adds its amount to the
    // capacity of the denom this chain credits (a wrapped voucher is limited under its local denom).
    const limitedDenom = packet.denom.startsWith(prefix)
      ? packet.denom.slice(prefix.length)
      : (this.wrappedDenom?.(ctx, packet) ?? voucher);
    this.ratelimit.creditIbcReceive(ctx, limitedDenom, packet.amount);
    let result: { sequence: bigint; voucherDenom: string; creditedDenom: string; wrapped: boolean };
    if (packet.denom.startsWith(prefix)) {
      // A coin of this chain coming back: release it from escrow, unwrapped.
      const native = packet.denom.slice(prefix.length);
      this.bank.sendCoins(ctx, escrowAddress(packet.portId, packet.channelId), packet.receiver, [
        { denom: native, amount: packet.amount },
      ]);
      addTotalEscrow(ctx, native, -packet.amount);
      result = { sequence, voucherDenom: native, creditedDenom: native, wrapped: false };
    } else {
      store.set(
        `denom_trace/${voucher.slice(4)}`,
        utf8(`${packet.portId}/${packet.channelId}/${packet.denom}`),
      );
      ctx.events.emitEvent("denomination_trace", [
        ["trace_hash", voucher.slice(4)],
        ["denom", voucher],
      ]);
      const coins = [{ denom: voucher, amount: packet.amount }];
      this.bank.mintCoins(ctx, "transfer", coins);
      const localDenom = this.receiveHook?.(ctx, packet, voucher);
      if (localDenom === undefined)
        this.bank.sendCoinsFromModuleToAccount(ctx, "transfer", packet.receiver, coins);
      result = {
        sequence,
        voucherDenom: voucher,
        creditedDenom: localDenom ?? voucher,
        wrapped: localDenom !== undefined,
      };
    }
    ctx.events.emitEvent("fungible_token_packet", [
      ["module", TRANSFER_PORT],
      ["sender", packet.sender],
      ["receiver", receiver],
      ["denom", packet.denom],
      ["amount", packet.amount.toString()],
      ["memo", ""],
      ["success", "true"],
    ]);
    ctx.events.emitEvent("write_acknowledgement", [
      ...core,
      ["packet_ack", fromUtf8(ICS20_SUCCESS_ACK)],
      ["packet_ack_hex", Buffer.from(ICS20_SUCCESS_ACK).toString("hex")],
      ["packet_connection", connection],
      ["connection_id", connection],
    ]);
    return result;
  }

  /**
   * Sends an ICS-20 packet: escrows native coins in the transfer module account, or burns vouchers
   * returning over the channel they came in by; checks rate limits; records the packet.
   *
   * @returns the packet sequence on the source channel.
   */
  send(ctx: Context, t: OutgoingTransfer): bigint {
    const channel = this.openChannel(ctx, t.sourcePort, t.sourceChannel);
    if (t.amount <= 0n) throw abciError(ibcErrors.invalidAmount, `amount ${t.amount} must be positive`);
    if (t.timeoutTimestamp === 0n && t.timeoutHeight.revisionHeight === 0n) {
      // ibc-go's SendPacket: the packet's basic validation.
      throw abciError(
        ibcErrors.invalidPacket,
        "constructed packet failed basic validation: packet timeout height and packet timeout timestamp cannot both be 0",
      );
    }
    if (t.timeoutTimestamp !== 0n && t.timeoutTimestamp <= ctx.block.timeMs * 1_000_000n) {
      // ibc-go's SendPacket: the counterparty's latest time (this chain's block time) has passed it.
      throw abciError(
        ibcErrors.packetTimeout,
        `receiving chain block timestamp >= packet timeout timestamp (${ctx.block.timeMs * 1_000_000n} >= ${t.timeoutTimestamp})`,
      );
    }
    // ibc-go's SendPacket: the counterparty (its height following this chain's, in the revision of
    // its chain id) must not have reached the timeout height already.
    const latest = this.counterpartyHeight(ctx);
    const timeout = t.timeoutHeight;
    if (
      (timeout.revisionNumber !== 0n || timeout.revisionHeight !== 0n) &&
      (latest.revisionNumber > timeout.revisionNumber ||
        (latest.revisionNumber === timeout.revisionNumber && latest.revisionHeight >= timeout.revisionHeight))
    ) {
      throw abciError(
        ibcErrors.packetTimeout,
        `receiving chain block height >= packet timeout height (${latest.revisionNumber}-${latest.revisionHeight} >= ${timeout.revisionNumber}-${timeout.revisionHeight})`,
      );
    }
    const seqKey = `send_sequence/${t.sourcePort}/${t.sourceChannel}`;
    const sequence = sequenceOf(ctx, seqKey);
    ctx.store(IBC).set(seqKey, encodeU64(sequence + 1n));
    this.ratelimit.checkIbcSend(ctx, t.rateLimitDenom ?? t.denom, t.amount, t.sourceChannel, sequence);
    const coins = [{ denom: t.denom, amount: t.amount }];
    const trace = t.denom.startsWith("ibc/") ? this.trace(ctx, t.denom) : undefined;
    if (t.denom.startsWith("ibc/") && trace === undefined) {
      throw abciError(ibcErrors.invalidDenom, `${t.denom}: denomination trace not found`);
    }
    const prefix = `${t.sourcePort}/${t.sourceChannel}/`;
    const returning = trace?.startsWith(prefix) === true;
    const packetDenom = trace ?? t.denom;
    if (returning) {
      // A voucher going home: burned (through the transfer module account).
      this.bank.sendCoins(ctx, t.from, this.auth.moduleAddress("transfer"), coins);
      this.bank.burnCoins(ctx, "transfer", coins);
    } else {
      this.bank.sendCoins(ctx, t.from, escrowAddress(t.sourcePort, t.sourceChannel), coins);
      addTotalEscrow(ctx, t.denom, t.amount);
    }
    const data = {
      denom: packetDenom,
      amount: t.amount.toString(),
      sender: t.sender,
      receiver: t.receiver,
      memo: t.memo,
    };
    const record: SentPacketRecord = {
      sequence: sequence.toString(),
      source_port: t.sourcePort,
      source_channel: t.sourceChannel,
      destination_port: channel.counterparty?.portId ?? "",
      destination_channel: channel.counterparty?.channelId ?? "",
      data,
      timeout_height: `${t.timeoutHeight.revisionNumber}-${t.timeoutHeight.revisionHeight}`,
      timeout_timestamp: t.timeoutTimestamp.toString(),
      escrowed: !returning,
      sent_height: ctx.block.height.toString(),
      local_denom: t.denom,
      rate_limit_denom: t.rateLimitDenom ?? t.denom,
      ...(t.refundWrappedAs === undefined ? {} : { refund_wrapped_as: t.refundWrappedAs }),
    };
    storeSentPacket(ctx, record);
    const packetData = ics20PacketBytes(data);
    commitSentPacket(
      ctx,
      t.sourcePort,
      t.sourceChannel,
      sequence,
      packetCommitment({
        timeoutTimestamp: t.timeoutTimestamp,
        timeoutHeight: t.timeoutHeight,
        data: packetData,
      }),
    );
    ctx.events.emitEvent("send_packet", [
      ["packet_data", fromUtf8(packetData)],
      ["packet_timeout_height", record.timeout_height],
      ["packet_timeout_timestamp", record.timeout_timestamp],
      ["packet_sequence", sequence.toString()],
      ["packet_src_port", t.sourcePort],
      ["packet_src_channel", t.sourceChannel],
      ["packet_dst_port", record.destination_port],
      ["packet_dst_channel", record.destination_channel],
      ["packet_channel_ordering", "ORDER_UNORDERED"],
      ["connection_id", channel.connectionHops[0] ?? ""],
    ]);
    ctx.events.emitEvent("ibc_transfer", [
      ["sender", t.sender],
      ["receiver", t.receiver],
      ["denom", t.denom],
      ["amount", t.amount.toString()],
      ["memo", t.memo],
    ]);
    return sequence;
  }

  /** Closes a channel and opens `channel-<n>` to the same counterparty chain. */
  recreateChannel(ctx: Context, portId: string, channelId: string): { closed: string; opened: string } {
    const old = this.openChannel(ctx, portId, channelId);
    const store = ctx.store(IBC);
    store.set(
      `channel/${portId}/${channelId}`,
      toBinary(ibcChannel.ChannelSchema, { ...old, state: ibcChannel.State.CLOSED }),
    );
    let n = 0;
    while (store.has(`channel/${portId}/channel-${n}`)) n++;
    const opened = `channel-${n}`;
    const counterpartyChannels = readRecords(ctx, IBC, "channel/", ibcChannel.ChannelSchema).map(
      (r) => r.value.counterparty?.channelId ?? "",
    );
    let m = 0;
    while (counterpartyChannels.includes(`channel-${m}`)) m++;
    store.set(
      `channel/${portId}/${opened}`,
      toBinary(
        ibcChannel.ChannelSchema,
        create(ibcChannel.ChannelSchema, {
          state: ibcChannel.State.OPEN,
          ordering: old.ordering,
          connectionHops: old.connectionHops,
          version: old.version,
          counterparty: create(ibcChannel.CounterpartySchema, {
            portId: old.counterparty?.portId ?? TRANSFER_PORT,
            channelId: `channel-${m}`,
          }),
        }),
      ),
    );
    ctx.events.emitEvent("channel_close_confirm", [
      ["port_id", portId],
      ["channel_id", channelId],
    ]);
    ctx.events.emitEvent("channel_open_confirm", [
      ["port_id", portId],
      ["channel_id", opened],
      ["counterparty_port_id", old.counterparty?.portId ?? TRANSFER_PORT],
      ["counterparty_channel_id", `channel-${m}`],
      ["connection_id", old.connectionHops[0] ?? ""],
    ]);
    return { closed: channelId, opened };
  }
}
