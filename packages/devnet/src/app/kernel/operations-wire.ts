/**
 * A direct decoder of the proposer's `MsgProposedOperations` for the operations the memclob queues
 * at CheckTx: short-term placements and matches of orders (`match_orders`). For those, with the
 * same rules as `order-wire.ts` (known fields of the right wire type, each singular field and
 * oneof at most once), it returns exactly what protobuf-es's `fromBinary` returns, without its
 * reflection; for anything else (a liquidation, a deleveraging, a removal, unknown fields) it
 * returns undefined, and the caller decodes the message with protobuf-es.
 */
import type { clob } from "@perpx/proto";
import { readOrderId } from "./order-wire.js";
import { Cursor, LEN, tag, VARINT } from "./wire-cursor.js";

function readMakerFill(c: Cursor, end: number): clob.MakerFill {
  const fill: clob.MakerFill = { $typeName: "perpx.clob.v1.MakerFill", fillAmount: 0n };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, VARINT):
        seen = c.once(seen, 1);
        fill.fillAmount = c.uint64();
        break;
      case tag(2, LEN): {
        seen = c.once(seen, 2);
        const stop = c.span(end);
        if (stop >= 0) fill.makerOrderId = readOrderId(c, stop);
        break;
      }
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return fill;
}

function readMatchOrders(c: Cursor, end: number): clob.MatchOrders {
  const match: clob.MatchOrders = { $typeName: "perpx.clob.v1.MatchOrders", fills: [] };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN): {
        seen = c.once(seen, 1);
        const stop = c.span(end);
        if (stop >= 0) match.takerOrderId = readOrderId(c, stop);
        break;
      }
      case tag(2, LEN): {
        const stop = c.span(end);
        if (stop >= 0) match.fills.push(readMakerFill(c, stop));
        break;
      }
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return match;
}

function readClobMatch(c: Cursor, end: number): clob.ClobMatch {
  const match: clob.ClobMatch = { $typeName: "perpx.clob.v1.ClobMatch", match: { case: undefined } };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN): {
        seen = c.once(seen, 1);
        const stop = c.span(end);
        if (stop >= 0) match.match = { case: "matchOrders", value: readMatchOrders(c, stop) };
        break;
      }
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return match;
}

function readOperation(c: Cursor, end: number): clob.OperationRaw {
  const op: clob.OperationRaw = { $typeName: "perpx.clob.v1.OperationRaw", operation: { case: undefined } };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN): {
        seen = c.once(seen, 1);
        const stop = c.span(end);
        if (stop >= 0) op.operation = { case: "match", value: readClobMatch(c, stop) };
        break;
      }
      case tag(2, LEN):
        seen = c.once(seen, 1);
        op.operation = { case: "shortTermOrderPlacement", value: c.bytes(end) };
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return op;
}

/**
 * `fromBinary(MsgProposedOperationsSchema, bytes)` for the operations the memclob queues, or
 * undefined for bytes left to protobuf-es (see the module comment).
 */
export function readProposedOperations(bytes: Uint8Array): clob.MsgProposedOperations | undefined {
  const c = new Cursor(bytes, 0);
  const msg: clob.MsgProposedOperations = {
    $typeName: "perpx.clob.v1.MsgProposedOperations",
    operationsQueue: [],
  };
  const end = bytes.length;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN): {
        const stop = c.span(end);
        if (stop >= 0) msg.operationsQueue.push(readOperation(c, stop));
        break;
      }
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return c.ok ? msg : undefined;
}
