/**
 * What the WebSocket server checks about a subscription before asking the feed: whether the channel
 * exists and whether the id has the channel's shape (`spec/indexer-api.md` 3.2). The names, caps
 * and id parsers are the shared contract's (`@perpx/core/indexer`); whether a well-formed id names
 * something (a known ticker) is the feed's answer, not this module's.
 */
import {
  INDEXER_CHANNELS,
  type IndexerChannel,
  parseCandlesChannelId,
  parseParentSubaccountChannelId,
  parseSubaccountChannelId,
} from "@perpx/core/indexer";

/** Whether `value` names one of the seven channels. */
export function isChannel(value: unknown): value is IndexerChannel {
  return typeof value === "string" && (INDEXER_CHANNELS as readonly string[]).includes(value);
}

/** Whether the channel is subscribed without an id (its id is normalized to the channel name). */
export function hasNoId(channel: IndexerChannel): boolean {
  return channel === "v4_markets" || channel === "v4_block_height";
}

/**
 * The normalized subscription id for a channel and the id a client sent, or `undefined` when its
 * format is wrong for the channel: `TICKER/RESOLUTION` with a known resolution for candles,
 * `address/n` with n below 128000 (subaccounts) or 128 (parent subaccounts), a non-empty ticker
 * without `/` for trades and the order book. Channels without an id normalize to the channel name
 * whatever the client sent.
 */
export function normalizeSubscriptionId(channel: IndexerChannel, id: unknown): string | undefined {
  if (hasNoId(channel)) return channel;
  if (typeof id !== "string") return undefined;
  switch (channel) {
    case "v4_trades":
    case "v4_orderbook":
      return id.length > 0 && !id.includes("/") ? id : undefined;
    case "v4_candles":
      return parseCandlesChannelId(id) === undefined ? undefined : id;
    case "v4_subaccounts":
      return parseSubaccountChannelId(id) === undefined ? undefined : id;
    case "v4_parent_subaccounts":
      return parseParentSubaccountChannelId(id) === undefined ? undefined : id;
  }
  return undefined;
}
