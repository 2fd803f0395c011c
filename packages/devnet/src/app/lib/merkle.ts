/**
 * CometBFT's simple Merkle tree (RFC 6962 style): leaves hashed with a 0x00 prefix, inner nodes with
 * 0x01, split at the largest power of two below the leaf count; the empty tree hashes to SHA-256("").
 */
import { sha256 } from "@noble/hashes/sha2.js";

const LEAF = new Uint8Array([0]);
const INNER = new Uint8Array([1]);

function hashParts(prefix: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  const h = sha256.create();
  h.update(prefix);
  for (const part of parts) h.update(part);
  return h.digest();
}

function splitPoint(length: number): number {
  let k = 1;
  while (k * 2 < length) k *= 2;
  return k;
}

/** The Merkle root of `items` (CometBFT `merkle.HashFromByteSlices`). */
export function merkleRoot(items: readonly Uint8Array[]): Uint8Array {
  if (items.length === 0) return sha256(new Uint8Array(0));
  if (items.length === 1) return hashParts(LEAF, items[0] as Uint8Array);
  const k = splitPoint(items.length);
  return hashParts(INNER, merkleRoot(items.slice(0, k)), merkleRoot(items.slice(k)));
}
