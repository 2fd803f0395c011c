/**
 * The contract between the indexer's read models and its WebSocket server: the models answer a
 * channel's initial snapshot and publish the channel messages each change produces; the server
 * only validates subscriptions, numbers and batches messages, and writes JSON. Contents are the
 * JSON bodies of `spec/indexer-api.md` 3.5, built by the models; the server never looks inside.
 */

import type { IndexerChannel } from "@perpx/core/indexer";

/**
 * One update on one channel id, as the models produce it after a block or an off-chain order
 * stream step. `id` is the normalized subscription id (`BTC-USD`, `BTC-USD/1MIN`,
 * `perpx1.../0`); for `v4_markets` and `v4_block_height` it is the channel name itself.
 * `subaccountNumber` is set on `v4_parent_subaccounts` messages (the child that changed); the
 * feed leaves `transfers` between two children of the same parent out of those messages (3.5), as
 * the server never looks inside contents.
 *
 * @example
 * ```ts
 * const message: ChannelMessage = {
 *   channel: "v4_orderbook",
 *   id: "BTC-USD",
 *   version: "1.0.0",
 *   contents: { bids: [["65000", "0.5"]] },
 * };
 * ```
 */
export interface ChannelMessage {
  readonly channel: IndexerChannel;
  readonly id: string;
  readonly version: string;
  readonly contents: object;
  readonly subaccountNumber?: number;
}

/**
 * What the initial fetch of a subscription found: the snapshot contents, an id that does not name
 * anything subscribable (`Invalid subscription id for channel: (...)`), or a refusal with the
 * reference's message (for example the compliance-blocked sentence).
 *
 * @example
 * ```ts
 * const found: ChannelSnapshot = { kind: "snapshot", contents: { height: "5", time: "2026-01-01T00:00:00.000Z" } };
 * ```
 */
export type ChannelSnapshot =
  | { readonly kind: "snapshot"; readonly contents: object }
  | { readonly kind: "invalid-id" }
  | { readonly kind: "refused"; readonly message: string };

/**
 * The read models as the WebSocket server sees them.
 *
 * @example
 * ```ts
 * const feed: IndexerFeed = new Indexer(); // the devnet's indexer implements it
 * const stop = feed.onMessages((messages) => messages.forEach((m) => console.log(m.channel, m.id)));
 * (await feed.snapshot("v4_orderbook", "NOPE-USD")).kind; // "invalid-id"
 * stop();
 * ```
 */
export interface IndexerFeed {
  /**
   * The `subscribed` contents for a normalized channel id, read at the moment of the call. A feed
   * in another process may answer a promise; the server queues the updates that arrive meanwhile
   * and delivers them after `subscribed`.
   */
  snapshot(channel: IndexerChannel, id: string): ChannelSnapshot | Promise<ChannelSnapshot>;
  /**
   * Subscribes to every channel message, in the order the models applied the changes; each call
   * carries the messages of one block or one order stream step (a step's order book updates come in
   * a call of their own, ahead of its other messages). With `wants`, the listener needs only the
   * channel ids it answers true for, asked at each step: the feed may leave out (and not build) a
   * message no listener wants. Returns the unsubscribe function.
   */
  onMessages(listener: (messages: readonly ChannelMessage[]) => void, wants?: ChannelInterest): () => void;
}

/**
 * Whether a listener needs the messages of one channel id (`id` as {@link ChannelMessage} has it).
 *
 * @example
 * ```ts
 * const onlyBtc: ChannelInterest = (channel, id) => channel === "v4_trades" && id === "BTC-USD";
 * ```
 */
export type ChannelInterest = (channel: IndexerChannel, id: string) => boolean;
