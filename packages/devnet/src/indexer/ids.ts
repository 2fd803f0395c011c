/**
 * The indexer's deterministic UUIDs (subaccounts, orders, fills, candles): a SHA-256 of the
 * entity's natural key, laid out as a version-5-style UUID, so that the same entity always gets
 * the same id, across restarts too.
 */
import { hash } from "node:crypto";

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
  // The first 16 bytes of the hash in hex, with the version (byte 6: high nibble 5) and the
  // variant (byte 8: high bits 10) set.
  const h = hash("sha256", key, "hex");
  const variant = ((Number.parseInt(h.charAt(16), 16) & 0x3) | 0x8).toString(16);
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
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
