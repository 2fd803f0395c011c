/**
 * Decoding of stored protobuf records that many txs read unchanged (perpetual params, liquidity
 * tiers, market params, fee params, clob pairs): each distinct byte string is decoded once, and the
 * message is shared, frozen, by every later read of the same bytes. The cache is keyed by content,
 * so a record that changes decodes afresh; the store reads (and the gas they cost) stay with the
 * caller. A pure speed-up: the result is the message `fromBinary` gives. A byte array seen before
 * is found by identity first (a store hands back the same array for a record no one rewrote), so it
 * costs no content key; byte arrays given here must not be changed afterwards (stored values never
 * are).
 */
import { type DescMessage, fromBinary, type Message, type MessageShape } from "@bufbuild/protobuf";
import { bytesKey } from "./codec.js";
import { type WireMessage, wireDecode } from "./wire-codec.js";

/** Distinct records kept per message type (oldest dropped first). */
const CACHE_SIZE = 1024;
/** One message type's decoded records: by content, and by the byte arrays they were read from. */
interface TypeCache {
  readonly byContent: Map<string, unknown>;
  readonly byArray: WeakMap<Uint8Array, unknown>;
}
const caches = new Map<string, TypeCache>();

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
  return cached(schema.typeName, bytes, fromBinary, schema);
}

/**
 * {@link fromBinaryCached} through a message type's field table (`wire-codec.ts`): the same
 * message, decoded without protobuf-es's descriptors, shared with `fromBinaryCached`'s reads of the
 * same type.
 *
 * @param table - the message type's table (`wire-tables.ts`).
 * @param bytes - a stored record of that type (not changed afterwards).
 * @returns the decoded message, deeply frozen.
 * @example
 * ```ts
 * const params = wireDecodeCached(perpx_perpetuals_v1_Params, new Uint8Array([8, 5]));
 * params.fundingRateClampFactorPpm; // 5
 * ```
 */
export function wireDecodeCached<T extends Message>(table: WireMessage<T>, bytes: Uint8Array): T {
  return cached(table.typeName, bytes, wireDecode, table);
}

/**
 * The shared message of `bytes` of type `typeName`, decoded by `decode(type, bytes)` the first time
 * (the decoder and its type passed apart: a read the cache answers allocates nothing).
 */
function cached<Type, T>(
  typeName: string,
  bytes: Uint8Array,
  decode: (type: Type, bytes: Uint8Array) => T,
  type: Type,
): T {
  let cache = caches.get(typeName);
  if (cache === undefined) {
    cache = { byContent: new Map(), byArray: new WeakMap() };
    caches.set(typeName, cache);
  }
  const seen = cache.byArray.get(bytes);
  if (seen !== undefined) return seen as T;
  const id = bytesKey(bytes);
  let message = cache.byContent.get(id) as T | undefined;
  if (message === undefined) {
    message = decode(type, bytes);
    deepFreeze(message);
    if (cache.byContent.size >= CACHE_SIZE) {
      const oldest = cache.byContent.keys().next().value;
      if (oldest !== undefined) cache.byContent.delete(oldest);
    }
    cache.byContent.set(id, message);
  }
  cache.byArray.set(bytes, message);
  return message;
}
