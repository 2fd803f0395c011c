/**
 * Helpers of the direct protobuf writers (`sign-doc.ts`, `tx-msg-data.ts`): varints and
 * length-delimited fields into a buffer sized beforehand.
 */

/** Bytes of the varint of `value` (a non-negative safe integer). */
export function varintLength(value: number): number {
  let length = 1;
  for (let rest = value; rest >= 0x80; rest = Math.floor(rest / 0x80)) length++;
  return length;
}

/** Writes the varint of `value` (a non-negative safe integer) at `at`; returns the next position. */
export function putVarint(out: Uint8Array, at: number, value: number): number {
  let pos = at;
  let rest = value;
  while (rest >= 0x80) {
    out[pos++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  out[pos++] = rest;
  return pos;
}

/** Size of a length-delimited field of `length` bytes; 0 for none (an empty scalar is left out). */
export function fieldLength(length: number): number {
  return length === 0 ? 0 : 1 + varintLength(length) + length;
}

/**
 * Writes the length-delimited field `tag` of `bytes` at `at` (nothing when `bytes` is empty, as
 * protobuf leaves an empty scalar out); returns the next position.
 */
export function putField(out: Uint8Array, at: number, tag: number, bytes: Uint8Array): number {
  if (bytes.length === 0) return at;
  out[at] = tag;
  const pos = putVarint(out, at + 1, bytes.length);
  out.set(bytes, pos);
  return pos + bytes.length;
}
