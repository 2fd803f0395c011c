/**
 * The protobuf wire format written field by field: varints, fixed32, length-delimited bytes,
 * strings and nested messages, each with its tag; proto3 scalars left out at their zero value.
 */
import type { Any } from "@bufbuild/protobuf/wkt";
import { putVarint, utf8, varintLength } from "./codec.js";

/** The varint wire type (a tag's low bits), for a field a writer spells out itself. */
export const VARINT = 0;
/** The length-delimited and fixed32 wire types. */
const LEN = 2;
const FIXED32 = 5;

/** The buffer {@link ProtoWriter.encode} writes into, when no `encode` in progress holds it. */
let scratch: Uint8Array | undefined = new Uint8Array(1024);

/** The buffer of a writer made with capacity 0, until it grows. */
const EMPTY = new Uint8Array(0);

/**
 * A growing buffer of protobuf fields, for the encoders the devnet writes by hand where `toBinary`'s
 * reflection costs too much per message (`kernel/sign-doc.ts`, `kernel/tx-msg-data.ts`,
 * `modules/clob/order-codec.ts`): each writes its fields in field-number order, as `toBinary` does.
 *
 * @example
 * ```ts
 * const bytes = new ProtoWriter().string(1, "perpx").uint64(2, 7n).finish();
 * bytes.length; // 9
 * ```
 */
export class ProtoWriter {
  private buffer: Uint8Array;
  private length = 0;

  /** @param capacity - the bytes the buffer starts with (it grows as needed). */
  constructor(capacity = 96) {
    this.buffer = capacity === 0 ? EMPTY : new Uint8Array(capacity);
  }

  /**
   * The bytes `write` writes (with the writer it is given, during the call only), in an array of
   * their exact size: written into a buffer kept for the purpose, then copied out. For the small
   * messages written per order: a writer's own buffer is an allocation each time, an off-heap one
   * over 64 bytes in V8. An `encode` inside another one writes into a buffer of its own.
   *
   * @example
   * ```ts
   * [...ProtoWriter.encode((w) => w.uint32(1, 300))]; // [8, 172, 2]
   * ```
   */
  static encode(write: (w: ProtoWriter) => void): Uint8Array {
    const own = scratch;
    scratch = undefined;
    const w = new ProtoWriter(own === undefined ? 96 : 0);
    if (own !== undefined) w.buffer = own;
    try {
      write(w);
      return w.buffer.slice(0, w.length);
    } finally {
      // Handed back as it was taken (a writer that outgrew it moved to a larger buffer).
      if (own !== undefined) scratch = own;
    }
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }

  /** An unsigned varint of a safe integer (0 .. 2^53). */
  varint(value: number): this {
    this.reserve(10);
    this.length = putVarint(this.buffer, this.length, value);
    return this;
  }

  /** A varint of a 64-bit value (a negative one as its two's complement, in ten bytes). */
  varint64(value: bigint): this {
    if (value >= 0n && value <= 0xffffffffn) return this.varint(Number(value));
    let v = BigInt.asUintN(64, value);
    this.reserve(10);
    while (v > 0x7fn) {
      this.buffer[this.length++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buffer[this.length++] = Number(v);
    return this;
  }

  tag(field: number, wireType: number): this {
    return this.varint(field * 8 + wireType);
  }

  /** A uint32 field, left out at 0. */
  uint32(field: number, value: number): this {
    return value === 0 ? this : this.tag(field, VARINT).varint(value >>> 0);
  }

  /** A uint64 field, left out at 0. */
  uint64(field: number, value: bigint): this {
    return value === 0n ? this : this.tag(field, VARINT).varint64(value);
  }

  /** An enum (int32) field, left out at 0; a negative value takes ten bytes, as int32 does. */
  enumField(field: number, value: number): this {
    if (value === 0) return this;
    this.tag(field, VARINT);
    return value > 0 ? this.varint(value) : this.varint64(BigInt(value));
  }

  /** A fixed32 value (little-endian), with its tag. */
  fixed32(field: number, value: number): this {
    this.tag(field, FIXED32);
    this.reserve(4);
    const v = value >>> 0;
    this.buffer[this.length++] = v & 0xff;
    this.buffer[this.length++] = (v >>> 8) & 0xff;
    this.buffer[this.length++] = (v >>> 16) & 0xff;
    this.buffer[this.length++] = v >>> 24;
    return this;
  }

  /** Length-prefixed bytes, with their tag. */
  bytes(field: number, value: Uint8Array): this {
    return this.tag(field, LEN).varint(value.length).raw(value);
  }

  /** A bytes field, left out when empty (as proto3 leaves an empty scalar out). */
  scalarBytes(field: number, value: Uint8Array): this {
    return value.length === 0 ? this : this.bytes(field, value);
  }

  /** A string field, left out when empty (ASCII copied as is, anything else through UTF-8). */
  string(field: number, value: string): this {
    if (value === "") return this;
    for (let i = 0; i < value.length; i++)
      if (value.charCodeAt(i) > 0x7f) return this.bytes(field, utf8(value));
    this.tag(field, LEN).varint(value.length);
    this.reserve(value.length);
    for (let i = 0; i < value.length; i++) this.buffer[this.length++] = value.charCodeAt(i);
    return this;
  }

  /** A message field: the fields `body` writes, length-prefixed, with the field's tag. */
  message(field: number, body: (w: this) => void): this {
    return this.tag(field, LEN).lengthPrefixed(body);
  }

  /** A `google.protobuf.Any` field: `{ type_url = 1; value = 2 }`, empty fields left out. */
  any(field: number, value: Any): this {
    return this.message(field, (m) => m.string(1, value.typeUrl).scalarBytes(2, value.value));
  }

  /** Bytes as they are (already encoded fields, with their tags). */
  raw(value: Uint8Array): this {
    this.reserve(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
    return this;
  }

  /** What `body` writes, behind its length (a varint): a message's body without its tag. */
  lengthPrefixed(body: (w: this) => void): this {
    this.reserve(1);
    const at = this.length++;
    body(this);
    const size = this.length - at - 1;
    const extra = varintLength(size) - 1;
    if (extra > 0) {
      this.reserve(extra);
      this.buffer.copyWithin(at + 1 + extra, at + 1, this.length);
      this.length += extra;
    }
    putVarint(this.buffer, at, size);
    return this;
  }

  /** The bytes written (a view of the buffer, which this writer no longer changes). */
  finish(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}
