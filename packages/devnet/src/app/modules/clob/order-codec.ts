/**
 * The protobuf encodings the memclob writes for every order, by hand: an `Order`, an `OrderId` and
 * a `MatchOrders`, byte for byte what `toBinary` writes (fields in declaration order, which is
 * field-number order; proto3 scalars left out at their zero value; oneof members and present
 * messages always written). A message that carries unknown fields is left to `toBinary`, which
 * writes them after the known ones.
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

function writeOrderId(w: ProtoWriter, id: clob.OrderId): void {
  const sub = id.subaccountId;
  if (sub !== undefined) w.message(1, (s) => s.string(1, sub.owner).uint32(2, sub.number));
  if (id.clientId !== 0) w.fixed32(2, id.clientId);
  w.uint32(3, id.orderFlags).uint32(4, id.clobPairId);
}

/** An order id field: written by hand, or by `toBinary` when it carries unknown fields. */
function orderIdField(w: ProtoWriter, field: number, id: clob.OrderId): void {
  if (orderIdUnknown(id)) w.bytes(field, toBinary(clob.OrderIdSchema, id));
  else w.message(field, (m) => writeOrderId(m, id));
}

/** `toBinary(OrderIdSchema, id)`. */
export function encodeOrderId(id: clob.OrderId): Uint8Array {
  if (orderIdUnknown(id)) return toBinary(clob.OrderIdSchema, id);
  const w = new ProtoWriter();
  writeOrderId(w, id);
  return w.finish();
}

/** `toBinary(OrderSchema, order)`. */
export function encodeOrder(order: clob.Order): Uint8Array {
  const id = order.orderId;
  const twap = order.twapParameters;
  const builder = order.builderCodeParameters;
  if (
    hasUnknown(order) ||
    (id !== undefined && orderIdUnknown(id)) ||
    (twap !== undefined && hasUnknown(twap)) ||
    (builder !== undefined && hasUnknown(builder))
  )
    return toBinary(clob.OrderSchema, order);
  const w = new ProtoWriter();
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
  return w.string(14, order.orderRouterAddress).finish();
}

/**
 * `toBinary` of the `OperationRaw` that carries a match of a taker against makers
 * (`match.matchOrders`).
 */
export function encodeMatchOperation(
  takerOrderId: clob.OrderId,
  fills: ReadonlyArray<{ makerId: clob.OrderId; quantums: bigint }>,
): Uint8Array {
  const w = new ProtoWriter();
  w.message(1, (clobMatch) =>
    clobMatch.message(1, (match) => {
      orderIdField(match, 1, takerOrderId);
      for (const fill of fills)
        match.message(2, (makerFill) => orderIdField(makerFill.uint64(1, fill.quantums), 2, fill.makerId));
    }),
  );
  return w.finish();
}
