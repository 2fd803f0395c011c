/**
 * One channel subscription on an indexer socket: both an event emitter and an async iterator. It
 * delivers the snapshot first, then updates (a `channel_batch_data` is unrolled: each update is
 * delivered alone, in order, so batched and unbatched subscriptions look the same); after a
 * reconnect or a lost message it delivers `reset`, then a fresh snapshot.
 */

import type { IndexerChannel, IndexerChannelSnapshot, IndexerChannelUpdate } from "@perpx/core/indexer";
import type { PerpxError } from "@perpx/errors";
import { Emitter } from "./emitter.js";
import { IndexerListenerError, WebSocketClosedError } from "./errors.js";

/**
 * Why a subscription's state starts over: the socket reconnected, a message was lost (`gap`), or a
 * message of this subscription was refused (`invalid`: contents that break the channel's contract,
 * or a listener that threw while applying it).
 *
 * @example
 * ```ts
 * const reason: ResetReason = "gap";
 * reason; // "gap"
 * ```
 */
export type ResetReason = "reconnect" | "gap" | "invalid";

/**
 * What a subscription delivers, in order: a `snapshot` (`reason` says whether it is the first one
 * or follows a `reset`), `update`s, and on a resync a `reset` followed by a new `snapshot`.
 *
 * @example
 * ```ts
 * const event: SubscriptionEvent<"v4_block_height"> = {
 *   type: "update",
 *   contents: { blockHeight: "43", time: "2026-01-01T00:00:01.000Z" },
 *   messageId: 7,
 * };
 * event.type; // "update"
 * ```
 */
export type SubscriptionEvent<C extends IndexerChannel> =
  | {
      readonly type: "snapshot";
      readonly contents: IndexerChannelSnapshot<C>;
      readonly reason: "initial" | ResetReason;
    }
  | {
      readonly type: "update";
      readonly contents: IndexerChannelUpdate<C>;
      readonly messageId: number;
      /** `v4_parent_subaccounts` only: the child subaccount the update is about. */
      readonly subaccountNumber?: number;
    }
  | { readonly type: "reset"; readonly reason: ResetReason };

/**
 * The events of a {@link Subscription}, by name.
 *
 * @example
 * ```ts
 * const end: SubscriptionEvents<"v4_trades">["end"] = {};
 * end.error; // undefined
 * ```
 */
export interface SubscriptionEvents<C extends IndexerChannel> {
  [event: string]: unknown;
  snapshot: Extract<SubscriptionEvent<C>, { type: "snapshot" }>;
  update: Extract<SubscriptionEvent<C>, { type: "update" }>;
  reset: Extract<SubscriptionEvent<C>, { type: "reset" }>;
  /** The subscription ended: by `unsubscribe()`, `close()`, or a refusal (`error` set). */
  end: { readonly error?: PerpxError };
}

/**
 * Where a subscription is: waiting for its snapshot, live, or ended.
 *
 * @example
 * ```ts
 * const state: SubscriptionState = "live";
 * state; // "live"
 * ```
 */
export type SubscriptionState = "subscribing" | "live" | "ended";

/**
 * What the connection drives a subscription with (not part of the public surface). `snapshot`,
 * `update` and `reset` throw an {@link IndexerListenerError} when a listener threw (after every
 * listener ran); `end` answers it instead.
 */
export interface SubscriptionSink<C extends IndexerChannel> {
  snapshot(contents: IndexerChannelSnapshot<C>): void;
  update(contents: IndexerChannelUpdate<C>, messageId: number, subaccountNumber?: number): void;
  reset(reason: ResetReason): void;
  end(error?: PerpxError): IndexerListenerError | undefined;
}

/**
 * A live subscription to one channel id.
 *
 * @example
 * ```ts
 * const socket = await connectIndexerSocket({ url: devnet.endpoints.indexerWs });
 * const book = socket.subscribe("v4_orderbook", "BTC-USD");
 * const { bids, asks } = await book.ready();
 * Array.isArray(bids) && Array.isArray(asks); // true
 * book.state; // "live"
 * book.unsubscribe();
 * book.state; // "ended"
 * await socket.close();
 * ```
 */
export class Subscription<C extends IndexerChannel> extends Emitter<SubscriptionEvents<C>> {
  /** The channel. */
  readonly channel: C;
  /** The subscription id (the channel name for `v4_markets` and `v4_block_height`). */
  readonly id: string;
  /** Whether the server batches this subscription's updates (they are unrolled here either way). */
  readonly batched: boolean;
  private current: SubscriptionState = "subscribing";
  private latest: IndexerChannelSnapshot<C> | undefined;
  private failure: PerpxError | undefined;
  private readonly queues = new Set<SubscriptionEvent<C>[]>();
  private readonly wakers = new Set<() => void>();
  private readonly detach: () => void;

  /**
   * @param channel - the channel.
   * @param id - the id.
   * @param batched - whether the server batches updates.
   * @param detach - tells the connection to unsubscribe.
   */
  constructor(channel: C, id: string, batched: boolean, detach: () => void) {
    super();
    this.channel = channel;
    this.id = id;
    this.batched = batched;
    this.detach = detach;
  }

  /** Where the subscription is. */
  get state(): SubscriptionState {
    return this.current;
  }

  /** The last snapshot received, if any. */
  get lastSnapshot(): IndexerChannelSnapshot<C> | undefined {
    return this.latest;
  }

  /**
   * Resolves with the snapshot once the subscription is live (at once if it already is).
   *
   * @returns the snapshot contents.
   * @throws {IndexerSubscriptionError} when the server refused the subscription.
   * @throws {WebSocketClosedError} when it ended first.
   */
  ready(): Promise<IndexerChannelSnapshot<C>> {
    if (this.current === "live" && this.latest !== undefined) return Promise.resolve(this.latest);
    if (this.current === "ended") return Promise.reject(this.endError());
    return new Promise((resolve, reject) => {
      const offs = [
        this.on("snapshot", ({ contents }) => {
          for (const off of offs) off();
          resolve(contents);
        }),
        this.on("end", () => {
          for (const off of offs) off();
          reject(this.endError());
        }),
      ];
    });
  }

  /**
   * Ends the subscription and tells the server (when the socket is open). Idempotent.
   *
   * @throws what an `end` listener threw (after every listener ran).
   */
  unsubscribe(): void {
    if (this.current === "ended") return;
    this.detach();
    const failure = this.finish(undefined);
    if (failure) throw failure.cause;
  }

  /**
   * Iterates the events from now on; ends when the subscription ends, throws if it was refused.
   *
   * @returns an async iterator over the subscription's events.
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<SubscriptionEvent<C>, void, undefined> {
    const queue: SubscriptionEvent<C>[] = [];
    this.queues.add(queue);
    try {
      for (;;) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (this.current === "ended") {
          if (this.failure) throw this.failure;
          return;
        }
        await new Promise<void>((resolve) => this.wakers.add(resolve));
      }
    } finally {
      this.queues.delete(queue);
    }
  }

  /**
   * The sink the connection drives this subscription with.
   *
   * @returns the sink.
   */
  sink(): SubscriptionSink<C> {
    return {
      snapshot: (contents) => {
        if (this.current === "ended") return;
        const reason = this.pendingReset ?? "initial";
        this.pendingReset = undefined;
        this.current = "live";
        this.latest = contents;
        this.deliver("snapshot", { type: "snapshot", contents, reason });
      },
      update: (contents, messageId, subaccountNumber) => {
        if (this.current !== "live") return;
        this.deliver(
          "update",
          subaccountNumber === undefined
            ? { type: "update", contents, messageId }
            : { type: "update", contents, messageId, subaccountNumber },
        );
      },
      reset: (reason) => {
        if (this.current === "ended") return;
        // A second reset before the snapshot keeps the first reason; only a live one is announced.
        if (this.current === "live") {
          this.pendingReset = reason;
          this.current = "subscribing";
          this.deliver("reset", { type: "reset", reason });
        }
      },
      end: (error) => this.finish(error),
    };
  }

  private pendingReset: ResetReason | undefined;

  private deliver<E extends "snapshot" | "update" | "reset">(
    event: E,
    value: SubscriptionEvents<C>[E] & SubscriptionEvent<C>,
  ): void {
    if (this.queues.size !== 0) {
      for (const queue of this.queues) queue.push(value);
      this.wake();
    }
    const failure = this.emitGuarded(event, value);
    if (failure) throw this.listenerError(event, failure.thrown);
  }

  private finish(error: PerpxError | undefined): IndexerListenerError | undefined {
    if (this.current === "ended") return undefined;
    this.current = "ended";
    this.failure = error;
    this.wake();
    const failure = this.emitGuarded("end", error === undefined ? {} : { error });
    this.removeAllListeners();
    return failure && this.listenerError("end", failure.thrown);
  }

  private listenerError(event: string, thrown: unknown): IndexerListenerError {
    return new IndexerListenerError(event, thrown, { channel: this.channel, id: this.id });
  }

  private wake(): void {
    if (this.wakers.size === 0) return;
    const wakers = [...this.wakers];
    this.wakers.clear();
    for (const wake of wakers) wake();
  }

  private endError(): PerpxError {
    return this.failure ?? new WebSocketClosedError(`the subscription ${this.channel} ${this.id} ended`);
  }
}
