/**
 * Small deterministic binary codecs: a length-prefixed writer and reader for exported state, and
 * fixed-width integer encodings for store values whose size must not depend on their content.
 */
import { DevnetError } from "../../devnet-error.js";

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder("utf-8", { fatal: true });

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array {
  return textEncoder.encode(text);
}

/** The string of UTF-8 bytes (throws on invalid UTF-8). */
export function fromUtf8(bytes: Uint8Array): string {
  return textDecoder.decode(bytes);
}

/** The two lower-case hex digits of each byte value. */
const HEX_DIGITS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/**
 * Bytes up to this length are spelled in JS: an address or a hash (most store keys) costs no
 * Buffer wrapper and no native call, which cost more than the work at this size.
 */
const SHORT_HEX = 64;

/** Lower-case hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  if (bytes.length > SHORT_HEX) {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
  }
  let hex = "";
  for (let i = 0; i < bytes.length; i++) hex += HEX_DIGITS[bytes[i] as number] as string;
  return hex;
}

/** Bytes of a hex string (either case, no prefix); throws on odd length or a non-hex character. */
export function fromHex(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex))
    throw new DevnetError("malformed", `invalid hex: ${hex}`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Standard base64 of bytes. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/** Bytes of standard base64. */
export function fromBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "base64"));
}

/** Concatenates byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  return concatList(parts);
}

/** Concatenates a list of byte arrays (any length of list). */
export function concatList(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * The bytes `bytes[start..stop)` as a string of one char per byte (latin1), made without copying
 * them: a map key for their exact content.
 *
 * @param bytes - the bytes
 * @param start - the first byte (0 by default)
 * @param stop - the end, exclusive (the length by default)
 * @returns the string whose char codes are the bytes
 * @example
 * bytesKey(Uint8Array.of(0x61, 0x62)); // "ab"
 * bytesKey(Uint8Array.of(0x61, 0x62, 0x63), 1, 2); // "b"
 */
export function bytesKey(bytes: Uint8Array, start = 0, stop = bytes.length): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, stop - start).toString("latin1");
}

/** Lengths from which {@link bytesEqual} compares natively (below, a loop costs less than the call). */
const NATIVE_COMPARE_FROM = 64;

/** True when both arrays hold the same bytes (at once for one array given twice). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  if (a.length >= NATIVE_COMPARE_FROM) return Buffer.compare(a, b) === 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const U64_MASK = (1n << 64n) - 1n;

/** Writes the low 32 bits of `word` big-endian at `at`. */
function putU32(out: Uint8Array, at: number, word: number): void {
  out[at] = word >>> 24;
  out[at + 1] = word >>> 16;
  out[at + 2] = word >>> 8;
  out[at + 3] = word;
}

/**
 * The big-endian 32-bit word at `at` (the caller checked the bounds), as a non-negative number.
 *
 * @param bytes - the bytes to read
 * @param at - offset of the word
 * @returns the word
 * @example
 * getU32(Uint8Array.of(0, 0, 1, 2), 0); // 258
 */
export function getU32(bytes: Uint8Array, at: number): number {
  return (
    (((bytes[at] as number) << 24) |
      ((bytes[at + 1] as number) << 16) |
      ((bytes[at + 2] as number) << 8) |
      (bytes[at + 3] as number)) >>>
    0
  );
}

/**
 * Writes `value` (non-negative) big-endian into the 32-bit words of `out` that end at `end`, from
 * the right, stopping at the first word past its highest bit; the words left of it stay zero.
 * 32-bit words in plain numbers: a `DataView` per call costs several times the whole encoding.
 */
function putUint(out: Uint8Array, end: number, value: bigint): void {
  let rest = value;
  for (let at = end - 4; at >= 0 && rest > 0n; at -= 4) {
    if (rest <= 0xffffffffn) {
      putU32(out, at, Number(rest));
      return;
    }
    putU32(out, at, Number(BigInt.asUintN(32, rest)));
    rest >>= 32n;
  }
}

/**
 * Writes an unsigned 64-bit integer big-endian into the 8 bytes of `out` at `at`.
 *
 * @param out - the bytes to write into
 * @param at - where the 8 bytes start
 * @param value - the integer, in `[0, 2^64)`
 * @throws DevnetError (out-of-range) for a value outside that range; nothing is written then
 * @example
 * const out = new Uint8Array(8);
 * putU64(out, 0, 258n); // out is 0 0 0 0 0 0 1 2
 */
export function putU64(out: Uint8Array, at: number, value: bigint): void {
  if (value < 0n || value > U64_MASK) throw new DevnetError("out-of-range", `u64 out of range: ${value}`);
  putU32(out, at, Number(value >> 32n));
  putU32(out, at + 4, Number(value & 0xffffffffn));
}

/** 8-byte big-endian encoding of an unsigned 64-bit integer. */
export function encodeU64(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  putU64(out, 0, value);
  return out;
}

/** Reads an 8-byte big-endian unsigned integer at `offset` (a `RangeError` past the end). */
export function decodeU64(bytes: Uint8Array, offset = 0): bigint {
  if (!(offset >= 0 && offset + 8 <= bytes.length))
    throw new RangeError("Offset is outside the bounds of the bytes");
  const hi = getU32(bytes, offset);
  const lo = getU32(bytes, offset + 4);
  return hi === 0 ? BigInt(lo) : (BigInt(hi) << 32n) | BigInt(lo);
}

/** 32-byte big-endian encoding of an unsigned 256-bit integer (bank amounts, SDK `Int`). */
export function encodeU256(value: bigint): Uint8Array {
  if (value < 0n || value >= 1n << 256n) throw new DevnetError("out-of-range", `u256 out of range: ${value}`);
  const out = new Uint8Array(32);
  putUint(out, 32, value);
  return out;
}

/** Reads a big-endian unsigned integer of any width (the leading `length % 4` bytes one by one, then 32-bit words). */
export function decodeUint(bytes: Uint8Array): bigint {
  const length = bytes.length;
  const head = length % 4;
  let value = 0n;
  let i = 0;
  for (; i < head; i++) value = (value << 8n) | BigInt(bytes[i] as number);
  for (; i < length; i += 4) {
    const word = BigInt(getU32(bytes, i));
    value = value === 0n ? word : (value << 32n) | word;
  }
  return value;
}

/**
 * The bytes of the unsigned LEB128 varint of `value` (a non-negative integer: a bigint of any size,
 * or a safe integer).
 *
 * @param value - the value to write
 * @returns how many bytes {@link putVarint} writes for it
 * @example
 * varintLength(300); // 2
 */
export function varintLength(value: bigint | number): number {
  let length = 1;
  if (typeof value === "number") {
    for (let rest = value; rest >= 0x80; rest = Math.floor(rest / 0x80)) length++;
  } else {
    for (let rest = value; rest >= 0x80n; rest >>= 7n) length++;
  }
  return length;
}

/**
 * Writes the unsigned LEB128 varint of `value` (as {@link varintLength}) into `out` at `at`, which
 * has room for it.
 *
 * @param out - the bytes to write into
 * @param at - where the varint starts
 * @param value - the value to write
 * @returns where the varint ends
 * @example
 * const out = new Uint8Array(2);
 * putVarint(out, 0, 300); // 2 (out is 0xac 0x02)
 */
export function putVarint(out: Uint8Array, at: number, value: bigint | number): number {
  let i = at;
  if (typeof value === "number") {
    let rest = value;
    while (rest >= 0x80) {
      out[i++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    out[i] = rest;
  } else {
    let rest = value;
    while (rest >= 0x80n) {
      out[i++] = Number(rest & 0x7fn) | 0x80;
      rest >>= 7n;
    }
    out[i] = Number(rest);
  }
  return i + 1;
}

/**
 * `value` as a number when it is a non-negative safe integer or a bigint below 2^32 (counters,
 * heights, amounts: a varint written with no bigint work), else -1.
 */
function smallUint(value: bigint | number): number {
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? value : -1;
  return value >= 0n && value <= 0xffffffffn ? Number(value) : -1;
}

/** Appends length-prefixed values to a growing buffer; the output is a pure function of the calls. */
export class BinaryWriter {
  private buffer: Uint8Array;
  private length = 0;

  /** @param capacity - initial buffer size in bytes (it grows as needed). @default 1024 */
  constructor(capacity = 1024) {
    this.buffer = new Uint8Array(Math.max(16, capacity));
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }

  /** An unsigned LEB128 varint (any size). */
  uvarint(value: bigint | number): this {
    const small = smallUint(value);
    if (small >= 0) {
      this.reserve(varintLength(small));
      this.length = putVarint(this.buffer, this.length, small);
      return this;
    }
    const v = BigInt(value);
    if (v < 0n) throw new DevnetError("out-of-range", `negative varint: ${v}`);
    this.reserve(varintLength(v));
    this.length = putVarint(this.buffer, this.length, v);
    return this;
  }

  /** A signed integer (zig-zag varint). */
  svarint(value: bigint | number): this {
    const v = BigInt(value);
    return this.uvarint(v >= 0n ? v << 1n : (-v << 1n) - 1n);
  }

  /** Length-prefixed bytes. */
  bytes(value: Uint8Array): this {
    this.uvarint(value.length);
    this.reserve(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
    return this;
  }

  /** Bytes without a length prefix (for pre-encoded chunks). */
  raw(value: Uint8Array): this {
    this.reserve(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
    return this;
  }

  /** A length-prefixed UTF-8 string. */
  string(value: string): this {
    return this.bytes(utf8(value));
  }

  /** One byte, 0 or 1. */
  bool(value: boolean): this {
    this.reserve(1);
    this.buffer[this.length++] = value ? 1 : 0;
    return this;
  }

  /** The bytes written so far (a copy). */
  finish(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

/** Reads what a {@link BinaryWriter} wrote, in the same order; throws on truncated input. */
export class BinaryReader {
  private offset = 0;

  constructor(private readonly buffer: Uint8Array) {}

  /** True when every byte was read. */
  get done(): boolean {
    return this.offset >= this.buffer.length;
  }

  private byte(): number {
    const value = this.buffer[this.offset++];
    if (value === undefined) throw new DevnetError("malformed", "truncated state");
    return value;
  }

  /** An unsigned varint as a bigint. */
  uvarint(): bigint {
    // Fast path: up to 7 bytes (49 bits) in plain numbers.
    let small = 0;
    let factor = 1;
    for (let i = 0; i < 7; i++) {
      const b = this.byte();
      small += (b & 0x7f) * factor;
      if ((b & 0x80) === 0) return BigInt(small);
      factor *= 128;
    }
    let result = BigInt(small);
    let shift = 49n;
    for (;;) {
      const b = this.byte();
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  }

  /** An unsigned varint that fits a JS number. */
  uint(): number {
    let small = 0;
    let factor = 1;
    for (let i = 0; i < 7; i++) {
      const b = this.byte();
      small += (b & 0x7f) * factor;
      if ((b & 0x80) === 0) return small;
      factor *= 128;
    }
    throw new DevnetError("malformed", "varint too large");
  }

  /** A zig-zag signed varint. */
  svarint(): bigint {
    const v = this.uvarint();
    return (v & 1n) === 0n ? v >> 1n : -((v + 1n) >> 1n);
  }

  /** Length-prefixed bytes: a view into the input (no copy; do not modify it). */
  bytes(): Uint8Array {
    const length = this.uint();
    if (this.offset + length > this.buffer.length) throw new DevnetError("malformed", "truncated state");
    const out = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  /** Where the next read starts. */
  get position(): number {
    return this.offset;
  }

  /** A view of the input between two positions. */
  view(start: number, end: number): Uint8Array {
    return this.buffer.subarray(start, end);
  }

  /** A length-prefixed UTF-8 string. */
  string(): string {
    return fromUtf8(this.bytes());
  }

  /** One boolean byte. */
  bool(): boolean {
    return this.byte() !== 0;
  }
}
