import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { VerdictCache } from "./verdict-cache.js";

const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill);

describe("VerdictCache", () => {
  it("hits only for the exact algorithm, key, sign bytes and signature recorded", () => {
    const cache = new VerdictCache(8);
    const key = bytes(33, 2);
    const doc = bytes(100, 7);
    const sig = bytes(64, 9);
    expect(cache.has("secp256k1", key, doc, sig)).toBe(false);
    cache.add("secp256k1", key, doc, sig);
    expect(cache.has("secp256k1", key, doc, sig)).toBe(true);
    expect(cache.has("secp256k1", key, doc, sig.slice())).toBe(true);
    expect(cache.has("eth_secp256k1", key, doc, sig)).toBe(false);
    expect(cache.has("secp256k1", bytes(33, 3), doc, sig)).toBe(false);
    expect(cache.has("secp256k1", key, doc.subarray(1), sig)).toBe(false);
    expect(cache.has("secp256k1", key, doc, sig.subarray(0, 63))).toBe(false);
    cache.clear();
    expect(cache.has("secp256k1", key, doc, sig)).toBe(false);
  });

  it("copies what it records: a later change to the caller's bytes does not hit", () => {
    const cache = new VerdictCache(8);
    const key = bytes(33, 2);
    const doc = bytes(40, 7);
    const sig = bytes(64, 9);
    cache.add("secp256k1", key, doc, sig);
    doc[3] = 1;
    expect(cache.has("secp256k1", key, doc, sig)).toBe(false);
    key[0] = 3;
    doc[3] = 7;
    expect(cache.has("secp256k1", key, doc, sig)).toBe(false);
  });

  it("keeps at most its capacity, dropping the oldest first", () => {
    const cache = new VerdictCache(3);
    const key = bytes(33, 2);
    const doc = bytes(10, 1);
    for (let i = 0; i < 5; i++) cache.add("secp256k1", key, doc, bytes(64, i));
    expect(cache.size).toBe(3);
    expect([0, 1, 2, 3, 4].map((i) => cache.has("secp256k1", key, doc, bytes(64, i)))).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it("property: agrees with a list of the last recorded verdicts; a mutation of any field never hits", () => {
    const entry = fc.record({
      algo: fc.constantFrom("secp256k1", "eth_secp256k1"),
      key: fc.uint8Array({ minLength: 0, maxLength: 34 }),
      signBytes: fc.uint8Array({ minLength: 0, maxLength: 64 }),
      signature: fc.uint8Array({ minLength: 0, maxLength: 65 }),
    });
    type Entry = { algo: string; key: Uint8Array; signBytes: Uint8Array; signature: Uint8Array };
    const same = (a: Entry, b: Entry) =>
      a.algo === b.algo &&
      Buffer.from(a.key).equals(b.key) &&
      Buffer.from(a.signBytes).equals(b.signBytes) &&
      Buffer.from(a.signature).equals(b.signature);
    const mutation = fc.record({
      field: fc.constantFrom("algo", "key", "signBytes", "signature"),
      kind: fc.constantFrom("flip", "append", "truncate"),
      at: fc.nat(),
      bit: fc.integer({ min: 0, max: 7 }),
    });
    const mutate = (e: Entry, m: { field: string; kind: string; at: number; bit: number }): Entry => {
      if (m.field === "algo") return { ...e, algo: e.algo === "secp256k1" ? "eth_secp256k1" : "secp256k1" };
      const value = e[m.field as "key" | "signBytes" | "signature"];
      let changed: Uint8Array;
      if (m.kind === "append" || value.length === 0) changed = Uint8Array.from([...value, m.bit]);
      else if (m.kind === "truncate") changed = value.subarray(0, m.at % value.length);
      else {
        changed = value.slice();
        const i = m.at % value.length;
        changed[i] = (changed[i] as number) ^ (1 << m.bit);
      }
      return { ...e, [m.field]: changed };
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(entry, { maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(), mutation), { maxLength: 12 }),
        (capacity, added, probes) => {
          const cache = new VerdictCache(capacity);
          let reference: Entry[] = [];
          for (const e of added) {
            cache.add(e.algo, e.key, e.signBytes, e.signature);
            // One verdict per signature: a new one replaces the old, and counts as the newest.
            reference = reference.filter((r) => !Buffer.from(r.signature).equals(e.signature));
            reference.push(e);
            reference = reference.slice(-capacity);
          }
          const holds = (e: Entry) => reference.some((r) => same(r, e));
          for (const e of added) {
            expect(cache.has(e.algo, e.key, e.signBytes, e.signature)).toBe(holds(e));
          }
          for (const [index, m] of probes) {
            if (added.length === 0) return;
            // A changed field hits only if the changed verdict was itself recorded (and kept).
            const changed = mutate(added[index % added.length] as Entry, m);
            expect(cache.has(changed.algo, changed.key, changed.signBytes, changed.signature)).toBe(
              holds(changed),
            );
          }
        },
      ),
    );
  });
});
