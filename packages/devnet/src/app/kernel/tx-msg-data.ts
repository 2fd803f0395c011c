/**
 * The bytes of a `cosmos.base.abci.v1beta1.TxMsgData` (a tx result's `data`: the messages'
 * responses), written directly: the same bytes protobuf-es's `toBinary` writes, without creating
 * the message and walking its schema for every tx.
 */
import type { Any } from "@bufbuild/protobuf/wkt";
import { utf8 } from "../lib/codec.js";

/** Bytes of the varint of `value` (a non-negative safe integer). */
function varintLength(value: number): number {
  let length = 1;
  for (let rest = value; rest >= 0x80; rest = Math.floor(rest / 0x80)) length++;
  return length;
}

/** Writes the varint of `value` (a non-negative safe integer) at `at`; returns the next position. */
function putVarint(out: Uint8Array, at: number, value: number): number {
  let pos = at;
  let rest = value;
  while (rest >= 0x80) {
    out[pos++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  out[pos++] = rest;
  return pos;
}

/** Length of a length-delimited field of `length` bytes (0: an empty scalar, left out). */
function fieldLength(length: number): number {
  return length === 0 ? 0 : 1 + varintLength(length) + length;
}

/**
 * `TxMsgData { repeated google.protobuf.Any msg_responses = 2 }` as protobuf bytes (the deprecated
 * field 1 is never written). Each `Any` is `{ type_url = 1; value = 2 }`, empty fields left out.
 */
export function txMsgDataBytes(responses: readonly Any[]): Uint8Array {
  const typeUrls = responses.map((any) => utf8(any.typeUrl));
  const bodies = responses.map(
    (any, i) => fieldLength((typeUrls[i] as Uint8Array).length) + fieldLength(any.value.length),
  );
  let size = 0;
  for (const body of bodies) size += 1 + varintLength(body) + body;
  const out = new Uint8Array(size);
  let pos = 0;
  const put = (tag: number, bytes: Uint8Array) => {
    if (bytes.length === 0) return;
    out[pos++] = tag;
    pos = putVarint(out, pos, bytes.length);
    out.set(bytes, pos);
    pos += bytes.length;
  };
  responses.forEach((any, i) => {
    out[pos++] = 0x12;
    pos = putVarint(out, pos, bodies[i] as number);
    put(0x0a, typeUrls[i] as Uint8Array);
    put(0x12, any.value);
  });
  return out;
}
