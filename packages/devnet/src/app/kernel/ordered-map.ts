/**
 * The sorted map under every store layer ({@link OrderedMap}) and the lazy range walks over it:
 * a `Map` for lookups, plus a sorted index of its keys for range reads, kept with copy on write so
 * that an iteration reads a snapshot.
 */
import { CHUNK, SortedKeys } from "./sorted-keys.js";

/** The entries of an {@link OrderedMap}, and how many iterations are reading them. */
export interface Layer<V> {
  readonly map: Map<string, V>;
  /** The keys of `map` whose value is indexed, side keys excepted (see {@link OrderedMap}). */
  readonly keys: SortedKeys;
  /**
   * The side keys of `map` whose value is indexed: a second index over the same entries (made at
   * the first side key: most maps have none).
   */
  side: SortedKeys | undefined;
  /** Iterations in progress over this layer; while any runs, writes go to a copy. */
  readers: number;
}

/**
 * A map whose keys are also kept sorted (in chunks: see {@link SortedKeys}), so that a range of
 * keys is found in O(log n) and iterated lazily in O(k). Only keys whose value passes `indexed`
 * are in the sorted index (a cache's deletion markers are not: a range read never walks over
 * them). Values are never undefined.
 *
 * A key its writer calls a side key (the writer must always call it so) is indexed apart, in a
 * second sorted index over the same map: one lookup finds a key of either index, and a range read
 * walks one index.
 *
 * Iteration reads a snapshot: a write made while an iteration runs copies the layer first (copy on
 * write), so the iteration goes on over the keys and values it started with. The map keeps
 * insertion order, as a `Map` does.
 */
export class OrderedMap<V extends object | null> {
  private layer: Layer<V>;
  /** Number of entries whose value is not indexed (a layer's copy holds the same entries). */
  private unindexed = 0;

  /**
   * @param indexed which values are in the sorted index (all by default).
   * @param chunkSize keys per chunk of the index at most (see {@link SortedKeys}).
   */
  constructor(
    private readonly indexed: (value: V) => boolean = () => true,
    private readonly chunkSize = CHUNK,
  ) {
    this.layer = this.emptyLayer();
  }

  private emptyLayer(): Layer<V> {
    return {
      map: new Map(),
      keys: new SortedKeys(this.chunkSize),
      side: undefined,
      readers: 0,
    };
  }

  /** Number of entries, indexed or not. */
  get size(): number {
    return this.layer.map.size;
  }

  /** The value of `key`, or undefined. */
  get(key: string): V | undefined {
    return this.layer.map.get(key);
  }

  /** True when `key` has a value. */
  has(key: string): boolean {
    return this.layer.map.has(key);
  }

  /** The layer to change: the current one, or a copy of it when an iteration is reading it. */
  private writable(): Layer<V> {
    const layer = this.layer;
    if (layer.readers === 0) return layer;
    this.layer = { map: new Map(layer.map), keys: layer.keys.clone(), side: layer.side?.clone(), readers: 0 };
    return this.layer;
  }

  /** Sets `key` (a side key when `side`, see the class comment); returns the value it replaced. */
  set(key: string, value: V, side = false): V | undefined {
    const layer = this.writable();
    // Values are never undefined (bytes, or a cache's null deletion marker): one lookup tells both.
    const old = layer.map.get(key);
    const wasIndexed = old !== undefined && this.indexed(old);
    const isIndexed = this.indexed(value);
    if (isIndexed && !wasIndexed) {
      (side ? this.sideOf(layer) : layer.keys).insert(key);
      if (old !== undefined) this.unindexed--;
    } else if (!isIndexed && (wasIndexed || old === undefined)) {
      if (wasIndexed) (side ? this.sideOf(layer) : layer.keys).remove(key);
      this.unindexed++;
    }
    layer.map.set(key, value);
    return old;
  }

  /**
   * Sets `key`, like {@link set} without telling the value it replaced: while the map holds no
   * unindexed value, an indexed one is set in one lookup (whether the map grew tells a new key).
   */
  put(key: string, value: V, side = false): void {
    if (this.unindexed !== 0 || !this.indexed(value)) {
      this.set(key, value, side);
      return;
    }
    const layer = this.writable();
    const size = layer.map.size;
    layer.map.set(key, value);
    if (layer.map.size !== size) (side ? this.sideOf(layer) : layer.keys).insert(key);
  }

  /** The side index of the layer being written, made at its first key. */
  private sideOf(layer: Layer<V>): SortedKeys {
    layer.side ??= new SortedKeys(this.chunkSize);
    return layer.side;
  }

  /** Number of indexed entries, side keys excepted (the entries a range read can walk over). */
  get indexedSize(): number {
    return this.layer.keys.size;
  }

  /** Number of entries whose value is not indexed (deletion markers). */
  get unindexedSize(): number {
    return this.unindexed;
  }

  /**
   * Drops every entry whose value is not indexed (a deletion marker), keeping the others in their
   * order; iterations in progress keep their snapshot. A store whose deletes are markers calls it
   * now and then: a key deleted for good then stops taking room.
   *
   * Markers instead of `Map.delete` because V8's `Map` keeps a deleted entry in its hash chain
   * until the table is next rebuilt, and setting the key again adds a second entry to the chain: a
   * key deleted and set again over and over (a queue's counter) makes every lookup that misses in
   * its chain walk thousands of dead entries. A marker is overwritten in place.
   */
  prune(): void {
    const layer = this.layer;
    const map = new Map<string, V>();
    for (const [key, value] of layer.map) if (this.indexed(value)) map.set(key, value);
    const pinned = layer.readers !== 0;
    this.layer = {
      map,
      keys: pinned ? layer.keys.clone() : layer.keys,
      side: pinned ? layer.side?.clone() : layer.side,
      readers: 0,
    };
    this.unindexed = 0;
  }

  /** Every entry in insertion order (a snapshot: do not change the map while reading it). */
  inInsertionOrder(): ReadonlyMap<string, V> {
    return this.layer.map;
  }

  /** The indexed keys, side keys excepted, sorted (a copy). */
  sortedKeys(): string[] {
    return this.layer.keys.toArray();
  }

  /** Removes every entry (iterations in progress keep their snapshot). */
  clear(): void {
    this.layer = this.emptyLayer();
    this.unindexed = 0;
  }

  /** Pins the current layer for an iteration: until {@link unpin}, writes go to a copy. */
  pin(): Layer<V> {
    this.layer.readers++;
    return this.layer;
  }
}

/** The keys of a layer without side keys (never written). */
const NO_KEYS = new SortedKeys();

/** Releases a layer pinned by {@link OrderedMap.pin}. */
export function unpin<V extends object | null>(layer: Layer<V>): void {
  layer.readers--;
}

/**
 * Indexed entries of a pinned layer with `lo <= key < hi`, in key order (descending when
 * `reverse`): of its side keys when `side`, else of the others.
 */
export function rangeOf<V extends object | null>(
  layer: Layer<V>,
  lo: string,
  hi: string | undefined,
  reverse: boolean,
  side = false,
): Generator<[string, V]> {
  return (side ? (layer.side ?? NO_KEYS) : layer.keys).range(layer.map, lo, hi, reverse);
}

/**
 * The walk of {@link rangeOf} over a pinned layer, started: the generator and the entry of its
 * first step; undefined when the range holds no indexed entry (told without a search when the range
 * lies past the layer's keys, see {@link SortedKeys.missesRange}, else before a walk is made).
 */
export function startRange<V extends object | null>(
  layer: Layer<V>,
  lo: string,
  hi: string | undefined,
  reverse: boolean,
  side = false,
): { walk: Generator<[string, V]>; first: [string, V] } | undefined {
  const keys = side ? (layer.side ?? NO_KEYS) : layer.keys;
  if (keys.missesRange(lo, hi)) return undefined;
  const walk = keys.walk(layer.map, lo, hi, reverse);
  if (walk === undefined) return undefined;
  const first = walk.next();
  return first.done === true ? undefined : { walk, first: first.value };
}

/**
 * Merges two iterators, each in key order (descending when `reverse`), into one in that order.
 * Entries of `b` whose key `hidden` holds are skipped; the other keys of `a` and `b` are distinct.
 * `aFirst`, when given, is the entry `a` already yielded (its walk started elsewhere).
 */
export function* mergeSorted<V>(
  a: Iterator<[string, V]>,
  b: Iterator<[string, V]>,
  reverse: boolean,
  hidden?: ReadonlyMap<string, unknown>,
  aFirst?: [string, V],
): Generator<[string, V]> {
  let x: IteratorResult<[string, V]> = aFirst === undefined ? a.next() : { done: false, value: aFirst };
  let y = b.next();
  for (;;) {
    while (hidden !== undefined && !y.done && hidden.has(y.value[0])) y = b.next();
    if (x.done) {
      if (y.done) return;
      yield y.value;
      y = b.next();
    } else if (y.done || (reverse ? x.value[0] > y.value[0] : x.value[0] < y.value[0])) {
      yield x.value;
      x = a.next();
    } else {
      yield y.value;
      y = b.next();
    }
  }
}
