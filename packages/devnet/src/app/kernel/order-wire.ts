/**
 * A direct decoder of the clob's order messages (`MsgPlaceOrder`, `MsgCancelOrder`,
 * `MsgBatchCancel`) for the shapes clients send: known fields of the right wire type, each singular
 * field and oneof at most once, ASCII strings, varints no longer than their type needs. For those
 * it returns exactly what protobuf-es's `fromBinary` returns (the same fields, values and key
 * order: a message field's key comes after the zero fields, where protobuf-es adds it) without its
 * reflection; for anything else it returns undefined, and the caller decodes with protobuf-es,
 * whose result or error stands.
 */
import type { Message } from "@bufbuild/protobuf";
import type { clob, subaccounts } from "@perpx/proto";
import { Cursor, I32, LEN, tag, VARINT } from "./wire-cursor.js";

type Order = clob.Order;
type OrderId = clob.OrderId;
type OrderBatch = clob.OrderBatch;
type SubaccountId = subaccounts.SubaccountId;
type TwapParameters = clob.TwapParameters;
type BuilderCodeParameters = clob.BuilderCodeParameters;

function readSubaccountId(c: Cursor, end: number): SubaccountId {
  const id: SubaccountId = { $typeName: "perpx.subaccounts.v1.SubaccountId", owner: "", number: 0 };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN):
        seen = c.once(seen, 1);
        id.owner = c.ascii(end);
        break;
      case tag(2, VARINT):
        seen = c.once(seen, 2);
        id.number = c.uint32();
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return id;
}

/** An `OrderId` within `end` (see the module comment), also read by `operations-wire.ts`. */
export function readOrderId(c: Cursor, end: number): OrderId {
  const id: OrderId = { $typeName: "perpx.clob.v1.OrderId", clientId: 0, orderFlags: 0, clobPairId: 0 };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN): {
        seen = c.once(seen, 1);
        const stop = c.span(end);
        if (stop >= 0) id.subaccountId = readSubaccountId(c, stop);
        break;
      }
      case tag(2, I32):
        seen = c.once(seen, 2);
        id.clientId = c.fixed32();
        break;
      case tag(3, VARINT):
        seen = c.once(seen, 4);
        id.orderFlags = c.uint32();
        break;
      case tag(4, VARINT):
        seen = c.once(seen, 8);
        id.clobPairId = c.uint32();
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return id;
}

function readTwap(c: Cursor, end: number): TwapParameters {
  const twap: TwapParameters = {
    $typeName: "perpx.clob.v1.TwapParameters",
    duration: 0,
    interval: 0,
    priceTolerance: 0,
  };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, VARINT):
        seen = c.once(seen, 1);
        twap.duration = c.uint32();
        break;
      case tag(2, VARINT):
        seen = c.once(seen, 2);
        twap.interval = c.uint32();
        break;
      case tag(3, VARINT):
        seen = c.once(seen, 4);
        twap.priceTolerance = c.uint32();
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return twap;
}

function readBuilderCode(c: Cursor, end: number): BuilderCodeParameters {
  const builder: BuilderCodeParameters = {
    $typeName: "perpx.clob.v1.BuilderCodeParameters",
    builderAddress: "",
    feePpm: 0,
  };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN):
        seen = c.once(seen, 1);
        builder.builderAddress = c.ascii(end);
        break;
      case tag(2, VARINT):
        seen = c.once(seen, 2);
        builder.feePpm = c.uint32();
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return builder;
}

/** Reads one field of an `Order`; returns the new `seen` (bits by field number). */
function orderField(c: Cursor, end: number, order: Order, seen: number): number {
  const t = c.small();
  const no = t >>> 3;
  // Field 6 shares its bit with field 5: one member of the good-til oneof.
  const next = no >= 1 && no <= 14 ? c.once(seen, 1 << (no === 6 ? 5 : no)) : seen;
  switch (t) {
    case tag(1, LEN): {
      const stop = c.span(end);
      if (stop >= 0) order.orderId = readOrderId(c, stop);
      break;
    }
    case tag(2, VARINT):
      order.side = c.uint32() | 0;
      break;
    case tag(3, VARINT):
      order.quantums = c.uint64();
      break;
    case tag(4, VARINT):
      order.subticks = c.uint64();
      break;
    case tag(5, VARINT):
      order.goodTilOneof = { case: "goodTilBlock", value: c.uint32() };
      break;
    case tag(6, I32):
      order.goodTilOneof = { case: "goodTilBlockTime", value: c.fixed32() };
      break;
    case tag(7, VARINT):
      order.timeInForce = c.uint32() | 0;
      break;
    case tag(8, VARINT):
      order.reduceOnly = c.uint32() !== 0;
      break;
    case tag(9, VARINT):
      order.clientMetadata = c.uint32();
      break;
    case tag(10, VARINT):
      order.conditionType = c.uint32() | 0;
      break;
    case tag(11, VARINT):
      order.conditionalOrderTriggerSubticks = c.uint64();
      break;
    case tag(12, LEN): {
      const stop = c.span(end);
      if (stop >= 0) order.twapParameters = readTwap(c, stop);
      break;
    }
    case tag(13, LEN): {
      const stop = c.span(end);
      if (stop >= 0) order.builderCodeParameters = readBuilderCode(c, stop);
      break;
    }
    case tag(14, LEN):
      order.orderRouterAddress = c.ascii(end);
      break;
    default:
      c.ok = false;
  }
  return next;
}

function readOrder(c: Cursor, end: number): Order {
  const order: Order = {
    $typeName: "perpx.clob.v1.Order",
    side: 0,
    quantums: 0n,
    subticks: 0n,
    goodTilOneof: { case: undefined },
    timeInForce: 0,
    reduceOnly: false,
    clientMetadata: 0,
    conditionType: 0,
    conditionalOrderTriggerSubticks: 0n,
    orderRouterAddress: "",
  };
  let seen = 0;
  while (c.ok && c.pos < end) seen = orderField(c, end, order, seen);
  c.close(end);
  return order;
}

function readPlaceOrder(bytes: Uint8Array): clob.MsgPlaceOrder | undefined {
  const c = new Cursor(bytes, 0);
  const end = bytes.length;
  const msg: clob.MsgPlaceOrder = { $typeName: "perpx.clob.v1.MsgPlaceOrder" };
  let seen = 0;
  while (c.ok && c.pos < end) {
    if (c.small() !== tag(1, LEN)) {
      c.ok = false;
      break;
    }
    seen = c.once(seen, 1);
    const stop = c.span(end);
    if (stop >= 0) msg.order = readOrder(c, stop);
  }
  c.close(end);
  return c.ok ? msg : undefined;
}

function readCancelOrder(bytes: Uint8Array): clob.MsgCancelOrder | undefined {
  const c = new Cursor(bytes, 0);
  const end = bytes.length;
  const msg: clob.MsgCancelOrder = {
    $typeName: "perpx.clob.v1.MsgCancelOrder",
    goodTilOneof: { case: undefined },
  };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN): {
        seen = c.once(seen, 1);
        const stop = c.span(end);
        if (stop >= 0) msg.orderId = readOrderId(c, stop);
        break;
      }
      case tag(2, VARINT):
        seen = c.once(seen, 2);
        msg.goodTilOneof = { case: "goodTilBlock", value: c.uint32() };
        break;
      case tag(3, I32):
        seen = c.once(seen, 2);
        msg.goodTilOneof = { case: "goodTilBlockTime", value: c.fixed32() };
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return c.ok ? msg : undefined;
}

function readOrderBatch(c: Cursor, end: number): OrderBatch {
  const batch: OrderBatch = { $typeName: "perpx.clob.v1.OrderBatch", clobPairId: 0, clientIds: [] };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, VARINT):
        seen = c.once(seen, 1);
        batch.clobPairId = c.uint32();
        break;
      case tag(2, VARINT):
        batch.clientIds.push(c.uint32());
        break;
      case tag(2, LEN): {
        const stop = c.span(end);
        while (c.ok && c.pos < stop) batch.clientIds.push(c.uint32());
        if (c.pos !== stop) c.ok = false;
        break;
      }
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return batch;
}

function readBatchCancel(bytes: Uint8Array): clob.MsgBatchCancel | undefined {
  const c = new Cursor(bytes, 0);
  const end = bytes.length;
  const msg: clob.MsgBatchCancel = {
    $typeName: "perpx.clob.v1.MsgBatchCancel",
    shortTermCancels: [],
    goodTilBlock: 0,
  };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN): {
        seen = c.once(seen, 1);
        const stop = c.span(end);
        if (stop >= 0) msg.subaccountId = readSubaccountId(c, stop);
        break;
      }
      case tag(2, LEN): {
        const stop = c.span(end);
        if (stop >= 0) msg.shortTermCancels.push(readOrderBatch(c, stop));
        break;
      }
      case tag(3, VARINT):
        seen = c.once(seen, 4);
        msg.goodTilBlock = c.uint32();
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return c.ok ? msg : undefined;
}

/**
 * The direct readers by message type name: each returns the message, or undefined when the bytes
 * are not a shape it takes (protobuf-es decodes those).
 */
export const ORDER_MSG_READERS: ReadonlyMap<string, (bytes: Uint8Array) => Message | undefined> = new Map<
  string,
  (bytes: Uint8Array) => Message | undefined
>([
  ["perpx.clob.v1.MsgPlaceOrder", readPlaceOrder],
  ["perpx.clob.v1.MsgCancelOrder", readCancelOrder],
  ["perpx.clob.v1.MsgBatchCancel", readBatchCancel],
]);
