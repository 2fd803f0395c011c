/**
 * The protobuf encodings the memclob writes for every order, by hand: an `Order`, an `OrderId` and
 * a `MatchOrders`, byte for byte what `toBinary` writes (fields in declaration order, which is
 * field-number order; proto3 scalars left out at their zero value; oneof members and present
 * messages always written). A message that carries unknown fields is left to `toBinary`, which
 * writes them after the known ones.
 */
import { toBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import { utf8 } from "../../lib/codec.js";

/** Wire types. */
const VARINT = 0;
const LEN = 2;
const FIXED32 = 5;

/** A growing buffer of protobuf fields. */
class ProtoWriter {
  private buffer = new Uint8Array(128);
  private length = 0;

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }

  /** An unsigned varint of a safe integer (0 .. 2^53). */
  varint(value: number): this {
    this.reserve(10);
    let v = value;
    while (v > 0x7f) {
      this.buffer[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buffer[this.length++] = v;
    return this;
  }

  /** A varint of a 64-bit value (a negative one as its two's complement, in ten bytes). */
  varint64(value: bigint): this {
    let v = BigInt.asUintN(64, value);
    if (v <= 0xffffffffn) return this.varint(Number(v));
    this.reserve(10);
    while (v > 0x7fn) {
      this.buffer[this.length++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buffer[this.length++] = Number(v);
    return this;
  }

  tag(field: number, wireType: number): this {
    return this.varint(field * 8 + wireType);
  }

  /** A uint32 field, left out at 0. */
  uint32(field: number, value: number): this {
    return value === 0 ? this : this.tag(field, VARINT).varint(value >>> 0);
  }

  /** A uint64 field, left out at 0. */
  uint64(field: number, value: bigint): this {
    return value === 0n ? this : this.tag(field, VARINT).varint64(value);
  }

  /** An enum (int32) field, left out at 0; a negative value takes ten bytes, as int32 does. */
  enumField(field: number, value: number): this {
    if (value === 0) return this;
    this.tag(field, VARINT);
    return value > 0 ? this.varint(value) : this.varint64(BigInt(value));
  }

  /** A fixed32 value (little-endian), with its tag. */
  fixed32(field: number, value: number): this {
    this.tag(field, FIXED32);
    this.reserve(4);
    const v = value >>> 0;
    this.buffer[this.length++] = v & 0xff;
    this.buffer[this.length++] = (v >>> 8) & 0xff;
    this.buffer[this.length++] = (v >>> 16) & 0xff;
    this.buffer[this.length++] = v >>> 24;
    return this;
  }

  /** Length-prefixed bytes, with their tag. */
  bytes(field: number, value: Uint8Array): this {
    this.tag(field, LEN).varint(value.length);
    this.reserve(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
    return this;
  }

  /** A string field, left out when empty. */
  string(field: number, value: string): this {
    return value === "" ? this : this.bytes(field, utf8(value));
  }

  finish(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

/** Whether a message (not its fields) carries unknown fields. */
function hasUnknown(message: object): boolean {
  const unknown = (message as { $unknown?: readonly unknown[] }).$unknown;
  return unknown !== undefined && unknown.length > 0;
}

function orderIdUnknown(id: clob.OrderId): boolean {
  return hasUnknown(id) || (id.subaccountId !== undefined && hasUnknown(id.subaccountId));
}

function writeOrderId(id: clob.OrderId): Uint8Array {
  const w = new ProtoWriter();
  const sub = id.subaccountId;
  if (sub !== undefined) w.bytes(1, new ProtoWriter().string(1, sub.owner).uint32(2, sub.number).finish());
  if (id.clientId !== 0) w.fixed32(2, id.clientId);
  return w.uint32(3, id.orderFlags).uint32(4, id.clobPairId).finish();
}

/** `toBinary(OrderIdSchema, id)`. */
export function encodeOrderId(id: clob.OrderId): Uint8Array {
  return orderIdUnknown(id) ? toBinary(clob.OrderIdSchema, id) : writeOrderId(id);
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
  if (id !== undefined) w.bytes(1, writeOrderId(id));
  w.enumField(2, order.side).uint64(3, order.quantums).uint64(4, order.subticks);
  const gt = order.goodTilOneof;
  if (gt.case === "goodTilBlock") w.tag(5, VARINT).varint(gt.value >>> 0);
  else if (gt.case === "goodTilBlockTime") w.fixed32(6, gt.value);
  w.enumField(7, order.timeInForce);
  if (order.reduceOnly) w.tag(8, VARINT).varint(1);
  w.uint32(9, order.clientMetadata)
    .enumField(10, order.conditionType)
    .uint64(11, order.conditionalOrderTriggerSubticks);
  if (twap !== undefined) {
    const t = new ProtoWriter()
      .uint32(1, twap.duration)
      .uint32(2, twap.interval)
      .uint32(3, twap.priceTolerance);
    w.bytes(12, t.finish());
  }
  if (builder !== undefined)
    w.bytes(13, new ProtoWriter().string(1, builder.builderAddress).uint32(2, builder.feePpm).finish());
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
  const match = new ProtoWriter().bytes(1, encodeOrderId(takerOrderId));
  for (const fill of fills) {
    const makerFill = new ProtoWriter().uint64(1, fill.quantums).bytes(2, encodeOrderId(fill.makerId));
    match.bytes(2, makerFill.finish());
  }
  const clobMatch = new ProtoWriter().bytes(1, match.finish()).finish();
  return new ProtoWriter().bytes(1, clobMatch).finish();
}
