/**
 * The sorted map under every store layer ({@link OrderedMap}) and the lazy range walks over it:
 * a `Map` for lookups, plus a sorted index of its keys for range reads, kept with copy on write so
 * that an iteration reads a snapshot.
 */

/** First index in sorted `keys` whose key is >= `key`. */
export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The entries of an {@link OrderedMap}, and how many iterations are reading them. */
export interface Layer<V> {
  readonly map: Map<string, V>;
  /**
   * The keys of `map` whose value is indexed (see {@link OrderedMap}), sorted, except those in
   * `added`. Complete (and `added` empty) whenever the layer is pinned.
   */
  keys: string[];
  /** Keys newly indexed since the index was last completed, in no order (see {@link OrderedMap}). */
  added: string[];
  /** Iterations in progress over this layer; while any runs, writes go to a copy. */
  readers: number;
}

/**
 * How many keys waiting in `added` are inserted one by one (binary search and `splice`); more are
 * sorted and merged with the index in one pass.
 */
const INSERT_ONE_BY_ONE = 8;

/**
 * A map whose keys are also kept sorted, so that a range of keys is found in O(log n) and iterated
 * lazily in O(k). Only keys whose value passes `indexed` are in the sorted index (a cache's
 * deletion markers are not: a range read never walks over them). Values are never undefined.
 *
 * The index is completed lazily: a newly indexed key waits in an unsorted list until the next
 * range read, which inserts the waiting keys (a few: one by one; many: sorted and merged in one
 * pass). A batch of writes with no read between them (a branch written into its parent, a block
 * committed to the root) so costs one merge instead of one array insertion per key.
 *
 * Iteration reads a snapshot: a write made while an iteration runs copies the layer first (copy on
 * write), so the iteration goes on over the keys and values it started with. The map keeps
 * insertion order, as a `Map` does.
 */
export class OrderedMap<V extends object | null> {
  private layer: Layer<V> = { map: new Map(), keys: [], added: [], readers: 0 };

  /** @param indexed which values are in the sorted index (all by default). */
  constructor(private readonly indexed: (value: V) => boolean = () => true) {}

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
    // A pinned layer's index is complete (see `pin`): the copy starts with nothing waiting.
    this.layer = { map: new Map(layer.map), keys: layer.keys.slice(), added: [], readers: 0 };
    return this.layer;
  }

  /** Sets `key`; returns the value it replaced. */
  set(key: string, value: V): V | undefined {
    const layer = this.writable();
    // Values are never undefined (bytes, or a cache's null deletion marker): one lookup tells both.
    const old = layer.map.get(key);
    const wasIndexed = old !== undefined && this.indexed(old);
    const isIndexed = this.indexed(value);
    if (isIndexed && !wasIndexed) {
      const keys = layer.keys;
      const last = keys.at(-1);
      // Appending in key order (counters, ascending heights) keeps the index complete for free.
      if (layer.added.length === 0 && (last === undefined || last < key)) keys.push(key);
      else layer.added.push(key);
    } else if (wasIndexed && !isIndexed) {
      unindex(layer, key);
    }
    layer.map.set(key, value);
    return old;
  }

  /** Removes `key`; returns the value it held. */
  delete(key: string): V | undefined {
    const old = this.layer.map.get(key);
    if (old === undefined) return undefined;
    const layer = this.writable();
    layer.map.delete(key);
    if (this.indexed(old)) unindex(layer, key);
    return old;
  }

  /** Every entry in insertion order (a snapshot: do not change the map while reading it). */
  inInsertionOrder(): ReadonlyMap<string, V> {
    return this.layer.map;
  }

  /** The indexed keys, sorted (a snapshot: do not change the map while reading it). */
  sortedKeys(): readonly string[] {
    complete(this.layer);
    return this.layer.keys;
  }

  /** Removes every entry (iterations in progress keep their snapshot). */
  clear(): void {
    this.layer = { map: new Map(), keys: [], added: [], readers: 0 };
  }

  /**
   * Pins the current layer for an iteration, its index complete: until {@link unpin}, writes go to
   * a copy.
   */
  pin(): Layer<V> {
    complete(this.layer);
    this.layer.readers++;
    return this.layer;
  }
}

/** Takes `key` (indexed now) out of the index: from `keys` if it is there, else from the waiting keys. */
function unindex<V>(layer: Layer<V>, key: string): void {
  const at = lowerBound(layer.keys, key);
  if (layer.keys[at] === key) layer.keys.splice(at, 1);
  else layer.added.splice(layer.added.lastIndexOf(key), 1);
}

/** Inserts the keys waiting in `added` into the sorted `keys` (see {@link INSERT_ONE_BY_ONE}). */
function complete<V>(layer: Layer<V>): void {
  const added = layer.added;
  if (added.length === 0) return;
  layer.added = [];
  const keys = layer.keys;
  if (added.length <= INSERT_ONE_BY_ONE) {
    for (const key of added) keys.splice(lowerBound(keys, key), 0, key);
    return;
  }
  // The default sort compares UTF-16 code units, as `<` does. No key is in both lists.
  added.sort();
  const merged: string[] = new Array(keys.length + added.length);
  let i = 0;
  let j = 0;
  let out = 0;
  while (i < keys.length && j < added.length) {
    const a = keys[i] as string;
    const b = added[j] as string;
    if (a < b) {
      merged[out++] = a;
      i++;
    } else {
      merged[out++] = b;
      j++;
    }
  }
  while (i < keys.length) merged[out++] = keys[i++] as string;
  while (j < added.length) merged[out++] = added[j++] as string;
  layer.keys = merged;
}

/** Releases a layer pinned by {@link OrderedMap.pin}. */
export function unpin<V extends object | null>(layer: Layer<V>): void {
  layer.readers--;
}

/** Indexed entries of a pinned layer with `lo <= key < hi`, in key order (descending when `reverse`). */
export function* rangeOf<V extends object | null>(
  layer: Layer<V>,
  lo: string,
  hi: string | undefined,
  reverse: boolean,
): Generator<[string, V]> {
  const { keys, map } = layer;
  const from = lowerBound(keys, lo);
  const to = hi === undefined ? keys.length : lowerBound(keys, hi);
  if (reverse) {
    for (let i = to - 1; i >= from; i--) {
      const key = keys[i] as string;
      yield [key, map.get(key) as V];
    }
  } else {
    for (let i = from; i < to; i++) {
      const key = keys[i] as string;
      yield [key, map.get(key) as V];
    }
  }
}

/**
 * Merges two iterators, each in key order (descending when `reverse`), into one in that order.
 * Entries of `b` whose key `hidden` holds are skipped; the other keys of `a` and `b` are distinct.
 */
export function* mergeSorted<V>(
  a: Iterator<[string, V]>,
  b: Iterator<[string, V]>,
  reverse: boolean,
  hidden?: ReadonlyMap<string, unknown>,
): Generator<[string, V]> {
  let x = a.next();
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
