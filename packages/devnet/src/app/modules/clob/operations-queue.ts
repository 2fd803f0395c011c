/**
 * The proposer's operations queue (chain-protocol.md 1.11, point 3). The memclob appends to it as
 * it matches and removes orders (memclob keys `ops/<n>`, so a failed CheckTx leaves nothing);
 * {@link takeOperations} empties it into the `MsgProposedOperations` at the head of the next block,
 * whose delivery is `operations.ts`.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import type { KvStore } from "../../kernel/store.js";
import { decodeU64, encodeU64 } from "../../lib/codec.js";
import { keys } from "./state.js";

function append(store: KvStore, operation: clob.OperationRaw["operation"]): void {
  const counter = store.get(keys.operationCounter);
  const n = counter === undefined ? 0n : decodeU64(counter);
  store.set(keys.operationCounter, encodeU64(n + 1n));
  store.set(
    keys.operation(n),
    toBinary(clob.OperationRawSchema, create(clob.OperationRawSchema, { operation })),
  );
}

/** Queues a short-term order's signed placement, once per block (a match needs it before). */
export function queuePlacement(store: KvStore, key: string, txBytes: Uint8Array | undefined): void {
  if (txBytes === undefined || store.has(keys.queuedPlacement(key))) return;
  store.set(keys.queuedPlacement(key), new Uint8Array(0));
  append(store, { case: "shortTermOrderPlacement", value: txBytes });
}

/** Queues a match of a taker against makers. */
export function queueMatch(
  store: KvStore,
  takerOrderId: clob.OrderId,
  fills: ReadonlyArray<{ makerId: clob.OrderId; quantums: bigint }>,
): void {
  append(store, {
    case: "match",
    value: create(clob.ClobMatchSchema, {
      match: {
        case: "matchOrders",
        value: create(clob.MatchOrdersSchema, {
          takerOrderId,
          fills: fills.map((f) =>
            create(clob.MakerFillSchema, { makerOrderId: f.makerId, fillAmount: f.quantums }),
          ),
        }),
      },
    }),
  });
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

/** Empties the queue into the message the next block starts with. */
export function takeOperations(store: KvStore): clob.MsgProposedOperations {
  const taken = [...store.entries(keys.operationsPrefix)];
  for (const [key] of taken) store.delete(key);
  for (const [key] of [...store.entries(keys.queuedPlacementPrefix)]) store.delete(key);
  store.delete(keys.operationCounter);
  return create(clob.MsgProposedOperationsSchema, {
    operationsQueue: taken.map(([, value]) => fromBinary(clob.OperationRawSchema, value)),
  });
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
