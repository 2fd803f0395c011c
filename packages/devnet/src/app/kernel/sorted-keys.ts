/**
 * The sorted index of an `OrderedMap`'s keys ({@link SortedKeys}): distinct keys in chunks, so
 * that an insertion or removal moves one chunk, and lazy walks over a range of them.
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
export const CHUNK = 512;

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
