/**
 * The 30-day traded notional the fee tiers are chosen by, kept as the real chain's x/stats keeps it:
 * - a fill is recorded in the block's stats (`RecordFill`); at the end of the block each user's
 *   taker and maker notional, the chain's notional traded (once per fill, as the taker's) and the
 *   current `stats-epoch` epoch's stats take the block's fills (`ProcessBlockStats`), so a fill
 *   counts for a fee tier from the next block on;
 * - then at most one epoch expires, the trailing one (`ExpireOldStats`): an epoch without stats at
 *   once, one with stats once its end (the tick that ends it) is more than the window (30 days)
 *   before the block's time; its notional leaves the users' and the chain's. Stats epochs are
 *   hourly, so a fill's notional leaves on the first block after the hour it was in ends, plus 30
 *   days.
 * Sums are u64 and wrap as the real chain's.
 *
 * Store slice `stats/` (u64 big-endian values):
 * - `block/<hex20>`: a user's taker and maker notional in the current block (16 bytes), cleared at
 *   its end
 * - `user/<hex20>`: a user's taker and maker notional in the window (16 bytes)
 * - `global`: the chain's notional traded in the window (8 bytes)
 * - `epoch/<n:10>/<hex20>`: a user's taker and maker notional in stats epoch `n` (16 bytes)
 * - `epoch-end/<n:10>`: the end of stats epoch `n` in unix seconds (8 bytes), while it has stats
 * - `trailing`: the next epoch to expire (8 bytes)
 */
import type { epochs } from "@perpx/proto";
import { addressKey } from "../../lib/addresses.js";
import { decodeU64, encodeU64, putU64 } from "../../lib/codec.js";
import type { StoreAccess } from "../auth/auth.js";
import { padKey } from "../records.js";

/** The store slice of the stats. */
export const STATS = "stats";
/** How long a fill's notional counts (the real chain's `window_duration`: 30 days). */
export const STATS_WINDOW_SECONDS = 30n * 86_400n;

/** A user's notional in the window (or in one epoch), quote quantums. */
export interface UserNotional {
  readonly takerNotional: bigint;
  readonly makerNotional: bigint;
}

const ZERO: UserNotional = { takerNotional: 0n, makerNotional: 0n };
const wrap = (value: bigint) => BigInt.asUintN(64, value);
const epochKey = (epoch: number) => padKey(epoch, 10);

function readPair(ctx: StoreAccess, key: string): UserNotional {
  const bytes = ctx.store(STATS).get(key);
  if (bytes === undefined) return ZERO;
  return { takerNotional: decodeU64(bytes), makerNotional: decodeU64(bytes, 8) };
}

function writePair(ctx: StoreAccess, key: string, value: UserNotional): void {
  const out = new Uint8Array(16);
  putU64(out, 0, value.takerNotional);
  putU64(out, 8, value.makerNotional);
  ctx.store(STATS).set(key, out);
}

function readU64(ctx: StoreAccess, key: string): bigint {
  const bytes = ctx.store(STATS).get(key);
  return bytes === undefined ? 0n : decodeU64(bytes);
}

/** Adds `taker` and `maker` (signed) to the pair at `key`, wrapping at 64 bits. */
function addPair(ctx: StoreAccess, key: string, taker: bigint, maker: bigint): void {
  const was = readPair(ctx, key);
  writePair(ctx, key, {
    takerNotional: wrap(was.takerNotional + taker),
    makerNotional: wrap(was.makerNotional + maker),
  });
}

/**
 * Records a fill of `notional` quote quantums in the current block's stats (the real chain's
 * `RecordFill`): the taker's taker notional and the maker's maker notional. The traders are given
 * by the store-key spelling of their addresses (`addressKey`).
 */
export function recordBlockFill(
  ctx: StoreAccess,
  takerKey: string,
  makerKey: string,
  notional: bigint,
): void {
  addPair(ctx, `block/${takerKey}`, notional, 0n);
  addPair(ctx, `block/${makerKey}`, 0n, notional);
}

/**
 * Adds the block's fills to the users', the chain's and the current stats epoch's notional, and
 * clears the block's stats (the real chain's `ProcessBlockStats`).
 *
 * @param statsEpoch - the `stats-epoch` timer as the block left it.
 */
export function processBlockStats(ctx: StoreAccess, statsEpoch: epochs.EpochInfo): void {
  const store = ctx.store(STATS);
  const block = [...store.entries("block/")];
  if (block.length === 0) return;
  const epoch = epochKey(statsEpoch.currentEpoch);
  let traded = 0n;
  for (const [key, bytes] of block) {
    store.delete(key);
    const user = key.slice("block/".length);
    const taker = decodeU64(bytes);
    const maker = decodeU64(bytes, 8);
    addPair(ctx, `user/${user}`, taker, maker);
    addPair(ctx, `epoch/${epoch}/${user}`, taker, maker);
    traded += taker;
  }
  store.set("global", encodeU64(wrap(readU64(ctx, "global") + traded)));
  store.set(`epoch-end/${epoch}`, encodeU64(BigInt(statsEpoch.nextTick)));
}

/**
 * Expires at most one stats epoch, the trailing one (the real chain's `ExpireOldStats`): an epoch
 * without stats at once; one with stats when its end is more than {@link STATS_WINDOW_SECONDS}
 * before `blockTimeMs`, taking its notional out of the users' and the chain's. The current epoch
 * never expires.
 */
export function expireOldStats(ctx: StoreAccess, currentEpoch: number, blockTimeMs: bigint): void {
  const store = ctx.store(STATS);
  const trailing = Number(readU64(ctx, "trailing"));
  if (trailing === currentEpoch) return;
  const epoch = epochKey(trailing);
  const end = store.get(`epoch-end/${epoch}`);
  if (end !== undefined && !(decodeU64(end) * 1000n < blockTimeMs - STATS_WINDOW_SECONDS * 1000n)) return;
  if (end !== undefined) {
    let traded = 0n;
    for (const [key, bytes] of [...store.entries(`epoch/${epoch}/`)]) {
      store.delete(key);
      const user = key.slice(`epoch/${epoch}/`.length);
      const taker = decodeU64(bytes);
      addPair(ctx, `user/${user}`, -taker, -decodeU64(bytes, 8));
      traded += taker;
    }
    store.delete(`epoch-end/${epoch}`);
    store.set("global", encodeU64(wrap(readU64(ctx, "global") - traded)));
  }
  store.set("trailing", encodeU64(BigInt(trailing + 1)));
}

/** A user's taker and maker notional in the window (fills of earlier blocks). */
export function userNotional(ctx: StoreAccess, address: Uint8Array): UserNotional {
  return userNotionalAt(ctx, addressKey(address));
}

/** {@link userNotional} of the address spelled `key` in store keys (`addressKey`). */
export function userNotionalAt(ctx: StoreAccess, key: string): UserNotional {
  return readPair(ctx, `user/${key}`);
}

/** The chain's notional traded in the window (fills of earlier blocks). */
export function globalNotional(ctx: StoreAccess): bigint {
  return readU64(ctx, "global");
}
