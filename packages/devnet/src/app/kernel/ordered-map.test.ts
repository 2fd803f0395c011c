import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Layer, OrderedMap, rangeOf, unpin } from "./ordered-map.js";
import { SortedKeys } from "./sorted-keys.js";

/** A value, or `null`: a value the map holds but does not index (a cache's deletion marker). */
type Value = { readonly n: number } | null;

/** Chunks of 3 keys: the index splits and drops chunks all the time. */
const newMap = (chunkSize = 3) => new OrderedMap<Value>((value) => value !== null, chunkSize);

/** Side keys (see `OrderedMap.set`): the keys the tests write as such, a second index. */
const isSide = (key: string) => key.startsWith("a");

/** The simple structure the map replaces: a `Map`, sorted on every read (its side keys apart). */
function sortedModel(
  model: ReadonlyMap<string, Value>,
  lo = "",
  hi?: string,
  reverse = false,
  side = false,
): [string, Value][] {
  const keys = [...model.keys()]
    .filter(
      (key) => model.get(key) !== null && isSide(key) === side && key >= lo && (hi === undefined || key < hi),
    )
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (reverse) keys.reverse();
  return keys.map((key) => [key, model.get(key) as Value]);
}

function readRange(
  map: OrderedMap<Value>,
  lo: string,
  hi: string | undefined,
  reverse: boolean,
  side: boolean,
): [string, Value][] {
  const layer = map.pin();
  try {
    return [...rangeOf(layer, lo, hi, reverse, side)];
  } finally {
    unpin(layer);
  }
}

type Op =
  | { kind: "set"; key: string; n: number | null; put: boolean }
  | { kind: "prune" }
  | { kind: "batch"; keys: string[] }
  | { kind: "read"; lo: string; hi: string | undefined; reverse: boolean }
  | { kind: "open" }
  | { kind: "close" }
  | { kind: "clear" };

/** Inserts `key` into both `keys` and its model, or removes it from both, when that applies. */
function insertOrRemove(keys: SortedKeys, model: Set<string>, insert: boolean, key: string): void {
  if (insert && !model.has(key)) {
    keys.insert(key);
    model.add(key);
  } else if (!insert && model.has(key)) {
    keys.remove(key);
    model.delete(key);
  }
}

const keyArb = fc.stringMatching(/^[a-e]{0,3}$/);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    // `put` sets without telling the value replaced (one lookup while no marker is held).
    arbitrary: fc.record({
      kind: fc.constant("set" as const),
      key: keyArb,
      n: fc.option(fc.nat(99)),
      put: fc.boolean(),
    }),
  },
  // Drops the deletion markers (null values).
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("prune" as const) }) },
  // Many writes with no read between them: the index merges them in one pass.
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("batch" as const),
      keys: fc.array(keyArb, { minLength: 9, maxLength: 30 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("read" as const),
      lo: keyArb,
      hi: fc.option(keyArb, { nil: undefined }),
      reverse: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("open" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("close" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("clear" as const) }) },
);

describe("OrderedMap", () => {
  it("property: reads, sorted keys and range walks match a map sorted on every read, whatever the interleaving of sets, puts, prunes and iterations", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 120 }), (ops) => {
        const map = newMap();
        const model = new Map<string, Value>();
        // Iterations held open across writes: each must read the range as it was when it started.
        const open: { layer: Layer<Value>; expected: [string, Value][]; side: [string, Value][] }[] = [];
        const snapshot = (layer: Layer<Value>, side: boolean) => [
          ...rangeOf(layer, "", undefined, false, side),
        ];
        for (const op of ops) {
          switch (op.kind) {
            case "set": {
              const value = op.n === null ? null : { n: op.n };
              if (op.put) map.put(op.key, value, isSide(op.key));
              else expect(map.set(op.key, value, isSide(op.key))).toBe(model.get(op.key));
              model.set(op.key, value);
              break;
            }
            case "batch":
              for (const key of op.keys) {
                const value = { n: 0 };
                map.set(key, value, isSide(key));
                model.set(key, value);
              }
              break;
            case "prune":
              map.prune();
              for (const [key, value] of model) if (value === null) model.delete(key);
              break;
            case "read":
              for (const side of [false, true]) {
                expect(readRange(map, op.lo, op.hi, op.reverse, side)).toEqual(
                  sortedModel(model, op.lo, op.hi, op.reverse, side),
                );
              }
              break;
            case "open":
              open.push({
                layer: map.pin(),
                expected: sortedModel(model),
                side: sortedModel(model, "", undefined, false, true),
              });
              break;
            case "close": {
              const iteration = open.pop();
              if (iteration !== undefined) {
                expect(snapshot(iteration.layer, false)).toEqual(iteration.expected);
                expect(snapshot(iteration.layer, true)).toEqual(iteration.side);
                unpin(iteration.layer);
              }
              break;
            }
            case "clear":
              map.clear();
              model.clear();
              break;
          }
          expect(map.size).toBe(model.size);
          expect(map.indexedSize).toBe(sortedModel(model).length);
          expect(map.unindexedSize).toBe([...model.values()].filter((value) => value === null).length);
        }
        for (const iteration of open) {
          expect(snapshot(iteration.layer, false)).toEqual(iteration.expected);
          expect(snapshot(iteration.layer, true)).toEqual(iteration.side);
        }
        expect(map.sortedKeys()).toEqual(sortedModel(model).map(([key]) => key));
        expect(readRange(map, "", undefined, false, true)).toEqual(
          sortedModel(model, "", undefined, false, true),
        );
        expect([...map.inInsertionOrder().keys()]).toEqual([...model.keys()]);
        for (const [key, value] of model) expect(map.get(key)).toBe(value);
      }),
      { numRuns: 500 },
    );
  });

  it("property: with any chunk size, sorted keys insert, remove and walk any range like a sorted array (and miss no key in range)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.boolean(), fc.stringMatching(/^[a-f]{0,3}$/)), { maxLength: 200 }),
        fc.stringMatching(/^[a-f]{0,3}$/),
        fc.option(fc.stringMatching(/^[a-f]{0,3}$/), { nil: undefined }),
        (chunkSize, ops, lo, hi) => {
          const keys = new SortedKeys(chunkSize);
          const model = new Set<string>();
          for (const [insert, key] of ops) insertOrRemove(keys, model, insert, key);
          const sorted = [...model].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          expect(keys.size).toBe(model.size);
          expect(keys.toArray()).toEqual(sorted);
          const inRange = sorted.filter((key) => key >= lo && (hi === undefined || key < hi));
          if (keys.missesRange(lo, hi)) expect(inRange).toEqual([]);
          const values = new Map(sorted.map((key) => [key, key.length]));
          expect([...keys.range(values, lo, hi, false)]).toEqual(inRange.map((key) => [key, key.length]));
          // A walk is made only when a key is in the range.
          for (const reverse of [false, true]) {
            const walk = keys.walk(values, lo, hi, reverse);
            expect(walk === undefined).toBe(inRange.length === 0);
            expect([...(walk ?? [])]).toEqual([...keys.range(values, lo, hi, reverse)]);
          }
          expect([...keys.range(values, lo, hi, true)]).toEqual(
            inRange.reverse().map((key) => [key, key.length]),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("property: runs of neighbouring keys (a queue's inserts and removals) keep the keys sorted", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.boolean(), fc.stringMatching(/^[a-d]{0,2}$/), fc.integer({ min: 1, max: 6 })), {
          maxLength: 60,
        }),
        (chunkSize, runs) => {
          const keys = new SortedKeys(chunkSize);
          const model = new Set<string>();
          // Each run writes or removes `length` keys in a row after `start`: the next one goes
          // where the last one went.
          for (const [insert, start, length] of runs) {
            for (let i = 0; i < length; i++) insertOrRemove(keys, model, insert, `${start}${i}`);
          }
          expect(keys.toArray()).toEqual([...model].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
          expect(keys.size).toBe(model.size);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a copy of the keys changes apart from the original", () => {
    const keys = new SortedKeys(2);
    for (const key of ["c", "a", "e", "b"]) keys.insert(key);
    const copy = keys.clone();
    copy.insert("d");
    keys.remove("a");
    expect(keys.toArray()).toEqual(["b", "c", "e"]);
    expect(copy.toArray()).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("an iteration started before a batch of writes reads the entries it started with", () => {
    const map = newMap();
    map.set("b", { n: 1 });
    map.set("a", { n: 2 });
    const layer = map.pin();
    for (const key of ["d", "c", "e", "f", "g", "h", "i", "j", "k"]) map.set(key, { n: 3 });
    map.set("a", null);
    map.prune();
    expect([...rangeOf(layer, "", undefined, false)].map(([key]) => key)).toEqual(["a", "b"]);
    unpin(layer);
    expect(map.sortedKeys()).toEqual(["b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]);
  });
});
