import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryReader, BinaryWriter } from "./codec.js";
import { createGasMeter, defaultGasConfig } from "./gas.js";
import { CacheStore, GasStore, PrefixStore, RootStore } from "./store.js";

const bytes = (n: number) => new Uint8Array([n & 0xff, (n >> 8) & 0xff]);

type Op = { kind: "set"; key: string; value: number } | { kind: "delete"; key: string };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("set" as const),
    key: fc.stringMatching(/^[a-d]{1,3}$/),
    value: fc.integer({ min: 0, max: 65535 }),
  }),
  fc.record({ kind: fc.constant("delete" as const), key: fc.stringMatching(/^[a-d]{1,3}$/) }),
);

function apply(store: { set(k: string, v: Uint8Array): void; delete(k: string): void }, ops: readonly Op[]) {
  for (const op of ops) op.kind === "set" ? store.set(op.key, bytes(op.value)) : store.delete(op.key);
}

function model(ops: readonly Op[], base = new Map<string, number>()) {
  const map = new Map(base);
  for (const op of ops) op.kind === "set" ? map.set(op.key, op.value) : map.delete(op.key);
  return map;
}

describe("store", () => {
  it("property: a cache over a root reads, iterates and writes like a plain map", () => {
    fc.assert(
      fc.property(
        fc.array(opArb),
        fc.array(opArb),
        fc.stringMatching(/^[a-d]{0,2}$/),
        fc.boolean(),
        (rootOps, cacheOps, prefix, reverse) => {
          const root = new RootStore();
          apply(root, rootOps);
          const cache = new CacheStore(root);
          apply(cache, cacheOps);
          const expected = model(cacheOps, model(rootOps));
          const keys = [...expected.keys()].filter((k) => k.startsWith(prefix)).sort();
          if (reverse) keys.reverse();
          expect([...cache.entries(prefix, { reverse })].map(([k]) => k)).toEqual(keys);
          for (const key of keys) expect(cache.get(key)).toEqual(bytes(expected.get(key) as number));
          cache.write();
          expect([...root.entries("")].map(([k, v]) => [k, v[0]! | (v[1]! << 8)])).toEqual(
            [...expected].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
          );
        },
      ),
    );
  });

  it("property: the state hash depends on the content only, not on the order of writes", () => {
    fc.assert(
      fc.property(fc.array(opArb), (ops) => {
        const a = new RootStore();
        apply(a, ops);
        const b = new RootStore();
        const final = model(ops);
        for (const [key, value] of [...final].reverse()) b.set(key, bytes(value));
        expect(a.hash()).toEqual(b.hash());
        const w = new BinaryWriter();
        a.writeTo(w);
        expect(RootStore.readFrom(new BinaryReader(w.finish())).hash()).toEqual(a.hash());
      }),
    );
  });

  it("changes its hash with any change of content", () => {
    const root = new RootStore();
    root.set("a", bytes(1));
    const before = root.hash();
    root.set("a", bytes(2));
    expect(root.hash()).not.toEqual(before);
    root.set("a", bytes(1));
    expect(root.hash()).toEqual(before);
  });

  it("slices keys by prefix and honours start/end bounds", () => {
    const root = new RootStore();
    for (const key of ["bank/a", "bank/b", "bank/c", "bankx", "auth/a"]) root.set(key, bytes(1));
    const bank = new PrefixStore(root, "bank/");
    expect([...bank.entries("")].map(([k]) => k)).toEqual(["a", "b", "c"]);
    expect([...bank.entries("", { start: "b" })].map(([k]) => k)).toEqual(["b", "c"]);
    expect([...bank.entries("", { end: "c" })].map(([k]) => k)).toEqual(["a", "b"]);
  });

  it("property: gas depends on keys and written values only, never on the values read", () => {
    fc.assert(
      fc.property(
        fc.array(opArb),
        fc.array(opArb),
        fc.array(fc.stringMatching(/^[a-d]{1,3}$/)),
        (stateA, stateB, reads) => {
          const charge = (state: readonly Op[]) => {
            const root = new RootStore();
            apply(root, state);
            const meter = createGasMeter(undefined);
            const store = new GasStore(new CacheStore(root), meter, defaultGasConfig);
            for (const key of reads) {
              store.get(key);
              store.set(key, bytes(7));
            }
            return meter.consumed;
          };
          expect(charge(stateA)).toBe(charge(stateB));
        },
      ),
    );
  });
});
