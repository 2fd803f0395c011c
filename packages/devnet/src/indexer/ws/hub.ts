/**
 * Fan-out of the feed's channel messages to subscribers. Subscribers of one channel id share a
 * topic; each message is serialized once per topic (not once per subscriber) and spliced behind each
 * connection's numbered head. Unbatched subscribers get a `channel_data` at once; batched ones share
 * the topic's buffer, flushed every `batchIntervalMs` as `channel_batch_data` frames grouped by
 * version and child subaccount (3.6). Subscribers still waiting for their snapshot queue what
 * arrives and get it after `subscribed`, as individual `channel_data` even when batched.
 */
import type { IndexerChannel } from "@perpx/core/indexer";
import type { ChannelMessage } from "../feed.js";
import { type Connection, type Subscription, topicKey } from "./connection.js";
import { batchTails, type DataFrameType, dataTail, type EncodedMessage, encodeMessage } from "./envelopes.js";

interface Topic {
  readonly key: string;
  readonly direct: Set<Subscription>;
  readonly batched: Set<Subscription>;
  readonly pending: Set<Subscription>;
  buffer: EncodedMessage[];
}

/** The UTF-8 bytes of a frame tail, encoded once and copied into every subscriber's frame. */
const utf8 = (tail: string): Uint8Array => Buffer.from(tail);

/** The frames of one step, gathered per connection in order, then sent connection by connection. */
class Outbox {
  readonly #frames = new Map<Connection, Uint8Array[]>();

  add(connection: Connection, tail: Uint8Array): void {
    const frames = this.#frames.get(connection);
    if (frames === undefined) this.#frames.set(connection, [tail]);
    else frames.push(tail);
  }

  /** Sends each connection its run; a connection whose socket throws does not stop the others. */
  send(type: DataFrameType, onError: (error: unknown) => void): void {
    for (const [connection, tails] of this.#frames) {
      try {
        connection.sendAll(type, tails);
      } catch (error) {
        onError(error);
      }
    }
  }
}

/** The subscribers of every channel id, and the batch timer. */
export class SubscriptionHub {
  readonly #topics = new Map<string, Topic>();
  readonly #dirty = new Set<Topic>();
  readonly #batchIntervalMs: number;
  #timer: NodeJS.Timeout | undefined;

  readonly #onError: (error: unknown) => void;

  /**
   * @param batchIntervalMs - how long batched updates wait.
   * @param onError - told about a message that cannot be serialized (it is dropped, the rest go on)
   *   and about a connection whose socket threw on a write (the other connections still get theirs).
   */
  constructor(batchIntervalMs: number, onError: (error: unknown) => void = () => undefined) {
    this.#batchIntervalMs = batchIntervalMs;
    this.#onError = onError;
  }

  /** How many channel ids have at least one subscriber (pending or live). */
  get topicCount(): number {
    return this.#topics.size;
  }

  /** Whether a channel id has a subscriber (pending or live): {@link publish} drops its messages otherwise. */
  has(channel: IndexerChannel, id: string): boolean {
    return this.#topics.has(topicKey(channel, id));
  }

  /** Starts queueing updates for a subscription whose snapshot is being read. */
  addPending(subscription: Subscription): void {
    this.#topic(subscription.key).pending.add(subscription);
  }

  /**
   * Makes a pending subscription live: its queued updates go out as `channel_data` (the caller has
   * just written `subscribed`), then it receives updates directly or through its topic's batches.
   */
  activate(subscription: Subscription): void {
    const topic = this.#topic(subscription.key);
    topic.pending.delete(subscription);
    subscription.state = "live";
    const queued = subscription.queued;
    subscription.queued = [];
    if (queued.length > 0)
      subscription.connection.sendAll(
        "channel_data",
        queued.map((message) => utf8(dataTail(message))),
      );
    if (subscription.batched) {
      subscription.batchFrom = topic.buffer.length;
      topic.batched.add(subscription);
    } else {
      topic.direct.add(subscription);
    }
  }

  /** Forgets a subscription (unsubscribed, refused or disconnected). */
  remove(subscription: Subscription): void {
    subscription.state = "ended";
    subscription.queued = [];
    const topic = this.#topics.get(subscription.key);
    if (topic === undefined) return;
    topic.pending.delete(subscription);
    topic.direct.delete(subscription);
    topic.batched.delete(subscription);
    if (topic.pending.size + topic.direct.size + topic.batched.size === 0) {
      this.#topics.delete(topic.key);
      this.#dirty.delete(topic);
    }
  }

  /**
   * Delivers one step of the feed (the messages of one block or order stream step), in order: each
   * connection gets its frames of the step in one go, connection after connection.
   */
  publish(messages: readonly ChannelMessage[]): void {
    const outbox = new Outbox();
    for (const message of messages) {
      const topic = this.#topics.get(topicKey(message.channel, message.id));
      if (topic === undefined) continue;
      let encoded: EncodedMessage;
      try {
        encoded = encodeMessage(message);
      } catch (error) {
        this.#onError(error);
        continue;
      }
      if (topic.direct.size > 0) {
        const tail = utf8(dataTail(encoded));
        for (const subscription of topic.direct) outbox.add(subscription.connection, tail);
      }
      for (const subscription of topic.pending) subscription.queued.push(encoded);
      if (topic.batched.size > 0) {
        topic.buffer.push(encoded);
        this.#dirty.add(topic);
        this.#timer ??= setTimeout(() => this.flush(), this.#batchIntervalMs);
      }
    }
    outbox.send("channel_data", this.#onError);
  }

  /** Writes every buffered batch now (the timer calls this every `batchIntervalMs` while there are some). */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const outbox = new Outbox();
    for (const topic of this.#dirty) {
      const buffer = topic.buffer;
      topic.buffer = [];
      let shared: Uint8Array[] | undefined;
      for (const subscription of topic.batched) {
        const from = subscription.batchFrom;
        subscription.batchFrom = 0;
        if (from >= buffer.length) continue;
        if (from === 0) shared ??= batchTails(buffer).map(utf8);
        const tails = from === 0 ? (shared as Uint8Array[]) : batchTails(buffer.slice(from)).map(utf8);
        for (const tail of tails) outbox.add(subscription.connection, tail);
      }
    }
    this.#dirty.clear();
    outbox.send("channel_batch_data", this.#onError);
  }

  /** Drops every subscriber and the timer. */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#topics.clear();
    this.#dirty.clear();
  }

  #topic(key: string): Topic {
    let topic = this.#topics.get(key);
    if (topic === undefined) {
      topic = { key, direct: new Set(), batched: new Set(), pending: new Set(), buffer: [] };
      this.#topics.set(key, topic);
    }
    return topic;
  }
}
