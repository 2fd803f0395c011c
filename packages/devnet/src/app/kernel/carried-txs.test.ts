/**
 * The carried-tx cache against its reference, a map keyed by the bytes as a string: the same tx
 * (the very object) for every lookup, with the real hash and with one that collides all the time.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesKey } from "../lib/codec.js";
import { CarriedTxs, fnv1a, tailHash } from "./carried-txs.js";
import type { DecodedTx } from "./tx.js";

type Step = { kind: "add"; bytes: Uint8Array } | { kind: "get"; bytes: Uint8Array } | { kind: "clear" };

/** Short byte strings over a small alphabet, so that adds and lookups meet. */
const bytesArb = fc.uint8Array({ minLength: 0, maxLength: 4, max: 2 });

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: bytesArb.map((bytes): Step => ({ kind: "add", bytes })) },
  { weight: 4, arbitrary: bytesArb.map((bytes): Step => ({ kind: "get", bytes })) },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: "clear" }) },
);

function agree(hash: ((bytes: Uint8Array) => number) | undefined, steps: readonly Step[]): void {
  const cache = new CarriedTxs(hash);
  const reference = new Map<string, DecodedTx>();
  for (const step of steps) {
    if (step.kind === "add") {
      // A fresh copy of the bytes: entries are told apart by content, not identity.
      const tx = { bytes: Uint8Array.from(step.bytes) } as DecodedTx;
      cache.add(tx);
      reference.set(bytesKey(step.bytes), tx);
    } else if (step.kind === "get") {
      expect(cache.get(Uint8Array.from(step.bytes))).toBe(reference.get(bytesKey(step.bytes)));
    } else {
      cache.clear();
      reference.clear();
    }
  }
}

describe("carried txs", () => {
  it("finds what a map keyed by the bytes finds", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 50 }), (steps) => agree(undefined, steps)),
      { numRuns: 300 },
    );
  });

  it("tells txs apart by their bytes when their hashes collide", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 50 }), (steps) => agree((bytes) => bytes.length % 2, steps)),
      { numRuns: 300 },
    );
  });

  it("hashes as FNV-1a (from an index), and buckets by the last 32 bytes and the length", () => {
    const long = Uint8Array.from({ length: 40 }, (_, i) => i);
    expect(fnv1a(long, 8)).toBe(fnv1a(long.subarray(8)));
    const other = Uint8Array.from(long);
    other[7] = 99;
    expect(tailHash(other)).toBe(tailHash(long));
    expect(tailHash(long.subarray(1))).not.toBe(tailHash(long));
    expect(fnv1a(new Uint8Array(0))).toBe(0x811c9dc5);
    expect(fnv1a(new TextEncoder().encode("a"))).toBe(0xe40c292c);
    expect(fnv1a(new TextEncoder().encode("foobar"))).toBe(0xbf9cf968);
  });
});
