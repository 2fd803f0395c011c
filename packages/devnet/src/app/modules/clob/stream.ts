/**
 * The off-chain order stream (chain-protocol.md 1.11, point 5): the memclob writes each message
 * into its slice (`stream/<n>`, a memclob key), so a CheckTx or a block step that fails drops its
 * messages with its other writes; the app hands the messages of every successful step to its
 * listeners with {@link drainOrderStream}.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import type { OrderRemovalReason, OrderStreamMessage } from "../../contract.js";
import type { KvStore } from "../../kernel/store.js";
import { BinaryReader, decodeU64, encodeU64, utf8 } from "../../lib/codec.js";
import { ProtoWriter } from "../../lib/proto-writer.js";
import { writeOrder, writeOrderId } from "./order-codec.js";
import { keys } from "./state.js";

/**
 * The message each array of bytes written to the stream was made from: a drain that finds that very
 * array in the store (branches hand their bytes over as they are, see `Branchable`, and bytes are
 * never changed in place) takes the message as it was made instead of decoding it again (the bytes
 * stay in the store, and cost their gas, all the same). Every step that writes to the stream ends
 * with the app draining it (a CheckTx, a block), so a drain forgets them all; other bytes (a copy,
 * or an array that is not here) are decoded. A drained message is frozen, orders and ids inside
 * included: they are the chain's own objects (a short-term order's is the one its block delivers).
 */
const written = new Map<Uint8Array, OrderStreamMessage>();

const KINDS = ["place", "remove", "update", "replace"] as const;

/** The UTF-8 bytes of each removal reason written so far (a handful of ASCII names). */
const REASON_BYTES = new Map<string, Uint8Array>();

function reasonBytes(reason: string): Uint8Array {
  let bytes = REASON_BYTES.get(reason);
  if (bytes === undefined) {
    bytes = utf8(reason);
    REASON_BYTES.set(reason, bytes);
  }
  return bytes;
}

/**
 * The bytes of a message: its kind (a varint), each part length-prefixed (an order, an order id, a
 * removal reason), then an update's fill amount (a varint): what a `BinaryWriter` writes for
 * `uvarint(kind)`, `bytes(part)`..., `uvarint(totalFilled)`, in one array of the exact size.
 */
function encode(message: OrderStreamMessage): Uint8Array {
  return ProtoWriter.encode((w) => {
    switch (message.kind) {
      case "place":
        w.varint(0).lengthPrefixed((m) => writeOrder(m, message.order));
        return;
      case "remove": {
        const reason = reasonBytes(message.reason);
        w.varint(1)
          .lengthPrefixed((m) => writeOrderId(m, message.orderId))
          .varint(reason.length)
          .raw(reason);
        return;
      }
      case "update":
        w.varint(2)
          .lengthPrefixed((m) => writeOrderId(m, message.orderId))
          .varint64(message.totalFilled);
        return;
      case "replace":
        w.varint(3)
          .lengthPrefixed((m) => writeOrder(m, message.oldOrder))
          .lengthPrefixed((m) => writeOrder(m, message.order));
    }
  });
}

function decode(bytes: Uint8Array): OrderStreamMessage {
  const r = new BinaryReader(bytes);
  const kind = KINDS[r.uint()];
  switch (kind) {
    case "place":
      return { kind, order: fromBinary(clob.OrderSchema, r.bytes()) };
    case "remove":
      return {
        kind,
        orderId: fromBinary(clob.OrderIdSchema, r.bytes()),
        reason: r.string() as OrderRemovalReason,
      };
    case "update":
      return { kind, orderId: fromBinary(clob.OrderIdSchema, r.bytes()), totalFilled: r.uvarint() };
    default:
      return {
        kind: "replace",
        oldOrder: fromBinary(clob.OrderSchema, r.bytes()),
        order: fromBinary(clob.OrderSchema, r.bytes()),
      };
  }
}

/** True for an object that {@link freezeDeep} freezes: not bytes, not frozen already. */
function freezable(value: unknown): value is object {
  return typeof value === "object" && value !== null && !ArrayBuffer.isView(value) && !Object.isFrozen(value);
}

/** Freezes an object and every object inside it (bytes excepted). */
function freezeDeep(value: object): void {
  Object.freeze(value);
  // Own enumerable fields only, without the array `Object.values` would allocate per object; a
  // field that holds no object to freeze (most of them: numbers, strings) costs no call.
  for (const field in value) {
    if (!Object.hasOwn(value, field)) continue;
    const inner = (value as Record<string, unknown>)[field];
    if (freezable(inner)) freezeDeep(inner);
  }
}

/** Appends a message to the stream (in the store branch of the step that makes it). */
export function emitOrderStream(store: KvStore, message: OrderStreamMessage): void {
  const counter = store.get(keys.streamCounter);
  const n = counter === undefined ? 0n : decodeU64(counter);
  store.set(keys.streamCounter, encodeU64(n + 1n));
  const key = keys.stream(n);
  const bytes = encode(message);
  store.set(key, bytes);
  written.set(bytes, message);
}

/**
 * Takes every message written so far out of the clob slice, in order (frozen): `store` is the slice,
 * or the whole state when `slice` is the slice's prefix (`"clob/"`; the store's own keys are then
 * read and deleted as they are, with no slice view between). The counter stays: the next message
 * takes the next number, so no key of the stream is ever written again after its drain (a `Map`
 * keeps a deleted key's slot until it rehashes, and a miss on a key set and deleted at every step
 * walks all of them).
 */
export function drainOrderStream(store: KvStore, slice = ""): OrderStreamMessage[] {
  const taken = [...store.entries(slice + keys.streamPrefix)];
  for (const [key] of taken) store.delete(key);
  const messages = taken.map(([, value]) => {
    const message = written.get(value) ?? decode(value);
    if (freezable(message)) freezeDeep(message);
    return message;
  });
  written.clear();
  return messages;
}
