/**
 * Short ASCII texts read from wire bytes, remembered ({@link asciiText}): a tx's type URLs and
 * addresses are the same few texts tx after tx, so a text read again is the string made the first
 * time (no native call to make it, and its hash, which every map lookup with it needs, is already
 * worked out).
 */
import { bytesKey } from "../lib/codec.js";

/** Texts of at most this many bytes are remembered (type URLs, addresses, denoms). */
const MAX_BYTES = 64;

/** Remembered texts: a direct-mapped table, a slot per hash of the bytes (a newer text replaces). */
const SLOTS = 256;
const slotBytes: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(SLOTS).fill(undefined);
const slotTexts: string[] = new Array<string>(SLOTS).fill("");

/** True when `known` holds the bytes of `buf` from `start` (as many as `known` has). */
function sameAt(known: Uint8Array, buf: Uint8Array, start: number): boolean {
  for (let i = 0; i < known.length; i++) if (known[i] !== buf[start + i]) return false;
  return true;
}

/**
 * The text of the bytes `buf[start..stop)`, or undefined when one of them is not ASCII: each byte
 * one char, as `latin1` decoding gives it. A short text is the string this returned last time for
 * the same bytes, when its slot still holds it.
 *
 * @example
 * ```ts
 * asciiText(new Uint8Array([0x2f, 0x61]), 0, 2); // "/a"
 * ```
 */
export function asciiText(buf: Uint8Array, start: number, stop: number): string | undefined {
  let hash = stop - start;
  for (let i = start; i < stop; i++) {
    const b = buf[i] as number;
    if (b >= 0x80) return undefined;
    hash = (Math.imul(hash, 31) + b) | 0;
  }
  const length = stop - start;
  if (length === 0) return "";
  if (length > MAX_BYTES) return bytesKey(buf, start, stop);
  const slot = (hash ^ (hash >>> 8) ^ (hash >>> 16)) & (SLOTS - 1);
  const known = slotBytes[slot];
  if (known !== undefined && known.length === length && sameAt(known, buf, start)) return slotTexts[slot];
  const text = bytesKey(buf, start, stop);
  slotBytes[slot] = buf.slice(start, stop);
  slotTexts[slot] = text;
  return text;
}
