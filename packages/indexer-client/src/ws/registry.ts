/**
 * The subscriptions of one connection: which are queued, sent or live, the replies the server
 * still owes (a `message_id` hole is excused for each), and routing of frames to them.
 */

import {
  INDEXER_CHANNEL_SUBSCRIPTION_LIMITS,
  INDEXER_CHANNELS,
  type IndexerChannel,
} from "@perpx/core/indexer";
import { InvalidArgumentError, isPerpxError, type PerpxError } from "@perpx/errors";
import { isIndexerChannel } from "./channels.js";
import { checkContents } from "./contents.js";
import {
  IndexerFrameError,
  IndexerListenerError,
  IndexerSubscriptionError,
  SubscriptionLimitError,
} from "./errors.js";
import type { Frame } from "./frame.js";
import type { SubscribePacer } from "./pacer.js";
import { shown } from "./shape.js";
import { type ResetReason, Subscription, type SubscriptionSink } from "./subscription.js";

interface Entry {
  readonly channel: IndexerChannel;
  readonly id: string | undefined;
  readonly key: string;
  readonly batched: boolean;
  readonly subscription: Subscription<IndexerChannel>;
  readonly sink: SubscriptionSink<IndexerChannel>;
  status: "queued" | "sent" | "live";
  /** A queued subscribe waits until this time (a resync's backoff), ms since the epoch. */
  notBefore: number;
}

/**
 * A message of one subscription that was refused (contents that break the contract, or a listener
 * that threw while it was applied): the subscription must resync.
 */
export interface Refusal {
  readonly key: string;
  readonly channel: IndexerChannel;
  readonly id: string;
  readonly error: PerpxError;
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
  /**
   * Subscribes the caller dropped before their reply, by key. The server has reserved a
   * `message_id` for each and holds the subscription (a reference indexer makes it live even when an
   * unsubscribe arrives first; another drops it and never sends the reserved id), so the unsubscribe
   * waits for the reply, which fills that id; a new subscribe to the key waits as well, and the
   * subscription counts against its channel's cap until then.
   */
  private readonly dropped = new Map<string, Entry>();
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
    // A dropped subscribe to the same key is unsubscribed before this one is sent: it frees its slot.
    if (count - (this.dropped.has(key) ? 1 : 0) >= limit) throw new SubscriptionLimitError(channel, limit);
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
      notBefore: 0,
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
      if (entry.status !== "queued" || this.dropped.has(entry.key)) continue;
      const wait = Math.max(pacer.waitMs(entry.key, now), entry.notBefore - now);
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

  /**
   * Routes `subscribed`: checks the snapshot, then delivers it.
   *
   * @returns a refusal when the snapshot breaks the contract or a listener threw.
   */
  subscribed(frame: Frame): Refusal | undefined {
    const dropped = this.droppedOf(frame.channel, frame.id);
    if (dropped) {
      this.settleDropped(dropped, true);
      return undefined;
    }
    const entry = this.lookup(frame.channel, frame.id);
    if (entry?.status !== "sent") return undefined;
    const bad = checkContents(entry.channel, "snapshot", frame.contents);
    if (bad) return this.refusal(entry, bad.path, `must be ${bad.expected}, got ${shown(bad.found)}`);
    entry.status = "live";
    try {
      entry.sink.snapshot(frame.contents as never);
    } catch (error) {
      return this.refusal(entry, error);
    }
    return undefined;
  }

  /**
   * Routes `channel_data` and `channel_batch_data` (a batch is unrolled): checks every update,
   * then delivers them.
   *
   * @returns a refusal when an update breaks the contract or a listener threw.
   */
  data(frame: Frame): Refusal | undefined {
    const entry = this.lookup(frame.channel, frame.id);
    if (entry?.status !== "live") return undefined;
    const child = frame.subaccountNumber;
    if (child !== undefined && !Number.isSafeInteger(child)) {
      return this.refusal(entry, "", `has a subaccountNumber that is not an integer: ${shown(child)}`);
    }
    const batch = frame.type === "channel_batch_data";
    if (batch && !Array.isArray(frame.contents)) {
      return this.refusal(entry, "", `must be an array (a batch), got ${shown(frame.contents)}`);
    }
    const updates: readonly unknown[] = batch ? (frame.contents as unknown[]) : [frame.contents];
    for (let i = 0; i < updates.length; i++) {
      const bad = checkContents(entry.channel, "update", updates[i]);
      if (bad) {
        const path = batch
          ? `[${i}]${bad.path === "" || bad.path.startsWith("[") ? "" : "."}${bad.path}`
          : bad.path;
        return this.refusal(entry, path, `must be ${bad.expected}, got ${shown(bad.found)}`);
      }
    }
    try {
      for (const contents of updates) entry.sink.update(contents as never, frame.message_id, child);
    } catch (error) {
      return this.refusal(entry, error);
    }
    return undefined;
  }

  /**
   * Starts a subscription over after a refused message: it is reset (not synced), unsubscribed
   * on the server, and subscribed again for a fresh snapshot once `notBefore` has passed.
   *
   * @returns the error a `reset` listener threw, if any.
   */
  resync(key: string, notBefore: number): PerpxError | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    let failure: PerpxError | undefined;
    if (entry.status === "live") failure = this.quietly(() => entry.sink.reset("invalid"));
    if (entry.status !== "queued" && this.unsubscribe(entry.channel, entry.id)) this.outstanding++;
    entry.status = "queued";
    entry.notBefore = notBefore;
    return failure;
  }

  /** Runs a sink call; answers the error a listener threw instead of throwing it. */
  private quietly(deliver: () => void): PerpxError | undefined {
    try {
      deliver();
      return undefined;
    } catch (error) {
      return isPerpxError(error) ? error : new IndexerListenerError("reset", error);
    }
  }

  private refusal(entry: Entry, pathOrThrown: unknown, problem?: string): Refusal {
    const channel = entry.channel;
    const id = entry.subscription.id;
    const error =
      problem !== undefined
        ? new IndexerFrameError({ channel, id, path: pathOrThrown as string, problem })
        : isPerpxError(pathOrThrown)
          ? pathOrThrown
          : new IndexerListenerError("update", pathOrThrown, { channel, id });
    return { key: entry.key, channel, id, error };
  }

  /**
   * Routes an `error`: a refusal of a sent subscribe ends that subscription with an
   * {@link IndexerSubscriptionError}. Initial-fetch failures and "already subscribed" name their
   * channel and id; an invalid id names them only inside the message, and a cap reached only
   * names the channel (the oldest subscribe still waiting on it is the refused one).
   *
   * @returns the error when no subscription claims it, or the error an `end` listener threw.
   */
  refused(frame: Frame, fresh: boolean): PerpxError | undefined {
    const message = String(frame.message ?? "");
    const entry = fresh ? this.refusedEntry(frame, message) : undefined;
    if (entry !== undefined && this.dropped.get(entry.key) === entry) {
      // The refused subscribe is one the caller dropped: nothing is left to tell.
      this.settleDropped(entry, false);
      return undefined;
    }
    const error = new IndexerSubscriptionError(
      entry?.channel ?? frame.channel ?? "",
      entry?.subscription.id ?? frame.id ?? "",
      message,
    );
    if (entry?.status !== "sent") return error;
    this.remove(entry);
    return entry.sink.end(error);
  }

  private refusedEntry(frame: Frame, message: string): Entry | undefined {
    if (frame.channel !== undefined) {
      return this.droppedOf(frame.channel, frame.id) ?? this.lookup(frame.channel, frame.id);
    }
    const invalid = INVALID_ID_ERROR.exec(message);
    if (invalid) return this.droppedOf(invalid[1], invalid[2]) ?? this.lookup(invalid[1], invalid[2]);
    const limit = LIMIT_ERROR.exec(message);
    if (!limit) return undefined;
    for (const candidate of [...this.entries.values(), ...this.dropped.values()]) {
      if (candidate.channel === limit[1] && candidate.status === "sent") return candidate;
    }
    return undefined;
  }

  /**
   * The socket was lost: every subscription is queued again and told to reset.
   *
   * @returns the errors `reset` listeners threw.
   */
  reset(reason: ResetReason): PerpxError[] {
    this.outstanding = 0;
    // The server that held the dropped subscribes is gone with the socket.
    for (const entry of this.dropped.values()) this.uncount(entry.channel);
    this.dropped.clear();
    const failures: PerpxError[] = [];
    for (const entry of this.entries.values()) {
      if (entry.status === "live") {
        const failure = this.quietly(() => entry.sink.reset(reason));
        if (failure) failures.push(failure);
      }
      entry.status = "queued";
      entry.notBefore = 0;
    }
    return failures;
  }

  /**
   * Ends every subscription (the connection closes).
   *
   * @returns the errors `end` listeners threw.
   */
  endAll(error: PerpxError | undefined): PerpxError[] {
    const entries = [...this.entries.values()];
    this.entries.clear();
    this.byChannel.clear();
    this.dropped.clear();
    this.counts.clear();
    const failures: PerpxError[] = [];
    for (const entry of entries) {
      const failure = entry.sink.end(error);
      if (failure) failures.push(failure);
    }
    return failures;
  }

  private detach(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    if (entry.status === "sent") {
      // Its reply is on the way: the unsubscribe follows it (see `dropped`).
      this.unlist(entry);
      this.dropped.set(key, entry);
      return;
    }
    this.remove(entry);
    if (entry.status !== "queued" && this.unsubscribe(entry.channel, entry.id)) this.outstanding++;
  }

  /** The dropped subscribe a reply about `channel` and `id` is for, if any. */
  private droppedOf(channel: string | undefined, id: string | undefined): Entry | undefined {
    if (channel === undefined || this.dropped.size === 0) return undefined;
    return this.dropped.get(keyOf(channel, id));
  }

  /**
   * A dropped subscribe was answered: unsubscribed when it went live, its slot freed, and a new
   * subscribe to its key may go.
   */
  private settleDropped(entry: Entry, live: boolean): void {
    this.dropped.delete(entry.key);
    this.uncount(entry.channel);
    if (live && this.unsubscribe(entry.channel, entry.id)) this.outstanding++;
    this.kick();
  }

  private lookup(channel: string | undefined, id: string | undefined): Entry | undefined {
    if (channel === undefined) return undefined;
    return this.byChannel.get(channel)?.get(id ?? channel);
  }

  private remove(entry: Entry): void {
    this.unlist(entry);
    this.uncount(entry.channel);
  }

  /** Takes an entry out of the lookups (its slot still counts). */
  private unlist(entry: Entry): void {
    this.entries.delete(entry.key);
    this.byChannel.get(entry.channel)?.delete(entry.id ?? entry.channel);
  }

  private uncount(channel: IndexerChannel): void {
    const count = (this.counts.get(channel) ?? 1) - 1;
    if (count > 0) this.counts.set(channel, count);
    else this.counts.delete(channel);
  }
}
