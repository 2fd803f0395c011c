/**
 * What the WebSocket server knows about each channel before asking the feed: whether it exists, how
 * many subscriptions one connection may hold, and the shape of its subscription id
 * (`spec/indexer-api.md` 3.2 and 3.7). Whether a well-formed id names something (a known ticker) is
 * the feed's answer, not this module's.
 */
import type { IndexerChannel } from "../feed.js";

/** Every channel, for `Invalid channel: <channel>`. */
export const CHANNELS: readonly IndexerChannel[] = [
  "v4_markets",
  "v4_trades",
  "v4_orderbook",
  "v4_candles",
  "v4_subaccounts",
  "v4_parent_subaccounts",
  "v4_block_height",
];

/** Per-connection subscription caps (3.7). */
export const SUBSCRIPTION_LIMITS: Readonly<Record<IndexerChannel, number>> = {
  v4_markets: 32,
  v4_trades: 32,
  v4_orderbook: 32,
  v4_candles: 32,
  v4_subaccounts: 256,
  v4_parent_subaccounts: 256,
  v4_block_height: 1,
};

const CANDLE_RESOLUTIONS = ["1MIN", "5MINS", "15MINS", "30MINS", "1HOUR", "4HOURS", "1DAY"];
const SUBACCOUNT_NUMBER_LIMIT = 128_000;
const PARENT_NUMBER_LIMIT = 128;
const ADDRESS = /^[a-zA-Z0-9]+$/;
const NUMBER = /^(0|[1-9][0-9]*)$/;

/** Whether `value` names one of the seven channels. */
export function isChannel(value: unknown): value is IndexerChannel {
  return typeof value === "string" && (CHANNELS as readonly string[]).includes(value);
}

/** Whether the channel is subscribed without an id (its id is normalized to the channel name). */
export function hasNoId(channel: IndexerChannel): boolean {
  return channel === "v4_markets" || channel === "v4_block_height";
}

function numbered(id: string, limit: number): boolean {
  const slash = id.indexOf("/");
  if (slash < 0 || id.indexOf("/", slash + 1) >= 0) return false;
  const digits = id.slice(slash + 1);
  return ADDRESS.test(id.slice(0, slash)) && NUMBER.test(digits) && Number(digits) < limit;
}

function candles(id: string): boolean {
  const slash = id.indexOf("/");
  if (slash <= 0 || id.indexOf("/", slash + 1) >= 0) return false;
  return CANDLE_RESOLUTIONS.includes(id.slice(slash + 1));
}

/**
 * The normalized subscription id for a channel and the id a client sent (already known to be a
 * string for channels that need one), or `undefined` when its format is wrong for the channel:
 * `TICKER/RESOLUTION` with a known resolution for candles, `address/n` with n below 128000
 * (subaccounts) or 128 (parent subaccounts), a non-empty ticker for trades and the order book.
 * Channels without an id normalize to the channel name whatever the client sent.
 */
export function normalizeSubscriptionId(channel: IndexerChannel, id: unknown): string | undefined {
  if (hasNoId(channel)) return channel;
  if (typeof id !== "string") return undefined;
  switch (channel) {
    case "v4_trades":
    case "v4_orderbook":
      return id.length > 0 && !id.includes("/") ? id : undefined;
    case "v4_candles":
      return candles(id) ? id : undefined;
    case "v4_subaccounts":
      return numbered(id, SUBACCOUNT_NUMBER_LIMIT) ? id : undefined;
    case "v4_parent_subaccounts":
      return numbered(id, PARENT_NUMBER_LIMIT) ? id : undefined;
  }
  return undefined;
}
