import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { BinaryReader, BinaryWriter, concatBytes, decodeUint, encodeU64, utf8 } from "../lib/codec.js";
import { sha256 } from "../lib/sha256.js";
import { createGasMeter, defaultGasConfig } from "./gas.js";
import { OrderedMap } from "./ordered-map.js";
import { CacheStore, RootStore } from "./store.js";
import { GasStore, PrefixStore } from "./store-views.js";

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

  it("property: the state hash is the hash of the entry count and the sum of the entries' hashes", () => {
    // The reference: each entry hashed as u64(UTF-8 key length) ++ key ++ value, summed mod 2^256.
    const entry = (key: string, value: Uint8Array) => {
      const keyBytes = utf8(key);
      return decodeUint(sha256(concatBytes(encodeU64(BigInt(keyBytes.length)), keyBytes, value)));
    };
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: "binary", maxLength: 200 }), fc.uint8Array({ maxLength: 700 }))),
        fc.array(fc.string({ maxLength: 4 })),
        (writes, deletes) => {
          const root = new RootStore();
          const expected = new Map<string, Uint8Array>();
          for (const [key, value] of writes) {
            root.set(key, value);
            expected.set(key, value);
          }
          for (const key of deletes) {
            root.delete(key);
            expected.delete(key);
          }
          let sum = 0n;
          for (const [key, value] of expected) sum = (sum + entry(key, value)) & ((1n << 256n) - 1n);
          const sumBytes = new Uint8Array(32);
          for (let i = 31; i >= 0; i--) {
            sumBytes[i] = Number(sum & 0xffn);
            sum >>= 8n;
          }
          expect(root.hash()).toEqual(sha256(concatBytes(encodeU64(BigInt(expected.size)), sumBytes)));
        },
      ),
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

  it("property: three branch layers iterate any range, either way, like the merged map", () => {
    const bound = fc.option(fc.stringMatching(/^[a-d]{1,3}$/), { nil: undefined });
    fc.assert(
      fc.property(
        fc.tuple(fc.array(opArb), fc.array(opArb), fc.array(opArb), fc.array(opArb)),
        fc.stringMatching(/^[a-d]{0,2}$/),
        bound,
        bound,
        fc.boolean(),
        fc.nat(8),
        ([rootOps, blockOps, txOps, msgOps], prefix, start, end, reverse, take) => {
          const root = new RootStore();
          apply(root, rootOps);
          const block = new CacheStore(root);
          apply(block, blockOps);
          const tx = new CacheStore(block);
          apply(tx, txOps);
          const msg = new CacheStore(tx);
          apply(msg, msgOps);
          const expected = model(msgOps, model(txOps, model(blockOps, model(rootOps))));
          const keys = [...expected.keys()]
            .filter((k) => k.startsWith(prefix))
            .filter((k) => (start === undefined || k >= start) && (end === undefined || k < end))
            .sort();
          if (reverse) keys.reverse();
          const range = {
            reverse,
            ...(start === undefined ? {} : { start }),
            ...(end === undefined ? {} : { end }),
          };
          const entries = [...msg.entries(prefix, range)];
          expect(entries.map(([k]) => k)).toEqual(keys);
          for (const [k, v] of entries) expect(v).toEqual(bytes(expected.get(k) as number));
          // An iteration stopped early sees the same first entries.
          const first: string[] = [];
          for (const [k] of msg.entries(prefix, range)) {
            if (first.length >= take) break;
            first.push(k);
          }
          expect(first).toEqual(keys.slice(0, take));
          msg.write();
          tx.write();
          block.write();
          expect([...root.entries("")].map(([k]) => k)).toEqual([...expected.keys()].sort());
        },
      ),
    );
  });

  it("property: volatile keys are read, iterated and branched with the rest, but neither hashed nor serialized", () => {
    const isVolatile = (key: string) => key.startsWith("b") || key.endsWith("c");
    fc.assert(
      fc.property(
        fc.array(opArb),
        fc.array(opArb),
        fc.stringMatching(/^[a-d]{0,2}$/),
        fc.boolean(),
        (rootOps, branchOps, prefix, reverse) => {
          const root = new RootStore(isVolatile);
          apply(root, rootOps);
          const before = [...root.entries("")];
          const dropped = new CacheStore(root);
          apply(dropped, branchOps);
          dropped.discard();
          expect([...root.entries("")]).toEqual(before);
          const branch = new CacheStore(root);
          apply(branch, branchOps);
          branch.write();
          const expected = model(branchOps, model(rootOps));
          const keys = [...expected.keys()].filter((k) => k.startsWith(prefix)).sort();
          if (reverse) keys.reverse();
          expect([...root.entries(prefix, { reverse })].map(([k]) => k)).toEqual(keys);
          for (const [key, value] of expected) expect(root.get(key)).toEqual(bytes(value));
          const committed = new RootStore();
          for (const [key, value] of expected) if (!isVolatile(key)) committed.set(key, bytes(value));
          expect(root.hash()).toEqual(committed.hash());
          expect(root.size).toBe(committed.size);
          const written = new BinaryWriter();
          root.writeTo(written);
          const bytesOut = written.finish();
          const reference = new BinaryWriter();
          committed.writeTo(reference);
          expect(bytesOut).toEqual(reference.finish());
          const restored = RootStore.readFrom(new BinaryReader(bytesOut), isVolatile);
          expect([...restored.entries("")]).toEqual([...committed.entries("")]);
        },
      ),
    );
  });

  it("deleting volatile and committed keys while iterating them visits each key once", () => {
    const root = new RootStore((key) => key.startsWith("v"));
    for (const key of ["a", "va", "b", "vb", "c"]) root.set(key, bytes(1));
    const visited: string[] = [];
    for (const [key] of root.entries("")) {
      visited.push(key);
      root.delete(key);
      root.set(`v${key}x`, bytes(2));
    }
    expect(visited).toEqual(["a", "b", "c", "va", "vb"]);
    expect([...root.entries("")].map(([k]) => k)).toEqual(["vax", "vbx", "vcx", "vvax", "vvbx"]);
    expect(root.size).toBe(0);
  });

  it("a root store that deletes thousands of keys (its deletion markers dropped now and then) matches one holding only the entries left", () => {
    const prune = vi.spyOn(OrderedMap.prototype, "prune");
    const isVolatile = (key: string) => key.startsWith("v");
    const root = new RootStore(isVolatile);
    const expected = new Map<string, number>();
    const keyOf = (i: number) => `${i % 2 === 0 ? "c" : "v"}/${String(i).padStart(5, "0")}`;
    const walk = root.entries("")[Symbol.iterator]();
    const read: [string, Uint8Array][] = [];
    let seen: [string, Uint8Array][] = [];
    for (let round = 0; round < 10; round++) {
      // An iteration started mid-way reads the entries it started with, across drops of markers.
      if (round === 4) {
        seen = [...root.entries("")];
        const first = walk.next();
        if (!first.done) read.push(first.value);
      }
      // A window of keys that moves on each round: most keys are deleted for good.
      for (let i = 1000 * round; i < 1000 * round + 3000; i++) {
        root.set(keyOf(i), bytes(round));
        expected.set(keyOf(i), round);
      }
      for (let i = 1000 * round; i < 1000 * round + 3000; i++) {
        if ((i + round) % 3 === 0) continue;
        root.delete(keyOf(i));
        expected.delete(keyOf(i));
      }
    }
    for (let next = walk.next(); !next.done; next = walk.next()) read.push(next.value);
    expect(read).toEqual(seen);
    const sorted = [...expected.keys()].sort();
    expect([...root.entries("")]).toEqual(sorted.map((key) => [key, bytes(expected.get(key) as number)]));
    expect(prune).toHaveBeenCalled();
    prune.mockRestore();
    for (let i = 0; i < 13000; i++) {
      const value = expected.get(keyOf(i));
      expect(root.get(keyOf(i))).toEqual(value === undefined ? undefined : bytes(value));
      expect(root.has(keyOf(i))).toBe(value !== undefined);
    }
    const committed = new RootStore();
    for (const key of sorted) if (!isVolatile(key)) committed.set(key, bytes(expected.get(key) as number));
    expect(root.size).toBe(committed.size);
    expect(root.hash()).toEqual(committed.hash());
    const written = new BinaryWriter();
    root.writeTo(written);
    const reference = new BinaryWriter();
    committed.writeTo(reference);
    expect(written.finish()).toEqual(reference.finish());
  });

  it("an iteration reads the range as it was when it started, whatever is written meanwhile", () => {
    const root = new RootStore();
    for (const key of ["a", "b", "c", "d"]) root.set(key, bytes(1));
    const block = new CacheStore(root);
    block.set("bb", bytes(2));
    block.delete("c");
    const tx = new CacheStore(block);
    tx.set("ab", bytes(3));
    const seen: string[] = [];
    for (const [key] of tx.entries("")) {
      seen.push(key);
      // Writes in every layer while iterating: none of them shows up in this iteration.
      tx.delete("d");
      tx.set("e", bytes(4));
      block.set("aa", bytes(5));
      root.delete("b");
      root.set("c", bytes(6));
      if (key === "b") {
        tx.write();
        block.write();
      }
    }
    expect(seen).toEqual(["a", "ab", "b", "bb", "d"]);
    // Afterwards: the flushed writes, then the later ones (root's "c" came back after the flush).
    expect([...tx.entries("")].map(([k]) => k)).toEqual(["a", "aa", "ab", "bb", "c", "e"]);
    tx.write();
    block.write();
    // Deleting every key of a range while iterating it (expiry, pruning) visits each key once.
    const visited: string[] = [];
    for (const [key] of root.entries("")) {
      visited.push(key);
      root.delete(key);
    }
    expect(visited).toEqual(["a", "aa", "ab", "bb", "c", "e"]);
    expect(root.size).toBe(0);
  });

  it("a range read that stops at the first entry reads one entry per layer", () => {
    let pulled = 0;
    const root = new RootStore();
    for (let i = 0; i < 1000; i++) root.set(`k/${String(i).padStart(4, "0")}`, bytes(i));
    const counting = {
      get: (key: string) => root.get(key),
      has: (key: string) => root.has(key),
      set: (key: string, value: Uint8Array) => root.set(key, value),
      delete: (key: string) => root.delete(key),
      *entries(prefix: string, options?: Parameters<RootStore["entries"]>[1]) {
        for (const entry of root.entries(prefix, options)) {
          pulled++;
          yield entry;
        }
      },
    };
    const cache = new CacheStore(counting);
    for (let i = 0; i < 500; i++) cache.delete(`k/${String(2 * i + 1).padStart(4, "0")}`);
    for (const [key] of cache.entries("k/")) {
      expect(key).toBe("k/0000");
      break;
    }
    expect(pulled).toBeLessThanOrEqual(2);
  });
});
