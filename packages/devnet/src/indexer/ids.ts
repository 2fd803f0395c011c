/**
 * The indexer's deterministic UUIDs (subaccounts, orders, fills, candles): a SHA-256 of the
 * entity's natural key, laid out as a version-5-style UUID, so that the same entity always gets
 * the same id, across restarts too.
 */
import { sha256 } from "../app/lib/sha256.js";

/** How many recent keys {@link uuidOf} remembers (bounded, so the heap stays flat). */
const REMEMBERED = 4096;

/**
 * The UUIDs of recent keys: one entity is named many times in a row (an order in its placement,
 * update and removal messages, a subaccount in every one of its updates). Emptied when full.
 */
const recent = new Map<string, string>();

/** The UUID of a natural key. */
export function uuidOf(key: string): string {
  const known = recent.get(key);
  if (known !== undefined) return known;
  const bytes = sha256(key).subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const h = Buffer.from(bytes).toString("hex");
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  if (recent.size >= REMEMBERED) recent.clear();
  recent.set(key, uuid);
  return uuid;
}

/** The id of a subaccount. */
export function subaccountUuid(address: string, subaccountNumber: number): string {
  return uuidOf(`subaccount/${address}/${subaccountNumber}`);
}

/** The id of a candle. */
export function candleUuid(ticker: string, resolution: string, startedAt: string): string {
  return uuidOf(`candle/${ticker}/${resolution}/${startedAt}`);
}
