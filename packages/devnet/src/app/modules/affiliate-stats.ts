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
 * Store slice `affiliates/` (JSON, integers as decimal strings): `stats/block` (this block's
 * fills), `stats/user/<bech32>`, `stats/epoch/<epoch:10>` (`{end, users}`), `stats/trailing` (the
 * oldest epoch still counted).
 */
import { fromUtf8, utf8 } from "../codec.js";
import type { Context } from "../module.js";
import type { StoreAccess } from "./auth.js";
import { EPOCH_NAMES, type EpochsKeeper } from "./epochs.js";

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

const userKey = (address: string) => `stats/user/${address}`;
const epochKey = (epoch: number) => `stats/epoch/${String(epoch).padStart(10, "0")}`;
const BLOCK_KEY = "stats/block";
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

interface StoredEpoch {
  /** Unix second the epoch ends (the stats epoch's next tick when its last fill was recorded). */
  end: number;
  users: Record<string, Record<Fields, string>>;
}

/** A user's totals over the window (zeros for a user without any). */
export function userStats(ctx: StoreAccess, address: string): AffiliateUserStats {
  const json = readJson<Record<string, string>>(ctx, userKey(address));
  return json === undefined ? zero() : decodeStats(json);
}

function setUserStats(ctx: StoreAccess, address: string, stats: AffiliateUserStats): void {
  writeJson(ctx, userKey(address), encodeStats(stats));
}

/** Records a fill in the block's stats (counted at the end of the block). */
export function recordStatsFill(ctx: StoreAccess, fill: StatsFill): void {
  const fills = readJson<StoredFill[]>(ctx, BLOCK_KEY) ?? [];
  fills.push({
    taker: fill.taker,
    maker: fill.maker,
    notional: fill.notional.toString(),
    affiliateFee: fill.affiliateFee.toString(),
    attributions: fill.attributions.map((a) => ({
      role: a.role,
      referrer: a.referrer,
      volume: a.volume.toString(),
    })),
  });
  writeJson(ctx, BLOCK_KEY, fills);
}

/**
 * Adds the block's fills to the users' totals and to the current stats epoch (the real chain's
 * `ProcessBlockStats`): the taker's notional and generated revenue; per attribution, the volume
 * to the referrer's referred volume and to the referee's attributed volume.
 */
function processBlockStats(ctx: Context, epochs: EpochsKeeper): void {
  const fills = readJson<StoredFill[]>(ctx, BLOCK_KEY);
  if (fills === undefined) return;
  ctx.store(SLICE).delete(BLOCK_KEY);
  const info = epochs.get(ctx, EPOCH_NAMES.stats);
  const epoch = readJson<StoredEpoch>(ctx, epochKey(info.currentEpoch)) ?? { end: 0, users: {} };
  const snapshot = new Map<string, Mutable>(
    Object.entries(epoch.users).map(([user, json]) => [user, decodeStats(json)]),
  );
  const add = (user: string, field: Fields, amount: bigint) => {
    const totals = { ...userStats(ctx, user) };
    totals[field] += amount;
    setUserStats(ctx, user, totals);
    let entry = snapshot.get(user);
    if (entry === undefined) {
      entry = zero();
      snapshot.set(user, entry);
    }
    entry[field] += amount;
  };
  for (const fill of fills) {
    add(fill.taker, "takerNotional", BigInt(fill.notional));
    add(fill.taker, "revenue", BigInt(fill.affiliateFee));
    for (const a of fill.attributions) {
      add(a.referrer, "referredVolume", BigInt(a.volume));
      add(a.role === "taker" ? fill.taker : fill.maker, "attributedVolume", BigInt(a.volume));
    }
  }
  const users: StoredEpoch["users"] = {};
  for (const user of [...snapshot.keys()].sort()) users[user] = encodeStats(snapshot.get(user) as Mutable);
  writeJson(ctx, epochKey(info.currentEpoch), { end: info.nextTick, users });
}

/**
 * Drops the oldest counted epoch once it ended more than the window before the block (at most one
 * epoch a block, as the real chain's `ExpireOldStats`); totals never go below 0.
 */
function expireOldStats(ctx: Context, epochs: EpochsKeeper): void {
  const current = epochs.get(ctx, EPOCH_NAMES.stats).currentEpoch;
  const trailing = readJson<number>(ctx, TRAILING_KEY) ?? 0;
  if (trailing === current) return;
  const epoch = readJson<StoredEpoch>(ctx, epochKey(trailing));
  if (epoch !== undefined) {
    if (!(BigInt(epoch.end) < ctx.block.timeMs / 1000n - STATS_WINDOW_SECONDS)) return;
    for (const [user, json] of Object.entries(epoch.users)) {
      const removed = decodeStats(json);
      const totals = { ...userStats(ctx, user) };
      for (const field of FIELDS) {
        totals[field] = totals[field] > removed[field] ? totals[field] - removed[field] : 0n;
      }
      setUserStats(ctx, user, totals);
    }
    ctx.store(SLICE).delete(epochKey(trailing));
  }
  writeJson(ctx, TRAILING_KEY, trailing + 1);
}

/** The end block of the affiliate stats: the block's fills counted, then the oldest epoch expired. */
export function affiliateStatsEndBlock(ctx: Context, epochs: EpochsKeeper): void {
  processBlockStats(ctx, epochs);
  expireOldStats(ctx, epochs);
}
