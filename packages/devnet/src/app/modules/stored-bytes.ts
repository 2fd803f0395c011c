/**
 * Bytes of the store values every fill writes (a subaccount's positions, the block's stats of the
 * fill), carved out of shared slabs. V8 keeps a typed array of more than 64 bytes in an
 * ArrayBuffer of its own, whose backing store is allocated, tracked and swept by the collector (a
 * microsecond or so each, most of it in garbage collection), while a view into a slab is a small
 * object. Each view is zeroed and belongs to its caller alone, so it is a value like any other (a
 * reader honours its `byteOffset`, as every reader of stored bytes must); a slab lives while any of
 * its views does, so it is kept small.
 */

/** The largest typed array V8 keeps on its heap: such arrays are allocated as they are. */
const ON_HEAP_BYTES = 64;
/** The largest length carved out of a slab (longer ones get their own buffer). */
const MAX_CARVED_BYTES = 512;
/** The size of a slab. */
const SLAB_BYTES = 2048;

let slab = new ArrayBuffer(0);
let used = 0;

/** `length` zeroed bytes of their own (a view into a shared slab for a mid-sized length). */
export function storeBytes(length: number): Uint8Array {
  if (length <= ON_HEAP_BYTES || length > MAX_CARVED_BYTES) return new Uint8Array(length);
  if (used + length > slab.byteLength) {
    slab = new ArrayBuffer(SLAB_BYTES);
    used = 0;
  }
  const out = new Uint8Array(slab, used, length);
  used += length;
  return out;
}

const encoder = new TextEncoder();
/** Where a text is encoded before its bytes are copied into {@link storeBytes}. */
const scratch = new Uint8Array(MAX_CARVED_BYTES);

/** The UTF-8 of `text` (the bytes `utf8` of `lib/codec.ts` gives) in {@link storeBytes}. */
export function storeUtf8(text: string): Uint8Array {
  if (text.length > MAX_CARVED_BYTES) return encoder.encode(text);
  const { read, written } = encoder.encodeInto(text, scratch);
  if (read !== text.length) return encoder.encode(text);
  const out = storeBytes(written);
  out.set(scratch.subarray(0, written));
  return out;
}
