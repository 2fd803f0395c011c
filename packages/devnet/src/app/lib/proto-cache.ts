/**
 * Decoding of stored protobuf records that many txs read unchanged (perpetual params, liquidity
 * tiers, market params, fee params, clob pairs): each distinct byte string is decoded once, and the
 * message is shared, frozen, by every later read of the same bytes. The cache is keyed by content,
 * so a record that changes decodes afresh; the store reads (and the gas they cost) stay with the
 * caller. A pure speed-up: the result is the message `fromBinary` gives.
 */
import { type DescMessage, fromBinary, type MessageShape } from "@bufbuild/protobuf";

/** Distinct records kept per message type (oldest dropped first). */
const CACHE_SIZE = 1024;
const caches = new Map<string, Map<string, unknown>>();

/** Freezes a decoded message and every message, list and map inside it (bytes stay as they are). */
function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || ArrayBuffer.isView(value) || Object.isFrozen(value))
    return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}

/**
 * `fromBinary(schema, bytes)`, decoded once per distinct `bytes` and shared: the message is deeply
 * frozen (its `bytes` fields excepted: do not change them), so copy it (`{ ...message }`, `create`)
 * to change it.
 *
 * @example
 * ```ts
 * import { create, toBinary } from "@bufbuild/protobuf";
 * import { perpetuals } from "@perpx/proto";
 *
 * const bytes = toBinary(perpetuals.PerpetualParamsSchema, create(perpetuals.PerpetualParamsSchema, { id: 7 }));
 * const params = fromBinaryCached(perpetuals.PerpetualParamsSchema, bytes);
 * params.id; // 7
 * fromBinaryCached(perpetuals.PerpetualParamsSchema, bytes.slice()) === params; // true: decoded once
 * Object.isFrozen(params); // true
 * ```
 */
export function fromBinaryCached<S extends DescMessage>(schema: S, bytes: Uint8Array): MessageShape<S> {
  let cache = caches.get(schema.typeName);
  if (cache === undefined) {
    cache = new Map();
    caches.set(schema.typeName, cache);
  }
  const id = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const hit = cache.get(id);
  if (hit !== undefined) return hit as MessageShape<S>;
  const message = fromBinary(schema, bytes);
  deepFreeze(message);
  if (cache.size >= CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(id, message);
  return message;
}
