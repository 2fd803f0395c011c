/**
 * The devnet's simulated counterparty chain and relayer for the packets this chain sends. A packet
 * sent at height H is delivered to the counterparty `delayBlocks` blocks later (at the start of
 * block H + delayBlocks), and the relayer brings back what happened there, run on this chain as
 * ibc-go runs it (`ibc-lifecycle.ts`):
 * - the counterparty accepts it: a success acknowledgement (`MsgAcknowledgement`);
 * - it refuses it: an error acknowledgement (`{"error": "..."}`), refunded here;
 * - it never answers: the packet waits until its timeout passes on the counterparty, then times
 *   out here (`MsgTimeout`), refunded; a packet already timed out when it is delivered times out at
 *   once, and one whose channel was closed times out on close.
 * The counterparty's clock is this chain's block time, and its height (in the revision of its chain
 * id, `usdc-local-1` -> 1) is this chain's height.
 *
 * What the counterparty answers is decided by devnet control (`packet-fate`): a fate for one pending
 * packet, or a queue of fates taken in turn by the next packets delivered; without one, success.
 * `relay` delivers pending packets at once; `relayer` sets the delay and switches automatic
 * relaying off (then only `relay` delivers).
 *
 * Store slice `ibc/`: `relayer` (JSON settings), `relayer_fates` (JSON queue of fates),
 * `fate/<port>/<channel>/<sequence:20>` (JSON fate of one pending packet).
 */
import { ibcChannel } from "@perpx/proto";
import type { Context, Module } from "../../kernel/module.js";
import { fromUtf8, utf8 } from "../../lib/codec.js";
import { FieldError, type Fields, intField, stringField, uintField } from "../../lib/request-fields.js";
import type { StoreAccess } from "../auth/auth.js";
import { padKey } from "../records.js";
import type { IbcKeeper } from "./ibc.js";
import { pendingSentPackets, type SentPacketRecord, sentPacket, timeoutHeightOf } from "./ibc-lifecycle.js";

const IBC = "ibc";

/** How the relayer runs. */
export interface RelayerSettings {
  /** Blocks between a packet's send and its delivery (its acknowledgement or timeout here). */
  readonly delayBlocks: number;
  /** Deliver packets on their own once due (false: only devnet control `relay` delivers). */
  readonly auto: boolean;
}

/** The relayer's settings on a new chain: 2 blocks (2 s at the default block time), automatic. */
export const DEFAULT_RELAYER_SETTINGS: RelayerSettings = { delayBlocks: 2, auto: true };

/** What the counterparty does with a packet. */
export type PacketFate =
  | { readonly result: "success" }
  | { readonly result: "error"; readonly error: string }
  | { readonly result: "timeout" };

/**
 * The error an ICS-20 application on the counterparty writes for a packet it cannot take (ibc-go's
 * `NewErrorAcknowledgement` of an invalid receiver address): the default of an `error` fate.
 */
export const DEFAULT_ACK_ERROR = "ABCI code: 7: error handling packet: see events for details";

/** What became of a packet the relayer looked at. */
export type RelayOutcome = "acknowledged" | "error-acknowledged" | "timed-out" | "held" | "not-due";

/** One packet's outcome. */
export interface RelayedPacket {
  readonly port: string;
  readonly channel: string;
  readonly sequence: string;
  readonly outcome: RelayOutcome;
}

/** The relayer's settings. */
export function relayerSettings(ctx: StoreAccess): RelayerSettings {
  const bytes = ctx.store(IBC).get("relayer");
  return bytes === undefined ? DEFAULT_RELAYER_SETTINGS : (JSON.parse(fromUtf8(bytes)) as RelayerSettings);
}

function fateKey(port: string, channel: string, sequence: bigint): string {
  return `fate/${port}/${channel}/${padKey(sequence, 20)}`;
}

function readJson<T>(ctx: StoreAccess, key: string): T | undefined {
  const bytes = ctx.store(IBC).get(key);
  return bytes === undefined ? undefined : (JSON.parse(fromUtf8(bytes)) as T);
}

function writeJson(ctx: StoreAccess, key: string, value: unknown): void {
  ctx.store(IBC).set(key, utf8(JSON.stringify(value)));
}

/** The fate of a packet at delivery: its own, else the next queued one (taken), else success. */
function takeFate(ctx: StoreAccess, record: SentPacketRecord): PacketFate {
  const key = fateKey(record.source_port, record.source_channel, BigInt(record.sequence));
  const own = readJson<PacketFate>(ctx, key);
  if (own !== undefined) return own;
  const queue = readJson<PacketFate[]>(ctx, "relayer_fates") ?? [];
  const next = queue.shift();
  if (next === undefined) return { result: "success" };
  if (queue.length === 0) ctx.store(IBC).delete("relayer_fates");
  else writeJson(ctx, "relayer_fates", queue);
  // A packet the counterparty does not answer keeps that fate until it times out.
  if (next.result === "timeout") writeJson(ctx, key, next);
  return next;
}

/** True when the counterparty (its clock and height following this chain's) is past the timeout. */
function timedOut(ctx: Context, record: SentPacketRecord, counterpartyRevision: bigint): boolean {
  const timestamp = BigInt(record.timeout_timestamp);
  if (timestamp !== 0n && ctx.block.timeMs * 1_000_000n >= timestamp) return true;
  const height = timeoutHeightOf(record);
  if (height.revisionHeight === 0n) return false;
  return (
    counterpartyRevision > height.revisionNumber ||
    (counterpartyRevision === height.revisionNumber && ctx.block.height >= height.revisionHeight)
  );
}

/** Delivers one pending packet: acknowledged, refused, timed out, or held until it times out. */
function deliver(
  keeper: IbcKeeper,
  ctx: Context,
  record: SentPacketRecord,
  counterpartyRevision: bigint,
): RelayOutcome {
  const sequence = BigInt(record.sequence);
  const channel = keeper.channel(ctx, record.source_port, record.source_channel);
  const closed = channel === undefined || channel.state !== ibcChannel.State.OPEN;
  let outcome: RelayOutcome;
  if (closed || timedOut(ctx, record, counterpartyRevision)) {
    keeper.timeout(ctx, record);
    outcome = "timed-out";
  } else {
    const fate = takeFate(ctx, record);
    if (fate.result === "timeout") return "held";
    keeper.acknowledge(
      ctx,
      record,
      fate.result === "success" ? { success: true } : { success: false, error: fate.error },
    );
    outcome = fate.result === "success" ? "acknowledged" : "error-acknowledged";
  }
  ctx.store(IBC).delete(fateKey(record.source_port, record.source_channel, sequence));
  return outcome;
}

function relayed(record: SentPacketRecord, outcome: RelayOutcome): RelayedPacket {
  return {
    port: record.source_port,
    channel: record.source_channel,
    sequence: record.sequence,
    outcome,
  };
}

/** The begin-block step: every pending packet due (or held and now timed out) is delivered. */
export function relayDuePackets(
  keeper: IbcKeeper,
  ctx: Context,
  counterpartyRevision: bigint,
): RelayedPacket[] {
  const settings = relayerSettings(ctx);
  if (!settings.auto) return [];
  const out: RelayedPacket[] = [];
  for (const record of pendingSentPackets(ctx)) {
    const sentAt = BigInt(record.sent_height ?? "0");
    if (ctx.block.height < sentAt + BigInt(settings.delayBlocks)) continue;
    const outcome = deliver(keeper, ctx, record, counterpartyRevision);
    if (outcome !== "held") out.push(relayed(record, outcome));
  }
  return out;
}

function fateOf(request: Fields): PacketFate {
  const result = stringField(request, "result", {
    pattern: /^(success|error|timeout)$/,
    form: '"success", "error" or "timeout"',
  });
  if (result === "error") {
    return {
      result,
      error: stringField(request, "error", {
        pattern: /./,
        form: "a non-empty string",
        fallback: DEFAULT_ACK_ERROR,
      }),
    };
  }
  return result === "success" ? { result: "success" } : { result: "timeout" };
}

/** A pending packet named by `port`, `channel` (defaults `transfer`, `channel-0`) and `sequence`. */
function namedPacket(ctx: Context, request: Fields): SentPacketRecord {
  const port = stringField(request, "port", { pattern: /./, form: "a port id", fallback: "transfer" });
  const channel = stringField(request, "channel", {
    pattern: /./,
    form: "a channel id",
    fallback: "channel-0",
  });
  const sequence = uintField(request, "sequence");
  const record = sentPacket(ctx, port, channel, sequence);
  if (record === undefined) {
    throw new FieldError("sequence", `names no pending packet on ${port}/${channel}: ${sequence}`);
  }
  return record;
}

/**
 * The relayer as part of the IBC module: its begin-block step and its devnet control operations
 * `relay`, `packet-fate`, `relayer` and `pending`.
 */
export function relayerHooks(
  keeper: IbcKeeper,
  counterpartyRevision: bigint,
): { beginBlock(ctx: Context): void; control: NonNullable<Module["control"]> } {
  return {
    beginBlock(ctx) {
      relayDuePackets(keeper, ctx, counterpartyRevision);
    },
    control: {
      relay(ctx, request) {
        const records =
          request.sequence === undefined ? pendingSentPackets(ctx) : [namedPacket(ctx, request)];
        return {
          packets: records.map((record) =>
            relayed(record, deliver(keeper, ctx, record, counterpartyRevision)),
          ),
        };
      },
      "packet-fate"(ctx, request) {
        const fate = fateOf(request);
        if (request.sequence !== undefined) {
          const record = namedPacket(ctx, request);
          writeJson(ctx, fateKey(record.source_port, record.source_channel, BigInt(record.sequence)), fate);
          return { fate, packet: relayed(record, "not-due") };
        }
        const count = intField(request, "count", 1);
        if (count < 1 || count > 1000) throw new FieldError("count", `must be from 1 to 1000, got ${count}`);
        const queue = readJson<PacketFate[]>(ctx, "relayer_fates") ?? [];
        for (let i = 0; i < count; i++) queue.push(fate);
        writeJson(ctx, "relayer_fates", queue);
        return { fate, queued: queue.length };
      },
      relayer(ctx, request) {
        const current = relayerSettings(ctx);
        const delayBlocks = intField(request, "delayBlocks", current.delayBlocks);
        if (delayBlocks < 0 || delayBlocks > 100_000) {
          throw new FieldError("delayBlocks", `must be from 0 to 100000, got ${delayBlocks}`);
        }
        const auto = request.auto === undefined ? current.auto : request.auto;
        if (typeof auto !== "boolean") throw new FieldError("auto", "must be true or false");
        const settings: RelayerSettings = { delayBlocks, auto };
        writeJson(ctx, "relayer", settings);
        return settings;
      },
      pending(ctx) {
        const settings = relayerSettings(ctx);
        return {
          ...settings,
          queuedFates: readJson<PacketFate[]>(ctx, "relayer_fates") ?? [],
          packets: pendingSentPackets(ctx).map((record) => ({
            port: record.source_port,
            channel: record.source_channel,
            sequence: record.sequence,
            denom: record.data.denom,
            amount: record.data.amount,
            sender: record.data.sender,
            receiver: record.data.receiver,
            sentHeight: record.sent_height ?? "0",
            dueHeight: (BigInt(record.sent_height ?? "0") + BigInt(settings.delayBlocks)).toString(),
            timeoutHeight: record.timeout_height,
            timeoutTimestamp: record.timeout_timestamp,
            fate:
              readJson<PacketFate>(
                ctx,
                fateKey(record.source_port, record.source_channel, BigInt(record.sequence)),
              ) ?? null,
          })),
        };
      },
    },
  };
}
