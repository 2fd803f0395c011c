/**
 * A read position over protobuf wire bytes for the direct decoders (`tx-wire.ts`, `order-wire.ts`):
 * each read turns `ok` false on anything a direct decoder does not take (a varint longer than it
 * reads, a length past its message's end, non-ASCII text), and the caller leaves those bytes to
 * protobuf-es.
 */

import { asciiText } from "./ascii-texts.js";

/** Wire types. */
export const VARINT = 0;
export const LEN = 2;
export const I32 = 5;

/**
 * The tag of field `no` with wire type `wireType`, as a decoder's switch cases compare it.
 *
 * @param no - the field number.
 * @param wireType - {@link VARINT}, {@link LEN} or {@link I32}.
 * @returns the tag's value.
 * @example
 * ```ts
 * tag(2, LEN); // 18
 * ```
 */
export const tag = (no: number, wireType: number): number => (no << 3) | wireType;

/** A read position over `buf` that turns `ok` false on anything this decoder does not take. */
export class Cursor {
  ok = true;
  pos: number;

  constructor(
    readonly buf: Uint8Array,
    start: number,
  ) {
    this.pos = start;
  }

  /** A varint below 2^28 (tags, lengths, enums): at most 4 bytes. */
  small(): number {
    const buf = this.buf;
    let value = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      const b = buf[this.pos++];
      if (b === undefined) break;
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
    }
    this.ok = false;
    return 0;
  }

  /** A `uint32` varint: at most 5 bytes, below 2^32 (protobuf-es's value for those bytes). */
  uint32(): number {
    const buf = this.buf;
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = buf[this.pos++];
      if (b === undefined || (shift === 28 && b > 0x0f)) break;
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
    }
    this.ok = false;
    return 0;
  }

  /** A `fixed32`: 4 bytes little-endian, unsigned. */
  fixed32(): number {
    const buf = this.buf;
    const at = this.pos;
    this.pos = at + 4;
    if (this.pos > buf.length) {
      this.ok = false;
      return 0;
    }
    return (
      ((buf[at] as number) |
        ((buf[at + 1] as number) << 8) |
        ((buf[at + 2] as number) << 16) |
        ((buf[at + 3] as number) << 24)) >>>
      0
    );
  }

  /** A varint of up to 9 bytes (63 bits) as a bigint. */
  uint64(): bigint {
    const buf = this.buf;
    let low = 0;
    for (let shift = 0; shift < 49; shift += 7) {
      const b = buf[this.pos++];
      if (b === undefined) break;
      low += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return BigInt(low);
    }
    if (this.pos > buf.length) {
      this.ok = false;
      return 0n;
    }
    let value = BigInt(low);
    for (let shift = 49n; shift < 63n; shift += 7n) {
      const b = buf[this.pos++];
      if (b === undefined) break;
      value |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return value;
    }
    this.ok = false;
    return 0n;
  }

  /**
   * Marks `bit` read in `seen` (a singular field's, or a oneof's): a second read of it is not
   * taken. Returns the new `seen`.
   */
  once(seen: number, bit: number): number {
    if ((seen & bit) !== 0) this.ok = false;
    return seen | bit;
  }

  /** Ends a message's field loop: a read that went past the message's `end` is not taken. */
  close(end: number): void {
    if (this.pos > end) this.ok = false;
  }

  /** The end of a length-delimited field that starts here, within `end`; -1 when it does not fit. */
  span(end: number): number {
    const length = this.small();
    const stop = this.pos + length;
    if (!this.ok || stop > end) {
      this.ok = false;
      return -1;
    }
    return stop;
  }

  /** Length-delimited bytes within `end`: a view into the input, as protobuf-es returns. */
  bytes(end: number): Uint8Array {
    const stop = this.span(end);
    if (stop < 0) return EMPTY;
    const out = this.buf.subarray(this.pos, stop);
    this.pos = stop;
    return out;
  }

  /** A length-delimited ASCII string within `end` (other text: not taken). */
  ascii(end: number): string {
    const stop = this.span(end);
    if (stop < 0) return "";
    const text = asciiText(this.buf, this.pos, stop);
    if (text === undefined) {
      this.ok = false;
      return "";
    }
    this.pos = stop;
    return text;
  }
}

/** The empty bytes protobuf-es leaves in an unset bytes field (shared: never written). */
export const EMPTY = new Uint8Array(0);
