/**
 * The indexer's WebSocket messages (`spec/indexer-api.md` 3.2 and 3.3): what a client sends and
 * the envelopes the server answers with, typed per channel.
 */
import type { IndexerChannel, IndexerChannelWithId, IndexerChannelWithoutId } from "./channels.js";
import type { IndexerChannelSnapshots, IndexerChannelUpdates } from "./contents.js";

/**
 * A `subscribe` message. `id` is required except on `v4_markets` and `v4_block_height`;
 * `batched: true` asks for updates flushed every 250 ms as `channel_batch_data`.
 *
 * @example
 * ```ts
 * const message: IndexerSubscribeMessage = { type: "subscribe", channel: "v4_orderbook", id: "BTC-USD", batched: true };
 * ```
 */
export type IndexerSubscribeMessage =
  | {
      readonly type: "subscribe";
      readonly channel: IndexerChannelWithId;
      readonly id: string;
      readonly batched?: boolean;
    }
  | {
      readonly type: "subscribe";
      readonly channel: IndexerChannelWithoutId;
      readonly id?: string;
      readonly batched?: boolean;
    };

/**
 * An `unsubscribe` message (same `id` rules as subscribe).
 *
 * @example
 * ```ts
 * const message: IndexerUnsubscribeMessage = { type: "unsubscribe", channel: "v4_markets" };
 * ```
 */
export type IndexerUnsubscribeMessage =
  | { readonly type: "unsubscribe"; readonly channel: IndexerChannelWithId; readonly id: string }
  | { readonly type: "unsubscribe"; readonly channel: IndexerChannelWithoutId; readonly id?: string };

/**
 * An application `ping`: accepted and ignored (no `pong` comes back; liveness is protocol pings).
 *
 * @example
 * ```ts
 * const message: IndexerPingMessage = { type: "ping" };
 * ```
 */
export interface IndexerPingMessage {
  readonly type: "ping";
}

/**
 * Any message a client sends.
 *
 * @example
 * ```ts
 * const messages: IndexerClientMessage[] = [{ type: "subscribe", channel: "v4_block_height" }, { type: "ping" }];
 * ```
 */
export type IndexerClientMessage = IndexerSubscribeMessage | IndexerUnsubscribeMessage | IndexerPingMessage;

/**
 * The fields every server message carries: the connection's id and the per-connection message
 * number (0 on connect; unique for data messages, not strictly increasing in arrival order).
 *
 * @example
 * ```ts
 * const base: IndexerMessageBase = { connection_id: "4f1e2d3c-0000-4000-8000-000000000000", message_id: 3 };
 * ```
 */
export interface IndexerMessageBase {
  readonly connection_id: string;
  readonly message_id: number;
}

/**
 * The `id` field of a channel's server messages: absent on `v4_markets`, present otherwise
 * (`v4_block_height` carries `"v4_block_height"`).
 *
 * @example
 * ```ts
 * const field: IndexerMessageIdField<"v4_trades"> = { id: "BTC-USD" };
 * ```
 */
export type IndexerMessageIdField<C extends IndexerChannel> = C extends "v4_markets"
  ? { readonly id?: never }
  : { readonly id: string };

/**
 * The child field of a channel's data messages: `v4_parent_subaccounts` names the child subaccount
 * that produced the update; other channels have none.
 *
 * @example
 * ```ts
 * const field: IndexerMessageChildField<"v4_parent_subaccounts"> = { subaccountNumber: 128 };
 * ```
 */
export type IndexerMessageChildField<C extends IndexerChannel> = C extends "v4_parent_subaccounts"
  ? { readonly subaccountNumber: number }
  : { readonly subaccountNumber?: never };

/**
 * Sent once on connect, with `message_id` 0.
 *
 * @example
 * ```ts
 * const message: IndexerConnectedMessage = { type: "connected", connection_id: "4f1e...", message_id: 0 };
 * ```
 */
export interface IndexerConnectedMessage extends IndexerMessageBase {
  readonly type: "connected";
}

/**
 * The `subscribed` answer of channel `C`, with its initial snapshot.
 *
 * @example
 * ```ts
 * const message: IndexerSubscribedMessageOf<"v4_block_height"> = {
 *   type: "subscribed", connection_id: "4f1e...", message_id: 1, channel: "v4_block_height",
 *   id: "v4_block_height", contents: { height: "42", time: "2026-01-01T00:00:00.000Z" },
 * };
 * ```
 */
export type IndexerSubscribedMessageOf<C extends IndexerChannel> = IndexerMessageBase &
  IndexerMessageIdField<C> & {
    readonly type: "subscribed";
    readonly channel: C;
    readonly contents: IndexerChannelSnapshots[C];
  };

/**
 * The `unsubscribed` answer of channel `C` (sent even when not subscribed; no contents).
 *
 * @example
 * ```ts
 * const message: IndexerUnsubscribedMessageOf<"v4_trades"> = {
 *   type: "unsubscribed", connection_id: "4f1e...", message_id: 7, channel: "v4_trades", id: "BTC-USD",
 * };
 * ```
 */
export type IndexerUnsubscribedMessageOf<C extends IndexerChannel> = IndexerMessageBase &
  IndexerMessageIdField<C> & {
    readonly type: "unsubscribed";
    readonly channel: C;
  };

/**
 * One update of channel `C`.
 *
 * @example
 * ```ts
 * const message: IndexerChannelDataMessageOf<"v4_orderbook"> = {
 *   type: "channel_data", connection_id: "4f1e...", message_id: 9, channel: "v4_orderbook", id: "BTC-USD",
 *   version: "1.0.0", contents: { bids: [["64999", "2"]] },
 * };
 * ```
 */
export type IndexerChannelDataMessageOf<C extends IndexerChannel> = IndexerMessageBase &
  IndexerMessageIdField<C> &
  IndexerMessageChildField<C> & {
    readonly type: "channel_data";
    readonly channel: C;
    readonly version: string;
    readonly contents: IndexerChannelUpdates[C];
  };

/**
 * A flush of a batched subscription of channel `C`: the updates' contents in arrival order, all of
 * one `version` (and, on `v4_parent_subaccounts`, of one child).
 *
 * @example
 * ```ts
 * const message: IndexerChannelBatchDataMessageOf<"v4_trades"> = {
 *   type: "channel_batch_data", connection_id: "4f1e...", message_id: 10, channel: "v4_trades", id: "BTC-USD",
 *   version: "2.1.0", contents: [{ trades: [] }],
 * };
 * ```
 */
export type IndexerChannelBatchDataMessageOf<C extends IndexerChannel> = IndexerMessageBase &
  IndexerMessageIdField<C> &
  IndexerMessageChildField<C> & {
    readonly type: "channel_batch_data";
    readonly channel: C;
    readonly version: string;
    readonly contents: readonly IndexerChannelUpdates[C][];
  };

type EachChannel<T extends { [C in IndexerChannel]: unknown }> = T[IndexerChannel];

/**
 * A `subscribed` message of any channel, discriminated by `channel`.
 *
 * @example
 * ```ts
 * const levels = (m: IndexerSubscribedMessage) => (m.channel === "v4_orderbook" ? m.contents.bids.length : 0);
 * levels({
 *   type: "subscribed", connection_id: "c1", message_id: 1, channel: "v4_orderbook", id: "BTC-USD",
 *   contents: { bids: [{ price: "64999", size: "1" }], asks: [] },
 * }); // 1
 * ```
 */
export type IndexerSubscribedMessage = EachChannel<{ [C in IndexerChannel]: IndexerSubscribedMessageOf<C> }>;

/**
 * An `unsubscribed` message of any channel.
 *
 * @example
 * ```ts
 * const message: IndexerUnsubscribedMessage = { type: "unsubscribed", connection_id: "c1", message_id: 2, channel: "v4_markets" };
 * message.channel; // "v4_markets"
 * ```
 */
export type IndexerUnsubscribedMessage = EachChannel<{
  [C in IndexerChannel]: IndexerUnsubscribedMessageOf<C>;
}>;

/**
 * A `channel_data` message of any channel, discriminated by `channel`.
 *
 * @example
 * ```ts
 * const height = (m: IndexerChannelDataMessage) => (m.channel === "v4_block_height" ? m.contents.blockHeight : undefined);
 * height({
 *   type: "channel_data", connection_id: "c1", message_id: 3, channel: "v4_block_height", id: "v4_block_height",
 *   version: "1.0.0", contents: { blockHeight: "43", time: "2026-01-01T00:00:01.000Z" },
 * }); // "43"
 * ```
 */
export type IndexerChannelDataMessage = EachChannel<{
  [C in IndexerChannel]: IndexerChannelDataMessageOf<C>;
}>;

/**
 * A `channel_batch_data` message of any channel, discriminated by `channel`.
 *
 * @example
 * ```ts
 * const trades = (m: IndexerChannelBatchDataMessage) =>
 *   m.channel === "v4_trades" ? m.contents.flatMap((update) => update.trades).length : 0;
 * trades({
 *   type: "channel_batch_data", connection_id: "c1", message_id: 4, channel: "v4_trades", id: "BTC-USD",
 *   version: "2.1.0", contents: [{ trades: [] }, { trades: [] }],
 * }); // 0
 * ```
 */
export type IndexerChannelBatchDataMessage = EachChannel<{
  [C in IndexerChannel]: IndexerChannelBatchDataMessageOf<C>;
}>;

/**
 * An `error` message. `channel` and `id` are present only for initial-fetch failures and
 * "already subscribed".
 *
 * @example
 * ```ts
 * const message: IndexerErrorMessage = {
 *   type: "error", connection_id: "4f1e...", message_id: 2, message: "Invalid channel: v4_nope",
 * };
 * ```
 */
export interface IndexerErrorMessage extends IndexerMessageBase {
  readonly type: "error";
  readonly message: string;
  readonly channel?: string;
  readonly id?: string;
}

/**
 * Any message the server sends, discriminated by `type` (then by `channel`).
 *
 * @example
 * ```ts
 * const describe = (message: IndexerServerMessage): string =>
 *   message.type === "error" ? message.message : `${message.type} ${message.message_id}`;
 * describe(JSON.parse('{"type":"connected","connection_id":"c1","message_id":0}')); // "connected 0"
 * ```
 */
export type IndexerServerMessage =
  | IndexerConnectedMessage
  | IndexerSubscribedMessage
  | IndexerUnsubscribedMessage
  | IndexerChannelDataMessage
  | IndexerChannelBatchDataMessage
  | IndexerErrorMessage;
