/**
 * Decoded txs by their exact bytes: the short-term txs CheckTx accepted since the last block, which
 * the block's proposed operations carry again. Found by a hash of the bytes' tail, then compared
 * byte by byte: a lookup allocates nothing, where a string key of the bytes would copy them into a
 * new string each time (a block carries hundreds).
 */
import { bytesEqual } from "../lib/codec.js";
import type { DecodedTx } from "./tx.js";

/** FNV-1a (32 bits) of `bytes` from index `start`. */
export function fnv1a(bytes: Uint8Array, start = 0): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < bytes.length; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
  return hash >>> 0;
}

/**
 * The bucket of a tx's bytes: their length and the FNV-1a of their last 32 bytes, which end a
 * signed tx's signature (as good as random); the bytes are compared in full anyway.
 */
export function tailHash(bytes: Uint8Array): number {
  return (fnv1a(bytes, Math.max(0, bytes.length - 32)) ^ Math.imul(bytes.length, 0x9e3779b1)) >>> 0;
}

/** Decoded txs by their bytes (see the module comment). */
export class CarriedTxs {
  private readonly byHash = new Map<number, DecodedTx[]>();

  /** @param hash - the hash the txs are bucketed by (any function of the bytes will do). */
  constructor(private readonly hash: (bytes: Uint8Array) => number = tailHash) {}

  /** Keeps `tx` under its bytes, in place of a tx of the same bytes kept before. */
  add(tx: DecodedTx): void {
    const key = this.hash(tx.bytes);
    const bucket = this.byHash.get(key);
    if (bucket === undefined) {
      this.byHash.set(key, [tx]);
      return;
    }
    const same = bucket.findIndex((kept) => bytesEqual(kept.bytes, tx.bytes));
    if (same === -1) bucket.push(tx);
    else bucket[same] = tx;
  }

  /** The tx kept under exactly `bytes`, if any. */
  get(bytes: Uint8Array): DecodedTx | undefined {
    const bucket = this.byHash.get(this.hash(bytes));
    if (bucket === undefined) return undefined;
    for (const tx of bucket) if (bytesEqual(tx.bytes, bytes)) return tx;
    return undefined;
  }

  /** Forgets every tx. */
  clear(): void {
    this.byHash.clear();
  }
}
