/**
 * The sorted map under every store layer ({@link OrderedMap}) and the lazy range walks over it:
 * a `Map` for lookups, plus a sorted index of its keys for range reads, kept with copy on write so
 * that an iteration reads a snapshot.
 */

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

/**
 * The entries of `map` at the keys of `chunks` from `[c0, i0]` (chunk, index) up to `[c1, i1]`
 * excluded, in order or in reverse.
 */
function* walkChunks<V>(
  chunks: readonly (readonly string[])[],
  map: ReadonlyMap<string, V>,
  c0: number,
  i0: number,
  c1: number,
  i1: number,
  reverse: boolean,
): Generator<[string, V]> {
  if (reverse) {
    for (let c = c1; c >= c0; c--) {
      const chunk = chunks[c];
      if (chunk === undefined) continue;
      const end = c === c1 ? i1 : chunk.length;
      const start = c === c0 ? i0 : 0;
      for (let i = end - 1; i >= start; i--) {
        const key = chunk[i] as string;
        yield [key, map.get(key) as V];
      }
    }
  } else {
    for (let c = c0; c <= c1 && c < chunks.length; c++) {
      const chunk = chunks[c] as string[];
      const start = c === c0 ? i0 : 0;
      const end = c === c1 ? i1 : chunk.length;
      for (let i = start; i < end; i++) {
        const key = chunk[i] as string;
        yield [key, map.get(key) as V];
      }
    }
  }
}

/** Keys per chunk of a {@link SortedKeys} at most; a fuller chunk is split in two. */
const CHUNK = 512;

/**
 * Sorted distinct keys in chunks of at most {@link CHUNK}: an insertion or removal moves the keys
 * of one chunk, not of the whole index (a state of thousands of keys would move thousands of slots
 * per write). Chunks are never empty.
 */
export class SortedKeys {
  private chunks: string[][] = [];
  private count = 0;

  /** @param chunkSize keys per chunk at most (small in tests, to split often). */
  constructor(private readonly chunkSize = CHUNK) {}

  /** Number of keys. */
  get size(): number {
    return this.count;
  }

  /** A copy that later changes of either do not affect. */
  clone(): SortedKeys {
    const copy = new SortedKeys(this.chunkSize);
    copy.chunks = this.chunks.map((chunk) => chunk.slice());
    copy.count = this.count;
    return copy;
  }

  /** Index of the first chunk whose last key is >= `key` (the chunk count when there is none). */
  private chunkOf(key: string): number {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = chunks[mid] as string[];
      if ((chunk[chunk.length - 1] as string) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Where the last insertion or removal left off: the next key in order is often inserted or
   * removed there (a queue's next entry, the entry after the one just written), which two
   * comparisons confirm instead of a search. The chunk is still in the index while it is not empty.
   */
  private hintChunk: string[] | undefined;
  private hintIndex = 0;

  /** Inserts `key`, which must not be present. */
  insert(key: string): void {
    const chunks = this.chunks;
    this.count++;
    const hinted = this.hintChunk;
    const h = this.hintIndex;
    if (
      hinted !== undefined &&
      h > 0 &&
      h < hinted.length &&
      (hinted[h - 1] as string) < key &&
      key < (hinted[h] as string)
    ) {
      this.insertAt(hinted, h, key);
      return;
    }
    const c = this.chunkOf(key);
    if (c === chunks.length) {
      // Past every key: an append, the common case of counters and ascending heights.
      const last = chunks[c - 1];
      if (last === undefined || last.length >= this.chunkSize) chunks.push([key]);
      else last.push(key);
      this.hintChunk = undefined;
      return;
    }
    const chunk = chunks[c] as string[];
    this.insertAt(chunk, lowerBound(chunk, key), key);
  }

  /** Inserts `key` at `index` of `chunk` (its place in order), splitting a chunk grown too full. */
  private insertAt(chunk: string[], index: number, key: string): void {
    chunk.splice(index, 0, key);
    this.hintChunk = chunk;
    this.hintIndex = index + 1;
    if (chunk.length > this.chunkSize) {
      const chunks = this.chunks;
      chunks.splice(chunks.indexOf(chunk) + 1, 0, chunk.splice(chunk.length >>> 1));
    }
  }

  /** Removes `key`, which must be present. */
  remove(key: string): void {
    const hinted = this.hintChunk;
    const h = this.hintIndex;
    let chunk: string[];
    let index: number;
    if (hinted !== undefined && h < hinted.length && hinted[h] === key) {
      chunk = hinted;
      index = h;
    } else {
      chunk = this.chunks[this.chunkOf(key)] as string[];
      index = lowerBound(chunk, key);
    }
    chunk.splice(index, 1);
    this.count--;
    if (chunk.length === 0) {
      this.chunks.splice(this.chunks.indexOf(chunk), 1);
      this.hintChunk = undefined;
      return;
    }
    this.hintChunk = chunk;
    this.hintIndex = index;
  }

  /**
   * The entries of `map` whose keys `k` are here with `lo <= k < hi` (no upper bound when
   * undefined), in key order or in reverse: one generator, the values looked up as it goes.
   */
  range<V>(
    map: ReadonlyMap<string, V>,
    lo: string,
    hi: string | undefined,
    reverse: boolean,
  ): Generator<[string, V]> {
    return this.walk(map, lo, hi, reverse) ?? walkChunks<V>([], map, 0, 0, 0, 0, reverse);
  }

  /**
   * The walk of {@link range}, or undefined when no key is in the range: told by the search for
   * `lo` and one comparison with `hi`, before any walk is made.
   */
  walk<V>(
    map: ReadonlyMap<string, V>,
    lo: string,
    hi: string | undefined,
    reverse: boolean,
  ): Generator<[string, V]> | undefined {
    const chunks = this.chunks;
    const c0 = this.chunkOf(lo);
    const first = chunks[c0];
    if (first === undefined) return undefined;
    // The chunk's last key is >= lo: i0 is within it, at the first key in the range if any.
    const i0 = lowerBound(first, lo);
    if (hi !== undefined && (first[i0] as string) >= hi) return undefined;
    let c1 = chunks.length;
    let i1 = 0;
    if (hi !== undefined) {
      c1 = this.chunkOf(hi);
      if (c1 < chunks.length) i1 = lowerBound(chunks[c1] as string[], hi);
    }
    return walkChunks(chunks, map, c0, i0, c1, i1, reverse);
  }

  /**
   * True when `[lo, hi)` (no upper bound when `hi` is undefined) lies wholly past the last key or
   * before the first, told by two comparisons without a search: no key is in it then. False does
   * not say that one is.
   */
  missesRange(lo: string, hi: string | undefined): boolean {
    const chunks = this.chunks;
    const last = chunks[chunks.length - 1];
    if (last === undefined || (last[last.length - 1] as string) < lo) return true;
    return hi !== undefined && ((chunks[0] as string[])[0] as string) >= hi;
  }

  /** Every key, in order. */
  toArray(): string[] {
    return this.chunks.flat();
  }
}

/** The entries of an {@link OrderedMap}, and how many iterations are reading them. */
export interface Layer<V> {
  readonly map: Map<string, V>;
  /** The keys of `map` whose value is indexed (see {@link OrderedMap}). */
  readonly keys: SortedKeys;
  /** Iterations in progress over this layer; while any runs, writes go to a copy. */
  readers: number;
}

/**
 * A map whose keys are also kept sorted (in chunks: see {@link SortedKeys}), so that a range of
 * keys is found in O(log n) and iterated lazily in O(k). Only keys whose value passes `indexed`
 * are in the sorted index (a cache's deletion markers are not: a range read never walks over
 * them). Values are never undefined.
 *
 * Iteration reads a snapshot: a write made while an iteration runs copies the layer first (copy on
 * write), so the iteration goes on over the keys and values it started with. The map keeps
 * insertion order, as a `Map` does.
 */
export class OrderedMap<V extends object | null> {
  private layer: Layer<V>;

  /**
   * @param indexed which values are in the sorted index (all by default).
   * @param chunkSize keys per chunk of the index at most (see {@link SortedKeys}).
   */
  constructor(
    private readonly indexed: (value: V) => boolean = () => true,
    private readonly chunkSize = CHUNK,
  ) {
    this.layer = { map: new Map(), keys: new SortedKeys(chunkSize), readers: 0 };
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
    this.layer = { map: new Map(layer.map), keys: layer.keys.clone(), readers: 0 };
    return this.layer;
  }

  /** Sets `key`; returns the value it replaced. */
  set(key: string, value: V): V | undefined {
    const layer = this.writable();
    // Values are never undefined (bytes, or a cache's null deletion marker): one lookup tells both.
    const old = layer.map.get(key);
    const wasIndexed = old !== undefined && this.indexed(old);
    const isIndexed = this.indexed(value);
    if (isIndexed && !wasIndexed) layer.keys.insert(key);
    else if (wasIndexed && !isIndexed) layer.keys.remove(key);
    layer.map.set(key, value);
    return old;
  }

  /** Number of indexed entries (the entries a range read can walk over). */
  get indexedSize(): number {
    return this.layer.keys.size;
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
    this.layer = { map, keys: layer.readers === 0 ? layer.keys : layer.keys.clone(), readers: 0 };
  }

  /** Every entry in insertion order (a snapshot: do not change the map while reading it). */
  inInsertionOrder(): ReadonlyMap<string, V> {
    return this.layer.map;
  }

  /** The indexed keys, sorted (a copy). */
  sortedKeys(): string[] {
    return this.layer.keys.toArray();
  }

  /** Removes every entry (iterations in progress keep their snapshot). */
  clear(): void {
    this.layer = { map: new Map(), keys: new SortedKeys(this.chunkSize), readers: 0 };
  }

  /** Pins the current layer for an iteration: until {@link unpin}, writes go to a copy. */
  pin(): Layer<V> {
    this.layer.readers++;
    return this.layer;
  }
}

/** Releases a layer pinned by {@link OrderedMap.pin}. */
export function unpin<V extends object | null>(layer: Layer<V>): void {
  layer.readers--;
}

/** Indexed entries of a pinned layer with `lo <= key < hi`, in key order (descending when `reverse`). */
export function rangeOf<V extends object | null>(
  layer: Layer<V>,
  lo: string,
  hi: string | undefined,
  reverse: boolean,
): Generator<[string, V]> {
  return layer.keys.range(layer.map, lo, hi, reverse);
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
): { walk: Generator<[string, V]>; first: [string, V] } | undefined {
  if (layer.keys.missesRange(lo, hi)) return undefined;
  const walk = layer.keys.walk(layer.map, lo, hi, reverse);
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
