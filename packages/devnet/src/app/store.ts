/**
 * The state store: ordered string keys to byte values, in layers.
 *
 * - {@link RootStore}: committed state; keeps its keys sorted and an incremental hash of every entry
 *   (the app hash), and serializes deterministically.
 * - {@link CacheStore}: a branch over any store; `write()` flushes it, dropping it discards it. Txs
 *   run in branches so that a failing message rolls back the whole tx.
 * - {@link GasStore}: charges a {@link GasMeter} for every access (see {@link GasConfig}).
 * - {@link PrefixStore}: a module's slice (`"bank/"`, `"auth/"`, ...).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { type BinaryReader, type BinaryWriter, concatBytes, decodeUint, encodeU64, utf8 } from "./codec.js";
import type { GasConfig, GasMeter } from "./gas.js";

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

/** First index in sorted `keys` whose key is >= `key`. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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

/** SHA-256 of one entry, as a number, for the additive state hash. */
function entryDigest(key: string, value: Uint8Array): bigint {
  const keyBytes = utf8(key);
  const header = encodeU64(BigInt(keyBytes.length));
  return decodeUint(sha256(concatBytes(header, keyBytes, value)));
}

/**
 * Committed state. Keeps keys sorted for iteration and a running sum (mod 2^256) of the SHA-256 of
 * every entry, so the state hash costs one hash per write instead of a pass over the whole state.
 */
export class RootStore implements KvStore {
  private readonly map = new Map<string, Uint8Array>();
  private readonly keys: string[] = [];
  private digestSum = 0n;

  /** Number of entries. */
  get size(): number {
    return this.map.size;
  }

  get(key: string): Uint8Array | undefined {
    return this.map.get(key);
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  set(key: string, value: Uint8Array): void {
    const old = this.map.get(key);
    if (old === undefined) {
      this.keys.splice(lowerBound(this.keys, key), 0, key);
    } else {
      this.digestSum = (this.digestSum - entryDigest(key, old)) & MOD_256;
    }
    const copy = value.slice();
    this.map.set(key, copy);
    this.digestSum = (this.digestSum + entryDigest(key, copy)) & MOD_256;
  }

  delete(key: string): void {
    const old = this.map.get(key);
    if (old === undefined) return;
    this.map.delete(key);
    this.keys.splice(lowerBound(this.keys, key), 1);
    this.digestSum = (this.digestSum - entryDigest(key, old)) & MOD_256;
  }

  *entries(prefix: string, options?: RangeOptions): Iterable<[string, Uint8Array]> {
    const { lo, hi } = bounds(prefix, options);
    const from = lowerBound(this.keys, lo);
    const to = hi === undefined ? this.keys.length : lowerBound(this.keys, hi);
    const slice = this.keys.slice(from, to);
    if (options?.reverse === true) slice.reverse();
    for (const key of slice) {
      const value = this.map.get(key);
      if (value !== undefined) yield [key, value];
    }
  }

  /** 32-byte hash of the whole state (order-independent sum of entry hashes, and the entry count). */
  hash(): Uint8Array {
    const sum = new Uint8Array(32);
    let rest = this.digestSum;
    for (let i = 31; i >= 0; i--) {
      sum[i] = Number(rest & 0xffn);
      rest >>= 8n;
    }
    return sha256(concatBytes(encodeU64(BigInt(this.map.size)), sum));
  }

  /** Writes every entry in key order. */
  writeTo(writer: BinaryWriter): void {
    writer.uvarint(this.keys.length);
    for (const key of this.keys) {
      writer.string(key);
      writer.bytes(this.map.get(key) as Uint8Array);
    }
  }

  /** Reads entries written by {@link RootStore.writeTo} into an empty store. */
  static readFrom(reader: BinaryReader): RootStore {
    const store = new RootStore();
    const count = reader.uint();
    for (let i = 0; i < count; i++) {
      const key = reader.string();
      store.set(key, reader.bytes());
    }
    return store;
  }
}

/** A branch over a parent store. Reads fall through; writes stay here until {@link CacheStore.write}. */
export class CacheStore implements KvStore {
  /** Pending writes; `null` marks a delete. */
  private readonly writes = new Map<string, Uint8Array | null>();

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
    this.writes.set(key, value);
  }

  delete(key: string): void {
    this.writes.set(key, null);
  }

  *entries(prefix: string, options?: RangeOptions): Iterable<[string, Uint8Array]> {
    const { lo, hi } = bounds(prefix, options);
    const reverse = options?.reverse === true;
    const own: [string, Uint8Array | null][] = [];
    for (const [key, value] of this.writes) {
      if (key >= lo && (hi === undefined || key < hi)) own.push([key, value]);
    }
    own.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    if (reverse) own.reverse();
    const parentRange: RangeOptions = { reverse, start: lo };
    if (hi !== undefined) parentRange.end = hi;
    const parentEntries = [...this.parent.entries(prefix, parentRange)];
    const before = (a: string, b: string) => (reverse ? a > b : a < b);
    let i = 0;
    let j = 0;
    while (i < own.length || j < parentEntries.length) {
      const mine = own[i];
      const theirs = parentEntries[j];
      if (
        mine !== undefined &&
        (theirs === undefined || before(mine[0], theirs[0]) || mine[0] === theirs[0])
      ) {
        if (theirs !== undefined && mine[0] === theirs[0]) j++;
        i++;
        if (mine[1] !== null) yield [mine[0], mine[1]];
      } else if (theirs !== undefined) {
        j++;
        yield theirs;
      }
    }
  }

  /** Flushes every pending write to the parent and empties the branch. */
  write(): void {
    for (const [key, value] of this.writes) {
      if (value === null) this.parent.delete(key);
      else this.parent.set(key, value);
    }
    this.writes.clear();
  }

  /** Drops every pending write. */
  discard(): void {
    this.writes.clear();
  }
}

/** A view of a store that charges gas for every access. */
export class GasStore implements KvStore {
  constructor(
    private readonly parent: KvStore,
    private readonly meter: GasMeter,
    private readonly config: GasConfig,
  ) {}

  private chargeRead(key: string): void {
    this.meter.consume(this.config.readCostFlat, "ReadFlat");
    this.meter.consume(this.config.readCostPerByte * BigInt(key.length), "ReadPerByte");
  }

  get(key: string): Uint8Array | undefined {
    this.chargeRead(key);
    return this.parent.get(key);
  }

  has(key: string): boolean {
    this.chargeRead(key);
    return this.parent.has(key);
  }

  set(key: string, value: Uint8Array): void {
    this.meter.consume(this.config.writeCostFlat, "WriteFlat");
    this.meter.consume(this.config.writeCostPerByte * BigInt(key.length + value.length), "WritePerByte");
    this.parent.set(key, value);
  }

  delete(key: string): void {
    this.meter.consume(this.config.deleteCost, "Delete");
    this.parent.delete(key);
  }

  *entries(prefix: string, options?: RangeOptions): Iterable<[string, Uint8Array]> {
    for (const entry of this.parent.entries(prefix, options)) {
      this.meter.consume(this.config.iterNextCostFlat, "IterNextFlat");
      this.meter.consume(this.config.readCostPerByte * BigInt(entry[0].length), "IterNextPerByte");
      yield entry;
    }
  }
}

/** A module's slice of a store: every key is stored under `prefix`; keys it returns have it removed. */
export class PrefixStore implements KvStore {
  constructor(
    private readonly parent: KvStore,
    private readonly prefix: string,
  ) {}

  get(key: string): Uint8Array | undefined {
    return this.parent.get(this.prefix + key);
  }

  has(key: string): boolean {
    return this.parent.has(this.prefix + key);
  }

  set(key: string, value: Uint8Array): void {
    this.parent.set(this.prefix + key, value);
  }

  delete(key: string): void {
    this.parent.delete(this.prefix + key);
  }

  *entries(prefix: string, options?: RangeOptions): Iterable<[string, Uint8Array]> {
    const range: RangeOptions = {};
    if (options?.reverse !== undefined) range.reverse = options.reverse;
    if (options?.start !== undefined) range.start = this.prefix + options.start;
    if (options?.end !== undefined) range.end = this.prefix + options.end;
    const cut = this.prefix.length;
    for (const [key, value] of this.parent.entries(this.prefix + prefix, range)) {
      yield [key.slice(cut), value];
    }
  }
}
