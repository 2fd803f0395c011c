/**
 * The bytes of a `cosmos.base.abci.v1beta1.TxMsgData` (a tx result's `data`: the messages'
 * responses), written directly: the same bytes protobuf-es's `toBinary` writes, without creating
 * the message and walking its schema for every tx.
 */
import type { Any } from "@bufbuild/protobuf/wkt";
import { ProtoWriter } from "../lib/proto-writer.js";

/**
 * `TxMsgData { repeated google.protobuf.Any msg_responses = 2 }` as protobuf bytes (the deprecated
 * field 1 is never written). Each `Any` is `{ type_url = 1; value = 2 }`, empty fields left out.
 */
export function txMsgDataBytes(responses: readonly Any[]): Uint8Array {
  const only = responses.length === 1 ? responses[0] : undefined;
  if (only !== undefined && only.value.length === 0) {
    // One empty response (an order message's): the bytes depend on its type alone.
    let bytes = emptyResponses.get(only.typeUrl);
    if (bytes === undefined) {
      bytes = encode(responses);
      if (emptyResponses.size < EMPTY_RESPONSES) emptyResponses.set(only.typeUrl, bytes);
    }
    return bytes.slice();
  }
  return encode(responses);
}

/** The bytes of a lone empty response, by its type URL (at most {@link EMPTY_RESPONSES} types). */
const emptyResponses = new Map<string, Uint8Array>();

/** Type URLs {@link emptyResponses} keeps at most (the chain has a few dozen message types). */
const EMPTY_RESPONSES = 256;

function encode(responses: readonly Any[]): Uint8Array {
  return ProtoWriter.encode((w) => {
    for (const any of responses) w.any(2, any);
  });
}
