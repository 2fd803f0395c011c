/**
 * A minimal protobuf writer for the transaction envelope (TxBody, AuthInfo, SignDoc, TxRaw): a few
 * fixed, tiny messages that protobuf-es's reflective `toBinary` spends most of the compose time on.
 * Proto3 rules: scalar fields at their default are omitted; message fields are written when set,
 * even when empty; repeated bytes are written element by element. Property tests in
 * `encode.test.ts` prove the output byte-identical to protobuf-es for random inputs.
 */
import { InvalidArgumentError } from "@perpx/errors";

const utf8 = new TextEncoder();
const MAX_UINT64 = (1n << 64n) - 1n;

/** Bytes of a UTF-8 string, memoized for the few constant strings (type URLs, chain ids, denoms). */
const strings = new Map<string, Uint8Array>();
const STRINGS_MAX = 512;

function stringBytes(text: string): Uint8Array {
  let bytes = strings.get(text);
  if (bytes === undefined) {
    bytes = utf8.encode(text);
    if (text.length <= 128) {
      if (strings.size >= STRINGS_MAX) strings.clear();
      strings.set(text, bytes);
    }
  }
  return bytes;
}

const SLAB_SIZE = 16 * 1024;
const SLAB_MAX = 1024;
let slab = new Uint8Array(0);
let slabAt = 0;

/**
 * `length` zeroed bytes for an encoder's output. Up to 1 KiB they are a view of a shared 16 KiB
 * slab, as Node's `Buffer` pool does: a new backing store per output (several per transaction) cost
 * more than the encoding. The view's `byteOffset` is usually not 0: read it as a view, never through
 * its `.buffer` alone. A slab whose buffer was transferred (detached) is replaced.
 */
export function allocBytes(length: number): Uint8Array {
  if (length > SLAB_MAX) return new Uint8Array(length);
  if (slabAt + length > slab.length || slab.buffer.byteLength === 0) {
    slab = new Uint8Array(SLAB_SIZE);
    slabAt = 0;
  }
  const out = slab.subarray(slabAt, slabAt + length);
  slabAt = (slabAt + length + 7) & ~7;
  return out;
}

/** An append-only protobuf writer over one growable buffer. */
export class ProtoWriter {
  #buf: Uint8Array;
  #pos = 0;
  readonly #open: number[] = [];
  readonly #tags: number[] = [];

  constructor(capacity = 256) {
    this.#buf = new Uint8Array(capacity);
  }

  #ensure(extra: number): void {
    if (this.#pos + extra <= this.#buf.length) return;
    const next = new Uint8Array(Math.max(this.#buf.length * 2, this.#pos + extra));
    next.set(this.#buf.subarray(0, this.#pos));
    this.#buf = next;
  }

  /** A varint of a uint32 (no tag). */
  varint32(value: number): void {
    this.#varint32(value);
  }

  /**
   * A varint of a uint64 (no tag); signed callers pass the two's complement.
   * @throws {InvalidArgumentError} outside 0..2^64-1 (never wrapped).
   */
  varint64(value: bigint): void {
    this.#varint64(value, "value");
  }

  /** 4 little-endian bytes of a 32-bit integer (no tag). */
  fixed32(value: number): void {
    this.#ensure(4);
    const v = value >>> 0;
    this.#buf[this.#pos++] = v & 0xff;
    this.#buf[this.#pos++] = (v >>> 8) & 0xff;
    this.#buf[this.#pos++] = (v >>> 16) & 0xff;
    this.#buf[this.#pos++] = v >>> 24;
  }

  /**
   * 8 little-endian bytes of a uint64 (no tag); signed callers pass the two's complement.
   * @throws {InvalidArgumentError} outside 0..2^64-1 (never wrapped).
   */
  fixed64(value: bigint): void {
    if (value < 0n || value > MAX_UINT64) throw new InvalidArgumentError("value", "must fit in a uint64");
    const v = value;
    this.fixed32(Number(v & 0xffff_ffffn));
    this.fixed32(Number(v >> 32n));
  }

  /** A field tag. */
  tag(field: number, wireType: number): this {
    this.#tag(field, wireType);
    return this;
  }

  /** A length-prefixed string value (no tag): ASCII copied directly, anything else through UTF-8. */
  stringValue(text: string): void {
    const length = text.length;
    for (let i = 0; i < length; i++) {
      if (text.charCodeAt(i) >= 0x80) {
        const bytes = utf8.encode(text);
        this.#varint32(bytes.length);
        this.raw(bytes);
        return;
      }
    }
    this.#varint32(length);
    this.#ensure(length);
    const buf = this.#buf;
    let at = this.#pos;
    for (let i = 0; i < length; i++) buf[at++] = text.charCodeAt(i);
    this.#pos = at;
  }

  /** Raw bytes (no tag, no length). */
  raw(bytes: Uint8Array): void {
    this.#ensure(bytes.length);
    this.#buf.set(bytes, this.#pos);
    this.#pos += bytes.length;
  }

  /** Where the writer is, to {@link ProtoWriter.restore} after an abandoned attempt. */
  mark(): number {
    return this.#pos * 1024 + this.#open.length;
  }

  /** Goes back to a {@link ProtoWriter.mark}, dropping what was written since. */
  restore(mark: number): void {
    this.#pos = Math.floor(mark / 1024);
    this.#open.length = mark % 1024;
    this.#tags.length = mark % 1024;
  }

  #varint32(value: number): void {
    this.#ensure(5);
    let v = value >>> 0;
    while (v > 0x7f) {
      this.#buf[this.#pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.#buf[this.#pos++] = v;
  }

  #varint64(value: bigint, field: string): void {
    if (value < 0n || value > MAX_UINT64) throw new InvalidArgumentError(field, "must fit in a uint64");
    if (value <= 0xffff_ffffn) {
      this.#varint32(Number(value));
      return;
    }
    this.#ensure(10);
    let v = value;
    while (v > 0x7fn) {
      this.#buf[this.#pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.#buf[this.#pos++] = Number(v);
  }

  #tag(field: number, wireType: number): void {
    this.#varint32((field << 3) | wireType);
  }

  /** A uint64 field, omitted at 0. */
  uint64(field: number, value: bigint, name: string): this {
    if (value !== 0n) {
      this.#tag(field, 0);
      this.#varint64(value, name);
    }
    return this;
  }

  /** A uint32 or enum field, omitted at 0. */
  uint32(field: number, value: number): this {
    if (value !== 0) {
      this.#tag(field, 0);
      this.#varint32(value);
    }
    return this;
  }

  /** A length-delimited field, always written (message fields, repeated bytes). */
  delimited(field: number, bytes: Uint8Array): this {
    this.#tag(field, 2);
    this.#varint32(bytes.length);
    this.#ensure(bytes.length);
    this.#buf.set(bytes, this.#pos);
    this.#pos += bytes.length;
    return this;
  }

  /**
   * Opens a message field: writes its tag and reserves one byte for its length. Close it with
   * {@link ProtoWriter.end}; the field is written even when it ends up empty.
   */
  begin(field: number): this {
    this.#tags.push(this.#pos);
    this.#tag(field, 2);
    this.#ensure(1);
    this.#open.push(this.#pos);
    this.#pos += 1;
    return this;
  }

  /**
   * Closes the innermost {@link ProtoWriter.begin}: writes its length (moving the body if it needs
   * more than one byte). With `omitEmpty`, an empty field is taken back out (a proto3 bytes field
   * that holds an empty message).
   */
  end(omitEmpty = false): this {
    const start = this.#open.pop()!;
    const tagStart = this.#tags.pop()!;
    const length = this.#pos - start - 1;
    if (length === 0 && omitEmpty) {
      this.#pos = tagStart;
      return this;
    }
    if (length < 0x80) {
      this.#buf[start] = length;
      return this;
    }
    let size = 1;
    for (let v = length; v > 0x7f; v >>>= 7) size++;
    this.#ensure(size - 1);
    this.#buf.copyWithin(start + size, start + 1, this.#pos);
    let v = length;
    let at = start;
    while (v > 0x7f) {
      this.#buf[at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.#buf[at] = v;
    this.#pos += size - 1;
    return this;
  }

  /** A singular bytes field, omitted when empty. */
  bytes(field: number, bytes: Uint8Array): this {
    return bytes.length === 0 ? this : this.delimited(field, bytes);
  }

  /** A singular string field, omitted when empty. */
  string(field: number, text: string): this {
    return text === "" ? this : this.delimited(field, stringBytes(text));
  }

  /** The bytes written so far (a copy, sized exactly, see {@link allocBytes}); the writer is then empty again. */
  finish(): Uint8Array {
    const out = allocBytes(this.#pos);
    out.set(this.#buf.subarray(0, this.#pos));
    this.#pos = 0;
    this.#open.length = 0;
    this.#tags.length = 0;
    return out;
  }

  /** Drops whatever was written (after a throw mid-message). */
  reset(): this {
    this.#pos = 0;
    this.#open.length = 0;
    this.#tags.length = 0;
    return this;
  }
}

let shared: ProtoWriter | undefined;

/**
 * The writer the envelope encoders share: allocating a fresh buffer per message cost more than
 * writing it. Encoding is synchronous and never re-entered, and every use starts with a reset.
 */
export function sharedWriter(): ProtoWriter {
  shared ??= new ProtoWriter(1024);
  return shared.reset();
}

/**
 * Writes a `google.protobuf.Any` message field from a type URL and its serialized value.
 */
export function writeAny(
  writer: ProtoWriter,
  field: number,
  typeUrl: string,
  value: Uint8Array,
): ProtoWriter {
  return writer.begin(field).string(1, typeUrl).bytes(2, value).end();
}
