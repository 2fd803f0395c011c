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

/** The bytes of a varint of `value`. */
function varintSize(value: number): number {
  let size = 1;
  for (let v = value; v > 0x7f; v = Math.floor(v / 0x80)) size++;
  return size;
}

/** A growing buffer of protobuf fields. */
class ProtoWriter {
  private buffer = new Uint8Array(96);
  private length = 0;

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }

  /** An unsigned varint of a safe integer (0 .. 2^53), at `at` (the buffer has room). */
  private varintAt(at: number, value: number): void {
    let i = at;
    let v = value;
    while (v > 0x7f) {
      this.buffer[i++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buffer[i] = v;
  }

  /** An unsigned varint of a safe integer (0 .. 2^53). */
  varint(value: number): this {
    this.reserve(10);
    this.varintAt(this.length, value);
    this.length += varintSize(value);
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

  /** A string field, left out when empty (ASCII copied as is, anything else through UTF-8). */
  string(field: number, value: string): this {
    if (value === "") return this;
    for (let i = 0; i < value.length; i++)
      if (value.charCodeAt(i) > 0x7f) return this.bytes(field, utf8(value));
    this.tag(field, LEN).varint(value.length);
    this.reserve(value.length);
    for (let i = 0; i < value.length; i++) this.buffer[this.length++] = value.charCodeAt(i);
    return this;
  }

  /** A message field: the fields `body` writes, length-prefixed, with the field's tag. */
  message(field: number, body: (w: this) => void): this {
    this.tag(field, LEN);
    this.reserve(1);
    const at = this.length++;
    body(this);
    const size = this.length - at - 1;
    const extra = varintSize(size) - 1;
    if (extra > 0) {
      this.reserve(extra);
      this.buffer.copyWithin(at + 1 + extra, at + 1, this.length);
      this.length += extra;
    }
    this.varintAt(at, size);
    return this;
  }

  /** The bytes written (a view of the buffer, which this writer no longer changes). */
  finish(): Uint8Array {
    return this.buffer.subarray(0, this.length);
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
