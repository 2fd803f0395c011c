/**
 * CometBFT's simple Merkle tree (RFC 6962 style): leaves hashed with a 0x00 prefix, inner nodes with
 * 0x01, split at the largest power of two below the leaf count; the empty tree hashes to SHA-256("").
 * Hashed with Node's native SHA-256 (`sha256.ts`): a block header's few hashes never run cold
 * JavaScript, as the first block of every start did.
 */
import { sha256 } from "./sha256.js";

const LEAF = 0;
const INNER = 1;

/** SHA-256 of the prefix byte followed by `parts`. */
function hashParts(prefix: number, ...parts: Uint8Array[]): Uint8Array {
  let length = 1;
  for (const part of parts) length += part.length;
  const bytes = new Uint8Array(length);
  bytes[0] = prefix;
  let at = 1;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return sha256(bytes);
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
