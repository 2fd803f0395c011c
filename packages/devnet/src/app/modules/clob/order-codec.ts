/**
 * The protobuf encodings the memclob writes for every order, by hand: an `Order`, an `OrderId` and
 * a `MatchOrders`, byte for byte what `toBinary` writes (fields in declaration order, which is
 * field-number order; proto3 scalars left out at their zero value; oneof members and present
 * messages always written). A message that carries unknown fields is left to `toBinary`, which
 * writes them after the known ones (spliced in as `toBinary` writes it). Each is written into
 * {@link ProtoWriter.encode}'s buffer, or into a caller's writer (the order stream's).
 */
import { toBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import { ProtoWriter, VARINT } from "../../lib/proto-writer.js";

/** Whether a message (not its fields) carries unknown fields. */
function hasUnknown(message: object): boolean {
  const unknown = (message as { $unknown?: readonly unknown[] }).$unknown;
  return unknown !== undefined && unknown.length > 0;
}

function orderIdUnknown(id: clob.OrderId): boolean {
  return hasUnknown(id) || (id.subaccountId !== undefined && hasUnknown(id.subaccountId));
}

/**
 * Writes the fields of an order id (its message body): by hand, or as `toBinary` writes them when
 * it carries unknown fields.
 */
export function writeOrderId(w: ProtoWriter, id: clob.OrderId): void {
  if (orderIdUnknown(id)) {
    w.raw(toBinary(clob.OrderIdSchema, id));
    return;
  }
  const sub = id.subaccountId;
  if (sub !== undefined) w.message(1, (s) => s.string(1, sub.owner).uint32(2, sub.number));
  if (id.clientId !== 0) w.fixed32(2, id.clientId);
  w.uint32(3, id.orderFlags).uint32(4, id.clobPairId);
}

/** `toBinary(OrderIdSchema, id)`. */
export function encodeOrderId(id: clob.OrderId): Uint8Array {
  return ProtoWriter.encode((w) => writeOrderId(w, id));
}

/**
 * Writes the fields of an order (its message body): by hand, or as `toBinary` writes them when it
 * carries unknown fields.
 */
export function writeOrder(w: ProtoWriter, order: clob.Order): void {
  const id = order.orderId;
  const twap = order.twapParameters;
  const builder = order.builderCodeParameters;
  if (
    hasUnknown(order) ||
    (id !== undefined && orderIdUnknown(id)) ||
    (twap !== undefined && hasUnknown(twap)) ||
    (builder !== undefined && hasUnknown(builder))
  ) {
    w.raw(toBinary(clob.OrderSchema, order));
    return;
  }
  if (id !== undefined) w.message(1, (m) => writeOrderId(m, id));
  w.enumField(2, order.side).uint64(3, order.quantums).uint64(4, order.subticks);
  const gt = order.goodTilOneof;
  if (gt.case === "goodTilBlock") w.tag(5, VARINT).varint(gt.value >>> 0);
  else if (gt.case === "goodTilBlockTime") w.fixed32(6, gt.value);
  w.enumField(7, order.timeInForce);
  if (order.reduceOnly) w.tag(8, VARINT).varint(1);
  w.uint32(9, order.clientMetadata)
    .enumField(10, order.conditionType)
    .uint64(11, order.conditionalOrderTriggerSubticks);
  if (twap !== undefined)
    w.message(12, (t) => t.uint32(1, twap.duration).uint32(2, twap.interval).uint32(3, twap.priceTolerance));
  if (builder !== undefined)
    w.message(13, (b) => b.string(1, builder.builderAddress).uint32(2, builder.feePpm));
  w.string(14, order.orderRouterAddress);
}

/** `toBinary(OrderSchema, order)`. */
export function encodeOrder(order: clob.Order): Uint8Array {
  return ProtoWriter.encode((w) => writeOrder(w, order));
}

/**
 * `toBinary` of the `OperationRaw` that carries a match of a taker against makers
 * (`match.matchOrders`).
 */
export function encodeMatchOperation(
  takerOrderId: clob.OrderId,
  fills: ReadonlyArray<{ makerId: clob.OrderId; quantums: bigint }>,
): Uint8Array {
  return ProtoWriter.encode((w) =>
    w.message(1, (clobMatch) =>
      clobMatch.message(1, (match) => {
        match.message(1, (m) => writeOrderId(m, takerOrderId));
        for (const fill of fills)
          match.message(2, (makerFill) =>
            makerFill.uint64(1, fill.quantums).message(2, (m) => writeOrderId(m, fill.makerId)),
          );
      }),
    ),
  );
}
