/**
 * The digest of one state entry, the term the root store sums (mod 2^256) into its state hash (see
 * `RootStore.hash`).
 */
import { hash } from "node:crypto";

/** The bytes an entry's digest hashes, written in place (grown when an entry does not fit). */
let entryBytes = Buffer.allocUnsafeSlow(512);

/**
 * SHA-256 of one entry (the key's UTF-8 length as a big-endian u64, the key, the value), as a
 * number, for the additive state hash.
 */
export function entryDigest(key: string, value: Uint8Array): bigint {
  const most = 8 + 3 * key.length + value.length;
  if (entryBytes.length < most) entryBytes = Buffer.allocUnsafeSlow(Math.max(most, 2 * entryBytes.length));
  const bytes = entryBytes;
  const keyLength = bytes.write(key, 8, "utf8");
  // A string's UTF-8 length is below 2^32: the u64's high word is 0.
  bytes.writeUInt32BE(0, 0);
  bytes.writeUInt32BE(keyLength, 4);
  bytes.set(value, 8 + keyLength);
  return BigInt(`0x${hash("sha256", bytes.subarray(0, 8 + keyLength + value.length), "hex")}`);
}
