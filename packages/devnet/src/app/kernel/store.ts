/**
 * The state store: ordered string keys to byte values, in layers.
 *
 * - {@link RootStore}: committed state; keeps its keys sorted and an incremental hash of every entry
 *   (the app hash), and serializes deterministically. Keys its owner marks volatile (a real node's
 *   in-memory state, such as short-term orders) live beside it: read and iterated with it, but
 *   neither hashed nor serialized.
 * - {@link CacheStore}: a branch over any store; `write()` flushes it, dropping it discards it. Txs
 *   run in branches so that a failing message rolls back the whole tx.
 *
 * The views a module reads them through (gas charged, a module's slice) are in `store-views.ts`.
 */

import { DevnetError } from "../../devnet-error.js";
import { type BinaryReader, type BinaryWriter, concatBytes, encodeU64 } from "../lib/codec.js";
import { sha256 } from "../lib/sha256.js";
import { entryDigest } from "./entry-digest.js";
import { type Layer, mergeSorted, OrderedMap, rangeOf, startRange, unpin } from "./ordered-map.js";

/** What a root store tells its journal: a committed key is about to change from `old` (undefined: absent). */
export interface WriteJournal {
  changed(key: string, old: Uint8Array | undefined): void;
}

/** Options of {@link KvStore.entries}. */
export interface RangeOptions {
  /** Iterate in descending key order. @default false */
  reverse?: boolean;
  /** Inclusive lower bound (full key, within the prefix). */
  start?: string;
  /** Exclusive upper bound (full key, within the prefix). */
  end?: string;
}

/** A key-value store with ordered iteration. Keys are compared as JS strings (ASCII keys: byte order). */
export interface KvStore {
  get(key: string): Uint8Array | undefined;
  has(key: string): boolean;
  set(key: string, value: Uint8Array): void;
  delete(key: string): void;
  /**
   * Entries whose key starts with `prefix`, in key order. The range is fixed when iteration starts:
   * writes made while iterating are not seen.
   */
  entries(prefix: string, options?: RangeOptions): Iterable<[string, Uint8Array]>;
}

/**
 * A store a branch flushes into by handing over its pending bytes ({@link RootStore},
 * {@link CacheStore}): no copy is made.
 */
export interface Branchable extends KvStore {
  /**
   * Sets `key` to `value` itself: the caller gives the array up. A store's bytes are never changed
   * in place (a module writes fresh bytes and treats what it reads as read-only), so a branch's
   * pending value is handed over as it is.
   */
  adopt(key: string, value: Uint8Array): void;
}

/** The smallest string greater than every string that starts with `prefix` (undefined: no bound). */
export function prefixEnd(prefix: string): string | undefined {
  if (prefix === "") return undefined;
  const last = prefix.charCodeAt(prefix.length - 1);
  if (last === 0xffff) return prefixEnd(prefix.slice(0, -1));
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/** The key bounds [lo, hi) of a prefix and range options. */
function bounds(prefix: string, options: RangeOptions | undefined): { lo: string; hi: string | undefined } {
  let lo = prefix;
  let hi = prefixEnd(prefix);
  if (options?.start !== undefined && options.start > lo) lo = options.start;
  if (options?.end !== undefined && (hi === undefined || options.end < hi)) hi = options.end;
  return { lo, hi };
}

const MOD_256 = (1n << 256n) - 1n;

/**
 * The entries of a root store's layer with `lo <= key < hi`, committed and volatile (its side
 * keys), merged in key order (descending when `reverse`). A range walks indexed entries only:
 * values, never a marker.
 */
function bothRange(
  layer: Layer<Uint8Array | null>,
  lo: string,
  hi: string | undefined,
  reverse: boolean,
): Generator<[string, Uint8Array]> {
  const walk = rangeOf(layer, lo, hi, reverse) as Generator<[string, Uint8Array]>;
  // No volatile key in the range: the committed walk alone, with no merge.
  const own = startRange(layer, lo, hi, reverse, true);
  if (own === undefined) return walk;
  return mergeSorted(
    own.walk as Generator<[string, Uint8Array]>,
    walk,
    reverse,
    undefined,
    own.first as [string, Uint8Array],
  );
}

/** Deletion markers a root store's map may hold beyond its live entries before it drops them. */
const MARKER_SLACK = 1024;

/**
 * Drops the deletion markers of `map` once they outnumber its live entries (and
 * {@link MARKER_SLACK}): each drop costs a pass over the map, paid for by as many deletes.
 */
function pruneMarkers(map: OrderedMap<Uint8Array | null>): void {
  const markers = map.unindexedSize;
  if (markers > map.size - markers + MARKER_SLACK) map.prune();
}

/**
 * Committed state. Keeps keys sorted for iteration and a running sum (mod 2^256) of the SHA-256 of
 * every entry, so the state hash costs one hash per write instead of a pass over the whole state.
 *
 * Volatile keys (those `isVolatile` accepts; the predicate must not change its answer for a key)
 * are kept in the same map, in a second sorted index (the map's side keys): a read is one lookup
 * whatever the key, a range iteration merges both indexes, and a branch over this store rolls them
 * back like any key; but they are not in {@link hash}, not in {@link size} and not written by
 * {@link writeTo}. They model the state a real node keeps in memory only: a restart from the
 * serialized state starts without them.
 *
 * A delete leaves a `null` marker in the map (see {@link OrderedMap.prune}, which drops them now
 * and then).
 */
export class RootStore implements Branchable {
  /** Every entry, committed and volatile (the side keys). */
  private readonly data = new OrderedMap<Uint8Array | null>(isValue);
  private digestSum = 0n;
  private journal: WriteJournal | undefined;

  /** @param isVolatile which keys live in memory only (see the class comment); none by default. */
  constructor(private readonly isVolatile: (key: string) => boolean = () => false) {}

  /** Number of committed (non-volatile) entries. */
  get size(): number {
    return this.data.indexedSize;
  }

  /** Tells `journal` of every write of a committed key from now on (the state's versions). */
  track(journal: WriteJournal): void {
    this.journal = journal;
  }

  get(key: string): Uint8Array | undefined {
    return this.data.get(key) ?? undefined;
  }

  has(key: string): boolean {
    return this.data.get(key) != null;
  }

  set(key: string, value: Uint8Array): void {
    this.adopt(key, value.slice());
  }

  /**
   * Sets `key` to `value` itself, not a copy (see {@link Branchable.adopt}): for a branch's flushed
   * writes, whose bytes the modules that made them never change.
   */
  adopt(key: string, value: Uint8Array): void {
    if (this.isVolatile(key)) {
      this.data.put(key, value, true);
      return;
    }
    const old = this.data.set(key, value) ?? undefined;
    this.journal?.changed(key, old);
    if (old !== undefined) this.digestSum = (this.digestSum - entryDigest(key, old)) & MOD_256;
    this.digestSum = (this.digestSum + entryDigest(key, value)) & MOD_256;
  }

  delete(key: string): void {
    const old = this.data.get(key);
    if (old == null) return;
    if (this.isVolatile(key)) {
      this.data.set(key, null, true);
      pruneMarkers(this.data);
      return;
    }
    this.data.set(key, null);
    pruneMarkers(this.data);
    this.journal?.changed(key, old);
    this.digestSum = (this.digestSum - entryDigest(key, old)) & MOD_256;
  }

  *entries(prefix: string, options?: RangeOptions): Iterable<[string, Uint8Array]> {
    const { lo, hi } = bounds(prefix, options);
    const reverse = options?.reverse === true;
    const layer = this.data.pin();
    try {
      yield* bothRange(layer, lo, hi, reverse);
    } finally {
      unpin(layer);
    }
  }

  /**
   * A read-only view of the state as it is now, whatever is written later: its entries are pinned,
   * so the next write copies them (once). For a read long after, e.g. the genesis document, built
   * on first use.
   */
  frozen(): KvStore {
    const layer = this.data.pin();
    const readOnly = (): never => {
      throw new DevnetError("unavailable", "a frozen store is read-only: it cannot be written");
    };
    return {
      get: (key) => layer.map.get(key) ?? undefined,
      has: (key) => layer.map.get(key) != null,
      set: readOnly,
      delete: readOnly,
      *entries(prefix, options) {
        const { lo, hi } = bounds(prefix, options);
        yield* bothRange(layer, lo, hi, options?.reverse === true);
      },
    };
  }

  /**
   * 32-byte hash of the committed state (order-independent sum of entry hashes, and the entry
   * count); volatile entries are not in it.
   */
  hash(): Uint8Array {
    const sum = new Uint8Array(32);
    let rest = this.digestSum;
    for (let i = 31; i >= 0; i--) {
      sum[i] = Number(rest & 0xffn);
      rest >>= 8n;
    }
    return sha256(concatBytes(encodeU64(BigInt(this.data.indexedSize)), sum));
  }

  /** Writes every committed entry in key order (volatile entries are not written). */
  writeTo(writer: BinaryWriter): void {
    const keys = this.data.sortedKeys();
    writer.uvarint(keys.length);
    for (const key of keys) {
      writer.string(key);
      writer.bytes(this.data.get(key) as Uint8Array);
    }
  }

  /**
   * Reads entries written by {@link RootStore.writeTo} into an empty store whose volatile keys are
   * `isVolatile`'s (an entry of an older layout that `isVolatile` accepts goes to memory).
   */
  static readFrom(reader: BinaryReader, isVolatile?: (key: string) => boolean): RootStore {
    const store = new RootStore(isVolatile);
    const count = reader.uint();
    for (let i = 0; i < count; i++) {
      const key = reader.string();
      store.set(key, reader.bytes());
    }
    return store;
  }
}

/** True for a value, false for a deletion marker. */
function isValue(value: Uint8Array | null): boolean {
  return value !== null;
}

/**
 * A branch over a parent store. Reads fall through; writes stay here until {@link CacheStore.write}.
 * Pending writes are kept in key order too, so a range read costs O(log n + k) per layer: it merges
 * this branch's writes in the range with the parent's range, lazily (an iteration that stops after
 * the first entry reads one entry per layer, not the whole range).
 */
export class CacheStore implements Branchable {
  /** Pending writes; `null` marks a delete. */
  private readonly writes = new OrderedMap<Uint8Array | null>(isValue);

  constructor(private readonly parent: KvStore) {}

  /** Number of pending writes and deletes. */
  get pending(): number {
    return this.writes.size;
  }

  get(key: string): Uint8Array | undefined {
    const cached = this.writes.get(key);
    if (cached !== undefined) return cached === null ? undefined : cached;
    return this.parent.get(key);
  }

  has(key: string): boolean {
    const cached = this.writes.get(key);
    if (cached !== undefined) return cached !== null;
    return this.parent.has(key);
  }

  set(key: string, value: Uint8Array): void {
    this.writes.put(key, value);
  }

  /** Same as {@link set}: a branch keeps the bytes it is given as they are (see {@link Branchable}). */
  adopt(key: string, value: Uint8Array): void {
    this.set(key, value);
  }

  delete(key: string): void {
    this.writes.put(key, null);
  }

  *entries(prefix: string, options?: RangeOptions): Iterable<[string, Uint8Array]> {
    const { lo, hi } = bounds(prefix, options);
    const reverse = options?.reverse === true;
    const parentRange: RangeOptions = { reverse, start: lo };
    if (hi !== undefined) parentRange.end = hi;
    // Both snapshots are taken here, when the iteration starts.
    const layer = this.writes.pin();
    // Deletes pending in the snapshot (anywhere: markers are not in the sorted index).
    const deletes = this.writes.unindexedSize;
    // [lo, hi) lies within the prefix: a branch or root parent is given the bounds alone (no prefix
    // to bound again); any other store is given the prefix too.
    const parent = this.parent;
    const parentPrefix = parent instanceof CacheStore || parent instanceof RootStore ? "" : prefix;
    const theirs = parent.entries(parentPrefix, parentRange)[Symbol.iterator]();
    try {
      const own = layer.map.size === 0 ? undefined : startRange(layer, lo, hi, reverse);
      if (own !== undefined) {
        // The parent's entries that this branch wrote or deleted are not seen.
        yield* mergeSorted(
          own.walk as Generator<[string, Uint8Array]>,
          theirs,
          reverse,
          layer.map,
          own.first as [string, Uint8Array],
        );
      } else if (deletes === 0) {
        // No pending write in the range and no delete anywhere: no key of the range is pending, so
        // the parent's range as it is.
        for (let next = theirs.next(); !next.done; next = theirs.next()) yield next.value;
      } else {
        // No pending write in the range: the parent's entries, less the ones this branch deleted.
        const hidden = layer.map;
        for (let next = theirs.next(); !next.done; next = theirs.next()) {
          if (!hidden.has(next.value[0])) yield next.value;
        }
      }
    } finally {
      unpin(layer);
      theirs.return?.();
    }
  }

  /** Flushes every pending write to the parent (in the order they were made) and empties the branch. */
  write(): void {
    const parent = this.parent;
    // A root or a branch takes the pending bytes as they are; any other store is given them to copy
    // or charge for.
    const owner = parent instanceof CacheStore || parent instanceof RootStore ? parent : undefined;
    this.writes.inInsertionOrder().forEach((value, key) => {
      if (value === null) parent.delete(key);
      else if (owner !== undefined) owner.adopt(key, value);
      else parent.set(key, value);
    });
    this.writes.clear();
  }

  /** Drops every pending write. */
  discard(): void {
    this.writes.clear();
  }
}

/**
 * The CheckTx state: a {@link CacheStore} over the root store whose writes of keys `through`
 * accepts go straight to the root (the memclob's keys are the node's own state, kept across
 * blocks, not a block's pending changes).
 */
export class PendingStore extends CacheStore {
  constructor(
    private readonly root: RootStore,
    private readonly through: (key: string) => boolean,
  ) {
    super(root);
  }

  /** Keeps `value` as it is, as any branch does: a write through hands it to the root as it is. */
  override set(key: string, value: Uint8Array): void {
    if (this.through(key)) this.root.adopt(key, value);
    else super.set(key, value);
  }

  override delete(key: string): void {
    if (this.through(key)) this.root.delete(key);
    else super.delete(key);
  }
}
