/**
 * The affiliate half of the real chain's x/stats: what the affiliate program reads of a user's
 * last 30 days. A fill is recorded in the block's stats (`RecordFill`); the affiliates module's end
 * block adds the block's fills to each user's totals and to the current stats epoch's snapshot
 * (`ProcessBlockStats`), so a fill counts from the next block on; and it drops at most one epoch a
 * block once that epoch ended more than the window ago (`ExpireOldStats`, window 30 days as the
 * reference genesis' `window_duration`, hourly `stats-epoch` epochs). Per user:
 * - `takerNotional`: taker volume (a taker at or above 50M USDC earns its affiliate nothing);
 * - `revenue`: affiliate revenue its taker fees generated (capped per referred user);
 * - `referredVolume`: volume attributed to it as an affiliate (its tier);
 * - `attributedVolume`: its own volume attributed to its affiliate (capped per referred user).
 *
 * Store slice `affiliates/` (JSON, integers as decimal strings): `stats/block/<n:10>` (this block's
 * fills, `stats/block_count` of them), `stats/user/<bech32>` (the totals),
 * `stats/epoch/<epoch:10>/<bech32>` (what a user gained in an epoch), `stats/epoch_end/<epoch:10>`
 * (the unix second it ends), `stats/trailing` (the oldest epoch still counted).
 */

import type { Context } from "../../kernel/module.js";
import { fromUtf8, utf8 } from "../../lib/codec.js";
import type { StoreAccess } from "../auth/auth.js";
import { EPOCH_NAMES, type EpochsKeeper } from "../epochs/epochs.js";
import { padKey } from "../records.js";
import { storeUtf8 } from "../stored-bytes.js";
import { decodeCount, encodeCount, storedFillJson } from "./stats-json.js";

const SLICE = "affiliates";
/** The stats window of the reference genesis (`window_duration` 2592000s). */
export const STATS_WINDOW_SECONDS = 2_592_000n;

/** A user's affiliate totals over the window (quote quantums). */
export interface AffiliateUserStats {
  readonly takerNotional: bigint;
  readonly revenue: bigint;
  readonly referredVolume: bigint;
  readonly attributedVolume: bigint;
}

/** Volume of a referred trader attributed to its affiliate on one fill. */
export interface AffiliateAttribution {
  readonly role: "taker" | "maker";
  readonly referrer: string;
  readonly volume: bigint;
}

/** One fill as the block's stats record it. */
export interface StatsFill {
  readonly taker: string;
  readonly maker: string;
  readonly notional: bigint;
  /** The taker's affiliate's revenue share on this fill. */
  readonly affiliateFee: bigint;
  readonly attributions: readonly AffiliateAttribution[];
}

type Fields = "takerNotional" | "revenue" | "referredVolume" | "attributedVolume";
type Mutable = { -readonly [K in Fields]: bigint };
const FIELDS: readonly Fields[] = ["takerNotional", "revenue", "referredVolume", "attributedVolume"];

const zero = (): Mutable => ({ takerNotional: 0n, revenue: 0n, referredVolume: 0n, attributedVolume: 0n });

function encodeStats(stats: AffiliateUserStats): Record<Fields, string> {
  return {
    takerNotional: stats.takerNotional.toString(),
    revenue: stats.revenue.toString(),
    referredVolume: stats.referredVolume.toString(),
    attributedVolume: stats.attributedVolume.toString(),
  };
}

function decodeStats(json: Readonly<Record<string, string>>): Mutable {
  const out = zero();
  for (const field of FIELDS) out[field] = BigInt(json[field] ?? "0");
  return out;
}

const pad = (n: number) => String(n).padStart(10, "0");
const userKey = (address: string) => `stats/user/${address}`;
const epochPrefix = (epoch: number) => `stats/epoch/${pad(epoch)}/`;
const epochEndKey = (epoch: number) => `stats/epoch_end/${pad(epoch)}`;
const BLOCK_PREFIX = "stats/block/";
const BLOCK_COUNT_KEY = "stats/block_count";
const TRAILING_KEY = "stats/trailing";

function readJson<T>(ctx: StoreAccess, key: string): T | undefined {
  const bytes = ctx.store(SLICE).get(key);
  return bytes === undefined ? undefined : (JSON.parse(fromUtf8(bytes)) as T);
}

function writeJson(ctx: StoreAccess, key: string, value: unknown): void {
  ctx.store(SLICE).set(key, utf8(JSON.stringify(value)));
}

interface StoredFill {
  readonly taker: string;
  readonly maker: string;
  readonly notional: string;
  readonly affiliateFee: string;
  readonly attributions: readonly { role: "taker" | "maker"; referrer: string; volume: string }[];
}

const NONE: AffiliateUserStats = Object.freeze(zero());
/**
 * Decoded user totals by the stored bytes they were decoded from: a store hands back the bytes it
 * was given, so a total read again (each fill reads its taker's) is parsed once while the store
 * read, and its gas, still happens every time.
 */
const decodedUserStats = new WeakMap<Uint8Array, AffiliateUserStats>();

/** Writes a user's totals, keeping their decoded form for the next read of the written bytes. */
function writeUserStats(ctx: StoreAccess, address: string, totals: AffiliateUserStats): void {
  const bytes = utf8(JSON.stringify(encodeStats(totals)));
  ctx.store(SLICE).set(userKey(address), bytes);
  decodedUserStats.set(bytes, Object.freeze({ ...totals }));
}

/**
 * Decoded epoch gains (`stats/epoch/...` JSON) by the bytes they were written as: a block's fills
 * add to the same users' gains over and over, each time reading back what the last one wrote.
 */
const decodedGains = new WeakMap<Uint8Array, Readonly<Record<string, string>>>();

/** What a user gained in the epoch of `key` (a copy: change it freely). */
function readGains(ctx: StoreAccess, key: string): Record<string, string> {
  const bytes = ctx.store(SLICE).get(key);
  if (bytes === undefined) return {};
  const decoded = decodedGains.get(bytes) ?? (JSON.parse(fromUtf8(bytes)) as Record<string, string>);
  return { ...decoded };
}

/** Writes a user's epoch gains, keeping them for the next read of the written bytes. */
function writeGains(ctx: StoreAccess, key: string, gains: Record<string, string>): void {
  const bytes = utf8(JSON.stringify(gains));
  ctx.store(SLICE).set(key, bytes);
  decodedGains.set(bytes, Object.freeze(gains));
}

/** A user's totals over the window (zeros for a user without any; frozen: copy to change). */
export function userStats(ctx: StoreAccess, address: string): AffiliateUserStats {
  const bytes = ctx.store(SLICE).get(userKey(address));
  if (bytes === undefined) return NONE;
  let stats = decodedUserStats.get(bytes);
  if (stats === undefined) {
    stats = Object.freeze(decodeStats(JSON.parse(fromUtf8(bytes)) as Record<string, string>));
    decodedUserStats.set(bytes, stats);
  }
  return stats;
}

/**
 * The fills recorded in blocks' stats by the bytes they were stored as: the end block reads the
 * very bytes a fill wrote, and takes the fill as it was recorded instead of parsing them. A plain
 * map, emptied by each end block that counts fills (and when it grows past
 * {@link MAX_RECORDED_FILLS}): a weak map's entry for bytes that die young costs the collector
 * microseconds, and every CheckTx fill records one that no end block reads. Bytes not found are
 * parsed.
 */
const recordedFills = new Map<Uint8Array, StatsFill>();
/** The most fills kept between two end blocks (a block's fills and the CheckTx fills before it). */
const MAX_RECORDED_FILLS = 20_000;

/** Records a fill in the block's stats (counted at the end of the block). */
export function recordStatsFill(ctx: StoreAccess, fill: StatsFill): void {
  const store = ctx.store(SLICE);
  const stored = store.get(BLOCK_COUNT_KEY);
  const count = stored === undefined ? 0 : decodeCount(stored);
  const bytes = storeUtf8(storedFillJson(fill));
  store.set(`${BLOCK_PREFIX}${padKey(count, 10)}`, bytes);
  if (recordedFills.size >= MAX_RECORDED_FILLS) recordedFills.clear();
  recordedFills.set(bytes, fill);
  store.set(BLOCK_COUNT_KEY, encodeCount(count + 1));
}

/** A fill of the block's stats from its stored bytes. */
function storedFill(bytes: Uint8Array): StatsFill {
  const recorded = recordedFills.get(bytes);
  if (recorded !== undefined) return recorded;
  const fill = JSON.parse(fromUtf8(bytes)) as StoredFill;
  return {
    taker: fill.taker,
    maker: fill.maker,
    notional: BigInt(fill.notional),
    affiliateFee: BigInt(fill.affiliateFee),
    attributions: fill.attributions.map((a) => ({ ...a, volume: BigInt(a.volume) })),
  };
}

/**
 * Adds the block's fills to the users' totals and to the current stats epoch (the real chain's
 * `ProcessBlockStats`): the taker's notional and generated revenue; per attribution, the volume
 * to the referrer's referred volume and to the referee's attributed volume. The epoch ends at the
 * stats epoch's next tick.
 */
function processBlockStats(ctx: Context, epochs: EpochsKeeper): void {
  const store = ctx.store(SLICE);
  const fills = [...store.entries(BLOCK_PREFIX)];
  if (fills.length === 0) return;
  const info = epochs.get(ctx, EPOCH_NAMES.stats);
  const epoch = epochPrefix(info.currentEpoch);
  // Each user's totals and epoch gains are read once, added to fill by fill in the same order as
  // one write per fill would, and written once: the same final values (the hook is unmetered).
  const touched = new Map<string, { totals: Mutable; gains: Record<string, string> }>();
  const add = (user: string, field: Fields, amount: bigint) => {
    let entry = touched.get(user);
    if (entry === undefined) {
      entry = { totals: { ...userStats(ctx, user) }, gains: readGains(ctx, `${epoch}${user}`) };
      touched.set(user, entry);
    }
    entry.totals[field] += amount;
    entry.gains[field] = (BigInt(entry.gains[field] ?? "0") + amount).toString();
  };
  for (const [key, bytes] of fills) {
    store.delete(key);
    const fill = storedFill(bytes);
    add(fill.taker, "takerNotional", fill.notional);
    if (fill.affiliateFee !== 0n) add(fill.taker, "revenue", fill.affiliateFee);
    for (const a of fill.attributions) {
      add(a.referrer, "referredVolume", a.volume);
      add(a.role === "taker" ? fill.taker : fill.maker, "attributedVolume", a.volume);
    }
  }
  // Any other fill recorded so far is a CheckTx one: no end block counts it.
  recordedFills.clear();
  for (const [user, { totals, gains }] of touched) {
    writeUserStats(ctx, user, totals);
    writeGains(ctx, `${epoch}${user}`, gains);
  }
  store.delete(BLOCK_COUNT_KEY);
  writeJson(ctx, epochEndKey(info.currentEpoch), info.nextTick);
}

/**
 * Drops the oldest counted epoch once it ended more than the window before the block (at most one
 * epoch a block, as the real chain's `ExpireOldStats`); totals never go below 0.
 */
function expireOldStats(ctx: Context, epochs: EpochsKeeper): void {
  const current = epochs.get(ctx, EPOCH_NAMES.stats).currentEpoch;
  const trailing = readJson<number>(ctx, TRAILING_KEY) ?? 0;
  if (trailing === current) return;
  const end = readJson<number>(ctx, epochEndKey(trailing));
  if (end !== undefined) {
    if (!(BigInt(end) * 1000n < ctx.block.timeMs - STATS_WINDOW_SECONDS * 1000n)) return;
    const store = ctx.store(SLICE);
    const prefix = epochPrefix(trailing);
    for (const [key, bytes] of [...store.entries(prefix)]) {
      store.delete(key);
      const user = key.slice(prefix.length);
      const removed = decodeStats(JSON.parse(fromUtf8(bytes)) as Record<string, string>);
      const totals = { ...userStats(ctx, user) };
      for (const field of FIELDS) {
        totals[field] = totals[field] > removed[field] ? totals[field] - removed[field] : 0n;
      }
      writeUserStats(ctx, user, totals);
    }
    store.delete(epochEndKey(trailing));
  }
  writeJson(ctx, TRAILING_KEY, trailing + 1);
}

/** The end block of the affiliate stats: the block's fills counted, then the oldest epoch expired. */
export function affiliateStatsEndBlock(ctx: Context, epochs: EpochsKeeper): void {
  processBlockStats(ctx, epochs);
  expireOldStats(ctx, epochs);
}
