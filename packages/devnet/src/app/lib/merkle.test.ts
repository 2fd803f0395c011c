/**
 * The Merkle root against a reference written from CometBFT's definition with noble's SHA-256
 * (leaves 0x00, inner nodes 0x01, split at the largest power of two below the count), and the
 * empty tree's known hash.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toHex } from "./codec.js";
import { merkleRoot } from "./merkle.js";

function reference(items: readonly Uint8Array[]): Uint8Array {
  if (items.length === 0) return sha256(new Uint8Array(0));
  if (items.length === 1) return sha256(new Uint8Array([0, ...(items[0] as Uint8Array)]));
  let k = 1;
  while (k * 2 < items.length) k *= 2;
  return sha256(new Uint8Array([1, ...reference(items.slice(0, k)), ...reference(items.slice(k))]));
}

describe("merkleRoot", () => {
  it("hashes the empty tree to SHA-256 of nothing", () => {
    expect(toHex(merkleRoot([]))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("matches the reference for any list of byte strings", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 80 }), { maxLength: 40 }), (items) => {
        const root = merkleRoot(items);
        expect(root).toBeInstanceOf(Uint8Array);
        expect(root.length).toBe(32);
        expect(toHex(root)).toBe(toHex(reference(items)));
      }),
      { numRuns: 300 },
    );
  });
});
