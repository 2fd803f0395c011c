/**
 * The bytes of a `cosmos.base.abci.v1beta1.TxMsgData` (a tx result's `data`: the messages'
 * responses), written directly: the same bytes protobuf-es's `toBinary` writes, without creating
 * the message and walking its schema for every tx.
 */
import type { Any } from "@bufbuild/protobuf/wkt";
import { utf8 } from "../lib/codec.js";
import { fieldLength, putField, putVarint, varintLength } from "./proto-write.js";

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
  responses.forEach((any, i) => {
    out[pos] = 0x12;
    pos = putVarint(out, pos + 1, bodies[i] as number);
    pos = putField(out, pos, 0x0a, typeUrls[i] as Uint8Array);
    pos = putField(out, pos, 0x12, any.value);
  });
  return out;
}
