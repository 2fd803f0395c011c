/**
 * The subscriptions of one connection: which are queued, sent or live, the replies the server
 * still owes (a `message_id` hole is excused for each), and routing of frames to them.
 */

import {
  INDEXER_CHANNEL_SUBSCRIPTION_LIMITS,
  INDEXER_CHANNELS,
  type IndexerChannel,
} from "@perpx/core/indexer";
import { InvalidArgumentError, type PerpxError } from "@perpx/errors";
import { isIndexerChannel } from "./channels.js";
import { IndexerSubscriptionError, SubscriptionLimitError } from "./errors.js";
import type { Frame } from "./frame.js";
import type { SubscribePacer } from "./pacer.js";
import { type ResetReason, Subscription, type SubscriptionSink } from "./subscription.js";

interface Entry {
  readonly channel: IndexerChannel;
  readonly id: string | undefined;
  readonly key: string;
  readonly batched: boolean;
  readonly subscription: Subscription<IndexerChannel>;
  readonly sink: SubscriptionSink<IndexerChannel>;
  status: "queued" | "sent" | "live";
}

const ID_LESS = new Set<string>(["v4_markets", "v4_block_height"]);
const LIMIT_ERROR = /^Per-connection subscription limit reached for (\w+)/;
/** `(<channel>-<id>)`: channel names have no `-`, so the first one ends the channel. */
const INVALID_ID_ERROR = /^Invalid subscription id for channel: \((\w+)-(.*)\)$/;

/** The registry key of a channel id (id-less channels are keyed by their name). */
function keyOf(channel: string, id: string | undefined): string {
  return ID_LESS.has(channel) || id === undefined ? channel : `${channel} ${id}`;
}

/** The subscriptions of a connection. */
export class Registry {
  private readonly entries = new Map<string, Entry>();
  /** The same entries by channel, then by id (the channel name for id-less channels). */
  private readonly byChannel = new Map<string, Map<string, Entry>>();
  private readonly counts = new Map<IndexerChannel, number>();
  /** Subscribes and unsubscribes sent on this socket and not yet answered. */
  outstanding = 0;

  /**
   * @param kick - asks the connection to send what is queued.
   * @param unsubscribe - sends an unsubscribe; false when no socket is open.
   */
  constructor(
    private readonly kick: () => void,
    private readonly unsubscribe: (channel: IndexerChannel, id: string | undefined) => boolean,
  ) {}

  /** Registers a subscription and queues its subscribe. */
  add<C extends IndexerChannel>(channel: C, id: string | undefined, batched: boolean): Subscription<C> {
    if (!isIndexerChannel(channel)) {
      throw new InvalidArgumentError(
        "channel",
        `must be one of ${INDEXER_CHANNELS.join(", ")}, got ${JSON.stringify(channel)}`,
      );
    }
    const idLess = ID_LESS.has(channel);
    if (!idLess && (typeof id !== "string" || id.length === 0)) {
      throw new InvalidArgumentError("id", `${channel} needs a subscription id, got ${JSON.stringify(id)}`);
    }
    const key = keyOf(channel, idLess ? undefined : id);
    if (this.entries.has(key)) {
      throw new InvalidArgumentError(
        "id",
        `already subscribed to ${channel}${idLess ? "" : ` ${id}`} on this connection`,
      );
    }
    const count = this.counts.get(channel) ?? 0;
    const limit = INDEXER_CHANNEL_SUBSCRIPTION_LIMITS[channel];
    if (count >= limit) throw new SubscriptionLimitError(channel, limit);
    const subscription = new Subscription<C>(channel, idLess ? channel : (id as string), batched, () =>
      this.detach(key),
    );
    const entry: Entry = {
      channel,
      id: idLess ? undefined : id,
      key,
      batched,
      subscription: subscription as unknown as Subscription<IndexerChannel>,
      sink: subscription.sink() as unknown as SubscriptionSink<IndexerChannel>,
      status: "queued",
    };
    this.entries.set(key, entry);
    let ids = this.byChannel.get(channel);
    if (!ids) {
      ids = new Map();
      this.byChannel.set(channel, ids);
    }
    ids.set(idLess ? channel : (id as string), entry);
    this.counts.set(channel, count + 1);
    this.kick();
    return subscription;
  }

  /**
   * Sends the queued subscribes the pacer allows now.
   *
   * @returns ms until the next queued one may go (0: none left).
   */
  sendPending(now: number, pacer: SubscribePacer, send: (message: string) => void): number {
    let waitMs = 0;
    for (const entry of this.entries.values()) {
      if (entry.status !== "queued") continue;
      const wait = pacer.waitMs(entry.key, now);
      if (wait > 0) {
        waitMs = waitMs === 0 ? wait : Math.min(waitMs, wait);
        continue;
      }
      const message: Record<string, unknown> = { type: "subscribe", channel: entry.channel };
      if (entry.id !== undefined) message.id = entry.id;
      if (entry.batched) message.batched = true;
      send(JSON.stringify(message));
      pacer.record(entry.key, now);
      entry.status = "sent";
      this.outstanding++;
    }
    return waitMs;
  }

  /** A reply (`subscribed`, `unsubscribed`, or an error reusing a reserved id) arrived. */
  replied(): void {
    if (this.outstanding > 0) this.outstanding--;
  }

  /** Routes `subscribed`. */
  subscribed(frame: Frame): void {
    const entry = this.lookup(frame.channel, frame.id);
    if (entry?.status !== "sent") return;
    entry.status = "live";
    entry.sink.snapshot(frame.contents as never);
  }

  /** Routes `channel_data` and `channel_batch_data` (a batch is unrolled). */
  data(frame: Frame): void {
    const entry = this.lookup(frame.channel, frame.id);
    if (entry?.status !== "live") return;
    const sink = entry.sink;
    if (frame.type === "channel_batch_data" && Array.isArray(frame.contents)) {
      for (const contents of frame.contents)
        sink.update(contents as never, frame.message_id, frame.subaccountNumber);
    } else {
      sink.update(frame.contents as never, frame.message_id, frame.subaccountNumber);
    }
  }

  /**
   * Routes an `error`: a refusal of a sent subscribe ends that subscription with an
   * {@link IndexerSubscriptionError}. Initial-fetch failures and "already subscribed" name their
   * channel and id; an invalid id names them only inside the message, and a cap reached only
   * names the channel (the oldest subscribe still waiting on it is the refused one).
   *
   * @returns the error when no subscription claims it.
   */
  refused(frame: Frame, fresh: boolean): PerpxError | undefined {
    const message = String(frame.message ?? "");
    const entry = fresh ? this.refusedEntry(frame, message) : undefined;
    const error = new IndexerSubscriptionError(
      entry?.channel ?? frame.channel ?? "",
      entry?.subscription.id ?? frame.id ?? "",
      message,
    );
    if (entry?.status !== "sent") return error;
    this.remove(entry);
    entry.sink.end(error);
    return undefined;
  }

  private refusedEntry(frame: Frame, message: string): Entry | undefined {
    if (frame.channel !== undefined) return this.lookup(frame.channel, frame.id);
    const invalid = INVALID_ID_ERROR.exec(message);
    if (invalid) return this.lookup(invalid[1], invalid[2]);
    const limit = LIMIT_ERROR.exec(message);
    if (!limit) return undefined;
    for (const candidate of this.entries.values()) {
      if (candidate.channel === limit[1] && candidate.status === "sent") return candidate;
    }
    return undefined;
  }

  /** The socket was lost: every subscription is queued again and told to reset. */
  reset(reason: ResetReason): void {
    this.outstanding = 0;
    for (const entry of this.entries.values()) {
      if (entry.status === "live") entry.sink.reset(reason);
      entry.status = "queued";
    }
  }

  /** Ends every subscription (the connection closes). */
  endAll(error: PerpxError | undefined): void {
    const entries = [...this.entries.values()];
    this.entries.clear();
    this.byChannel.clear();
    this.counts.clear();
    for (const entry of entries) entry.sink.end(error);
  }

  private detach(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.remove(entry);
    if (entry.status !== "queued" && this.unsubscribe(entry.channel, entry.id)) this.outstanding++;
  }

  private lookup(channel: string | undefined, id: string | undefined): Entry | undefined {
    if (channel === undefined) return undefined;
    return this.byChannel.get(channel)?.get(id ?? channel);
  }

  private remove(entry: Entry): void {
    this.entries.delete(entry.key);
    this.byChannel.get(entry.channel)?.delete(entry.id ?? entry.channel);
    const count = (this.counts.get(entry.channel) ?? 1) - 1;
    if (count > 0) this.counts.set(entry.channel, count);
    else this.counts.delete(entry.channel);
  }
}
