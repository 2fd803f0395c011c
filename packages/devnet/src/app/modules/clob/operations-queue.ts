/**
 * The proposer's operations queue (chain-protocol.md 1.11, point 3). The memclob appends to it as
 * it matches and removes orders (memclob keys `ops/<n>`, so a failed CheckTx leaves nothing);
 * {@link takeOperations} empties it into the `MsgProposedOperations` at the head of the next block,
 * whose delivery is `operations.ts`.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { clob } from "@perpx/proto";
import type { KvStore } from "../../kernel/store.js";
import { BinaryWriter, decodeU64, encodeU64, putVarint, varintLength } from "../../lib/codec.js";
import { PROPOSED_OPERATIONS_URL } from "../msg-type-urls.js";
import { encodeMatchOperation } from "./order-codec.js";
import { keys } from "./state.js";

/** The tag of `OperationRaw.short_term_order_placement` (field 2, length-delimited). */
const PLACEMENT_TAG = (2 << 3) | 2;
/** The tag of `MsgProposedOperations.operations_queue` (field 1, length-delimited). */
const QUEUE_TAG = (1 << 3) | 2;

/** Appends one encoded `OperationRaw` to the queue. */
function appendEncoded(store: KvStore, operation: Uint8Array): void {
  const counter = store.get(keys.operationCounter);
  const n = counter === undefined ? 0n : decodeU64(counter);
  store.set(keys.operationCounter, encodeU64(n + 1n));
  store.set(keys.operation(n), operation);
}

function append(store: KvStore, operation: clob.OperationRaw["operation"]): void {
  appendEncoded(store, toBinary(clob.OperationRawSchema, create(clob.OperationRawSchema, { operation })));
}

/**
 * The `OperationRaw` of a short-term placement, as `toBinary` writes it: the placement field's
 * tag, then the tx bytes, length-prefixed.
 */
export function encodePlacementOperation(txBytes: Uint8Array): Uint8Array {
  const prefix = 1 + varintLength(txBytes.length); // the tag, then the length
  const out = new Uint8Array(prefix + txBytes.length);
  out[0] = PLACEMENT_TAG;
  putVarint(out, 1, txBytes.length);
  out.set(txBytes, prefix);
  return out;
}

/**
 * `MsgProposedOperations` of encoded `OperationRaw`s, as `toBinary` writes it: each operation
 * behind the queue field's tag, length-prefixed, in order.
 */
export function encodeProposedOperations(operations: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const operation of operations) size += operation.length + 8;
  const w = new BinaryWriter(size);
  for (const operation of operations) w.uvarint(QUEUE_TAG).bytes(operation);
  return w.finish();
}

/** Queues a short-term order's signed placement, once per block (a match needs it before). */
export function queuePlacement(store: KvStore, key: string, txBytes: Uint8Array | undefined): void {
  if (txBytes === undefined || store.has(keys.queuedPlacement(key))) return;
  store.set(keys.queuedPlacement(key), new Uint8Array(0));
  appendEncoded(store, encodePlacementOperation(txBytes));
}

/** Queues a match of a taker against makers. */
export function queueMatch(
  store: KvStore,
  takerOrderId: clob.OrderId,
  fills: ReadonlyArray<{ makerId: clob.OrderId; quantums: bigint }>,
): void {
  appendEncoded(store, encodeMatchOperation(takerOrderId, fills));
}

/** Queues the removal of a stateful order from state. */
export function queueRemoval(
  store: KvStore,
  orderId: clob.OrderId | undefined,
  reason: clob.OrderRemoval_RemovalReason,
): void {
  append(store, {
    case: "orderRemoval",
    value: create(clob.OrderRemovalSchema, { orderId, removalReason: reason }),
  });
}

/**
 * Empties the queue into the message the next block starts with, packed as an `Any` (the stored
 * operations are already encoded: they are spliced, not decoded and encoded again).
 */
export function takeOperations(store: KvStore): Any {
  const taken = [...store.entries(keys.operationsPrefix)];
  for (const [key] of taken) store.delete(key);
  for (const [key] of [...store.entries(keys.queuedPlacementPrefix)]) store.delete(key);
  store.delete(keys.operationCounter);
  return {
    $typeName: "google.protobuf.Any",
    typeUrl: PROPOSED_OPERATIONS_URL,
    value: encodeProposedOperations(taken.map(([, value]) => value)),
  };
}

/** Queues a liquidation order's fills against makers (`MatchPerpetualLiquidation`). */
export function queueLiquidationMatch(
  store: KvStore,
  liquidation: Omit<clob.MatchPerpetualLiquidation, "$typeName" | "fills">,
  fills: ReadonlyArray<{ makerId: clob.OrderId; quantums: bigint }>,
): void {
  append(store, {
    case: "match",
    value: create(clob.ClobMatchSchema, {
      match: {
        case: "matchPerpetualLiquidation",
        value: create(clob.MatchPerpetualLiquidationSchema, {
          ...liquidation,
          fills: fills.map((f) =>
            create(clob.MakerFillSchema, { makerOrderId: f.makerId, fillAmount: f.quantums }),
          ),
        }),
      },
    }),
  });
}

/** Queues a deleveraging (`MatchPerpetualDeleveraging`; no fills marks a negative-equity subaccount). */
export function queueDeleveraging(
  store: KvStore,
  deleveraging: Omit<clob.MatchPerpetualDeleveraging, "$typeName">,
): void {
  append(store, {
    case: "match",
    value: create(clob.ClobMatchSchema, {
      match: {
        case: "matchPerpetualDeleveraging",
        value: create(clob.MatchPerpetualDeleveragingSchema, deleveraging),
      },
    }),
  });
}
