/**
 * The indexer's WebSocket channels (`spec/indexer-api.md` 3.2, 3.3 and 3.7): names, message
 * versions, per-connection subscription caps, and the subscription id formats with their builders
 * and parsers.
 */
import { MAX_PARENT_SUBACCOUNT_NUMBER } from "@perpx/address";
import { InvalidArgumentError } from "@perpx/errors";
import { CANDLE_RESOLUTIONS, type CandleResolution } from "./enums.js";
import { INDEXER_WS_SUBACCOUNT_NUMBER_LIMIT } from "./limits.js";

/**
 * The seven WebSocket channels of the indexer.
 *
 * @example
 * ```ts
 * const channel: IndexerChannel = "v4_orderbook";
 * ```
 */
export type IndexerChannel =
  | "v4_markets"
  | "v4_trades"
  | "v4_orderbook"
  | "v4_candles"
  | "v4_subaccounts"
  | "v4_parent_subaccounts"
  | "v4_block_height";

/**
 * Every {@link IndexerChannel}.
 *
 * @example
 * ```ts
 * INDEXER_CHANNELS.includes("v4_candles"); // true
 * ```
 */
export const INDEXER_CHANNELS: readonly IndexerChannel[] = [
  "v4_markets",
  "v4_trades",
  "v4_orderbook",
  "v4_candles",
  "v4_subaccounts",
  "v4_parent_subaccounts",
  "v4_block_height",
];

/**
 * The channels subscribed without an `id` (the server normalizes their id to the channel name).
 *
 * @example
 * ```ts
 * const channel: IndexerChannelWithoutId = "v4_block_height";
 * ```
 */
export type IndexerChannelWithoutId = "v4_markets" | "v4_block_height";

/**
 * The channels whose subscriptions need an `id`.
 *
 * @example
 * ```ts
 * const channel: IndexerChannelWithId = "v4_trades";
 * ```
 */
export type IndexerChannelWithId = Exclude<IndexerChannel, IndexerChannelWithoutId>;

/**
 * The `version` each channel's `channel_data` and `channel_batch_data` messages carry.
 *
 * @example
 * ```ts
 * INDEXER_CHANNEL_VERSIONS.v4_subaccounts; // "3.0.0"
 * ```
 */
export const INDEXER_CHANNEL_VERSIONS: Readonly<Record<IndexerChannel, string>> = {
  v4_markets: "1.0.0",
  v4_trades: "2.1.0",
  v4_orderbook: "1.0.0",
  v4_candles: "1.0.0",
  v4_subaccounts: "3.0.0",
  v4_parent_subaccounts: "3.0.0",
  v4_block_height: "1.0.0",
};

/**
 * How many subscriptions to each channel one connection may hold; one more gets the error
 * `Per-connection subscription limit reached for <channel> (limit=N).` and the connection stays open.
 *
 * @example
 * ```ts
 * INDEXER_CHANNEL_SUBSCRIPTION_LIMITS.v4_orderbook; // 32
 * ```
 */
export const INDEXER_CHANNEL_SUBSCRIPTION_LIMITS: Readonly<Record<IndexerChannel, number>> = {
  v4_markets: 32,
  v4_trades: 32,
  v4_orderbook: 32,
  v4_candles: 32,
  v4_subaccounts: 256,
  v4_parent_subaccounts: 256,
  v4_block_height: 1,
};

/**
 * How often the server flushes the updates of a `batched: true` subscription, in milliseconds.
 *
 * @example
 * ```ts
 * INDEXER_WS_BATCH_INTERVAL_MS; // 250
 * ```
 */
export const INDEXER_WS_BATCH_INTERVAL_MS = 250;

/**
 * How often the server sends a protocol-level ping frame, in milliseconds; it closes with 1011
 * (`Heartbeat timeout`) when no pong comes within {@link INDEXER_WS_PONG_TIMEOUT_MS}.
 *
 * @example
 * ```ts
 * INDEXER_WS_PING_INTERVAL_MS; // 30000
 * ```
 */
export const INDEXER_WS_PING_INTERVAL_MS = 30_000;

/**
 * How long the server waits for a pong before closing with 1011, in milliseconds.
 *
 * @example
 * ```ts
 * INDEXER_WS_PONG_TIMEOUT_MS; // 10000
 * ```
 */
export const INDEXER_WS_PONG_TIMEOUT_MS = 10_000;

/**
 * The address and subaccount number a `v4_subaccounts` or `v4_parent_subaccounts` id names.
 *
 * @example
 * ```ts
 * const id: SubaccountChannelIdParts = { address: "perpx1...", subaccountNumber: 0 };
 * ```
 */
export interface SubaccountChannelIdParts {
  readonly address: string;
  readonly subaccountNumber: number;
}

/**
 * The ticker and resolution a `v4_candles` id names.
 *
 * @example
 * ```ts
 * const id: CandlesChannelIdParts = { ticker: "BTC-USD", resolution: "1MIN" };
 * ```
 */
export interface CandlesChannelIdParts {
  readonly ticker: string;
  readonly resolution: CandleResolution;
}

const ADDRESS_PATTERN = /^[a-zA-Z0-9]+$/;
const NUMBER_PATTERN = /^(0|[1-9][0-9]*)$/;

function checkAddress(address: string): void {
  if (!ADDRESS_PATTERN.test(address)) {
    throw new InvalidArgumentError("address", "must be a non-empty alphanumeric address");
  }
}

function checkNumber(argument: string, n: number, limit: number): void {
  if (!Number.isSafeInteger(n) || n < 0 || n >= limit) {
    throw new InvalidArgumentError(argument, `must be an integer in 0..${limit - 1}, got ${n}`);
  }
}

/**
 * The `v4_subaccounts` subscription id of a subaccount: `address/subaccountNumber`.
 *
 * @param address - the owner address (alphanumeric).
 * @param subaccountNumber - an integer in `0..127999`.
 * @returns the id, like `"perpx1.../0"`.
 * @throws InvalidArgumentError naming `address` or `subaccountNumber` when either is malformed.
 * @example
 * ```ts
 * subaccountChannelId("perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", 0);
 * // "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c/0"
 * ```
 */
export function subaccountChannelId(address: string, subaccountNumber: number): string {
  checkAddress(address);
  checkNumber("subaccountNumber", subaccountNumber, INDEXER_WS_SUBACCOUNT_NUMBER_LIMIT);
  return `${address}/${subaccountNumber}`;
}

/**
 * The `v4_parent_subaccounts` subscription id of a parent subaccount: `address/parentSubaccountNumber`.
 *
 * @param address - the owner address (alphanumeric).
 * @param parentSubaccountNumber - an integer in `0..127`.
 * @returns the id, like `"perpx1.../0"`.
 * @throws InvalidArgumentError naming `address` or `parentSubaccountNumber` when either is malformed.
 * @example
 * ```ts
 * parentSubaccountChannelId("perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", 3);
 * // "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c/3"
 * ```
 */
export function parentSubaccountChannelId(address: string, parentSubaccountNumber: number): string {
  checkAddress(address);
  checkNumber("parentSubaccountNumber", parentSubaccountNumber, MAX_PARENT_SUBACCOUNT_NUMBER + 1);
  return `${address}/${parentSubaccountNumber}`;
}

/**
 * The `v4_candles` subscription id: `TICKER/RESOLUTION`.
 *
 * @param ticker - the market ticker, like `BTC-USD`.
 * @param resolution - a candle resolution.
 * @returns the id, like `"BTC-USD/1MIN"`.
 * @throws InvalidArgumentError naming `ticker` or `resolution` when either is malformed.
 * @example
 * ```ts
 * candlesChannelId("BTC-USD", "1MIN"); // "BTC-USD/1MIN"
 * ```
 */
export function candlesChannelId(ticker: string, resolution: CandleResolution): string {
  if (ticker.length === 0 || ticker.includes("/")) {
    throw new InvalidArgumentError("ticker", `must be a non-empty ticker without "/", got "${ticker}"`);
  }
  if (!CANDLE_RESOLUTIONS.includes(resolution)) {
    throw new InvalidArgumentError("resolution", `must be one of ${CANDLE_RESOLUTIONS.join(",")}`);
  }
  return `${ticker}/${resolution}`;
}

function parseNumbered(id: string, limit: number): SubaccountChannelIdParts | undefined {
  const slash = id.indexOf("/");
  if (slash < 0 || id.indexOf("/", slash + 1) >= 0) return undefined;
  const address = id.slice(0, slash);
  const digits = id.slice(slash + 1);
  if (!ADDRESS_PATTERN.test(address) || !NUMBER_PATTERN.test(digits)) return undefined;
  const subaccountNumber = Number(digits);
  return subaccountNumber < limit ? { address, subaccountNumber } : undefined;
}

/**
 * Splits a `v4_subaccounts` id into address and subaccount number; `undefined` when the id is not
 * `alphanumeric/number` with the number in `0..127999` (no sign, no leading zeros).
 *
 * @param id - the subscription id.
 * @returns the parts, or `undefined`.
 * @example
 * ```ts
 * parseSubaccountChannelId("perpx1abc/2"); // { address: "perpx1abc", subaccountNumber: 2 }
 * parseSubaccountChannelId("perpx1abc/128000"); // undefined
 * ```
 */
export function parseSubaccountChannelId(id: string): SubaccountChannelIdParts | undefined {
  return parseNumbered(id, INDEXER_WS_SUBACCOUNT_NUMBER_LIMIT);
}

/**
 * Splits a `v4_parent_subaccounts` id into address and parent number (`subaccountNumber` holds the
 * parent number, `0..127`); `undefined` when malformed or out of range.
 *
 * @param id - the subscription id.
 * @returns the parts, or `undefined`.
 * @example
 * ```ts
 * parseParentSubaccountChannelId("perpx1abc/5"); // { address: "perpx1abc", subaccountNumber: 5 }
 * parseParentSubaccountChannelId("perpx1abc/128"); // undefined
 * ```
 */
export function parseParentSubaccountChannelId(id: string): SubaccountChannelIdParts | undefined {
  return parseNumbered(id, MAX_PARENT_SUBACCOUNT_NUMBER + 1);
}

/**
 * Splits a `v4_candles` id into ticker and resolution; `undefined` when it is not `TICKER/RES`
 * with a known resolution.
 *
 * @param id - the subscription id.
 * @returns the parts, or `undefined`.
 * @example
 * ```ts
 * parseCandlesChannelId("BTC-USD/15MINS"); // { ticker: "BTC-USD", resolution: "15MINS" }
 * parseCandlesChannelId("BTC-USD/2MINS"); // undefined
 * ```
 */
export function parseCandlesChannelId(id: string): CandlesChannelIdParts | undefined {
  const slash = id.indexOf("/");
  if (slash <= 0 || id.indexOf("/", slash + 1) >= 0) return undefined;
  const resolution = CANDLE_RESOLUTIONS.find((known) => known === id.slice(slash + 1));
  return resolution === undefined ? undefined : { ticker: id.slice(0, slash), resolution };
}
