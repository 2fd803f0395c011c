/**
 * The 30-day traded notional the fee tiers are chosen by (the real chain keeps it in x/stats: each
 * user's taker and maker notional, and the chain's notional traded). Each volume is a ring of daily
 * sums under the `feetiers/` slice: 248 bytes, the day number (u64) of the last recorded fill, then
 * 30 u64 daily volumes in quote quantums indexed by day mod 30, fixed width so gas never depends on
 * it. Keys: `vol/<hex20>` (a user's maker and taker volume), `mvol/<hex20>` (a user's maker
 * volume), `gvol` (the chain's notional, once per fill).
 */
import { addressKey } from "../addresses.js";
import { encodeU64 } from "../codec.js";
import type { StoreAccess } from "./auth.js";

/** Days of volume a user's tier looks at. */
export const VOLUME_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000n;
const VOLUME_BYTES = 8 + VOLUME_WINDOW_DAYS * 8;
const U64 = (1n << 64n) - 1n;
const SLICE = "feetiers";

/** The key of a user's maker-and-taker volume. */
export function userRingKey(address: Uint8Array): string {
  return `vol/${addressKey(address)}`;
}

/** The key of a user's maker volume. */
export function makerRingKey(address: Uint8Array): string {
  return `mvol/${addressKey(address)}`;
}

/** The key of the chain's traded notional. */
export const GLOBAL_RING_KEY = "gvol";

/** The ring at `key` as of day `today`, with days older than the window zeroed. */
function readRing(ctx: StoreAccess, key: string, today: bigint): bigint[] {
  const bytes = ctx.store(SLICE).get(key);
  const ring = new Array<bigint>(VOLUME_WINDOW_DAYS).fill(0n);
  if (bytes === undefined) return ring;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const last = view.getBigUint64(0);
  for (let i = 0; i < VOLUME_WINDOW_DAYS; i++) ring[i] = view.getBigUint64(8 + i * 8);
  // Zero the slots of days after `last` up to `today` (they hold volumes of 30+ days ago).
  if (today - last >= BigInt(VOLUME_WINDOW_DAYS)) return ring.fill(0n);
  for (let d = last + 1n; d <= today; d++) ring[Number(d % BigInt(VOLUME_WINDOW_DAYS))] = 0n;
  return ring;
}

/** The sum of the ring at `key` over the window ending on the day of `nowMs`. */
export function sumRing(ctx: StoreAccess, key: string, nowMs: bigint): bigint {
  return readRing(ctx, key, nowMs / DAY_MS).reduce((sum, v) => sum + v, 0n);
}

/** Adds `quoteQuantums` to the ring at `key` on the block's day (capped at u64). */
export function addToRing(
  ctx: StoreAccess & { readonly block: { readonly timeMs: bigint } },
  key: string,
  quoteQuantums: bigint,
): void {
  const today = ctx.block.timeMs / DAY_MS;
  const ring = readRing(ctx, key, today);
  const slot = Number(today % BigInt(VOLUME_WINDOW_DAYS));
  const sum = (ring[slot] ?? 0n) + quoteQuantums;
  ring[slot] = sum > U64 ? U64 : sum;
  const out = new Uint8Array(VOLUME_BYTES);
  out.set(encodeU64(today), 0);
  const view = new DataView(out.buffer);
  for (const [i, v] of ring.entries()) view.setBigUint64(8 + i * 8, v);
  ctx.store(SLICE).set(key, out);
}
