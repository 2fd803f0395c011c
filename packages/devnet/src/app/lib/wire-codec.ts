/**
 * Protobuf messages made, written and read from field tables (`wire-tables.ts`, generated from the
 * descriptors) instead of protobuf-es's descriptors: the same objects `create` makes, the same bytes
 * `toBinary` writes and the same messages `fromBinary` reads, without building a descriptor. A
 * devnet start writes and reads a few dozen kinds of genesis records and its first block; building
 * their descriptors (decoding their files, booting `descriptor.proto`) cost it more than the rest of
 * its protobuf work together. Scalars go through protobuf-es's own `BinaryWriter`/`BinaryReader`, so
 * each is written, range-checked and read as `toBinary`/`fromBinary` do.
 *
 * Covered: proto3 messages with scalar, enum (open) and message fields, repeated (packed or not),
 * explicit presence (`optional`) and oneofs. The tables' generator refuses the rest (maps, groups,
 * proto2, closed enums, `jstype`, wrapper types), and the property test holds every table to
 * protobuf-es: `create`, `toBinary` and `fromBinary` of random values agree.
 */
import type { Message, MessageInitShape, UnknownField } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { ProtoDecodeError } from "@perpx/proto";

// Scalar types, numbered as protobuf-es's `ScalarType` (descriptor.proto's field types).
export const DOUBLE = 1;
export const FLOAT = 2;
export const INT64 = 3;
export const UINT64 = 4;
export const INT32 = 5;
export const FIXED64 = 6;
export const FIXED32 = 7;
export const BOOL = 8;
export const STRING = 9;
export const BYTES = 12;
export const UINT32 = 13;
export const SFIXED32 = 15;
export const SFIXED64 = 16;
export const SINT32 = 17;
export const SINT64 = 18;
/** An open enum whose zero value is 0 (written and read as an int32). */
export const ENUM = 0;

/** Flags of a table entry: a repeated field, written packed, and a field with explicit presence. */
export const LIST = 1;
export const PACKED = 2;
export const EXPLICIT = 4;

/**
 * One field as the generated tables spell it: number, local name, type (a scalar type, {@link ENUM}
 * or the table of its message), flags, and the oneof it belongs to.
 */
export type WireEntry = readonly [number, string, number | (() => WireMessage), number?, string?];

interface WireField {
  readonly no: number;
  readonly name: string;
  /** The scalar type ({@link ENUM} for an enum), or undefined for a message field. */
  readonly scalar: number | undefined;
  readonly message: (() => WireMessage) | undefined;
  readonly list: boolean;
  readonly packed: boolean;
  readonly explicit: boolean;
  readonly oneof: string | undefined;
}

/** A member in declaration order: a field, or a oneof with its fields. */
type Member =
  | { readonly kind: "field"; readonly field: WireField }
  | { readonly kind: "oneof"; readonly name: string };

/** The table of one message type (see {@link wireMessage}). */
export interface WireMessage<T extends Message = Message> {
  readonly typeName: T["$typeName"];
  /** @internal the fields in declaration order, built from the entries at first use. */
  readonly plan: () => Plan;
}

interface Plan {
  readonly members: readonly Member[];
  /** Fields by number, ascending: `toBinary`'s order. */
  readonly sorted: readonly WireField[];
  readonly byNumber: ReadonlyMap<number, WireField>;
  /** The fields of each oneof, by local name. */
  readonly oneofs: ReadonlyMap<string, readonly WireField[]>;
}

/**
 * The table of a message type, from its generated entries (in declaration order).
 *
 * @param typeName - the full protobuf name (`perpx.clob.v1.ClobPair`).
 * @param entries - the fields (see {@link WireEntry}).
 * @returns a table for {@link wireCreate}, {@link wireEncode} and {@link wireDecode}.
 * @example
 * ```ts
 * import type { Message } from "@bufbuild/protobuf";
 *
 * type Coin = Message<"cosmos.base.v1beta1.Coin"> & { denom: string; amount: string };
 * const coin = wireMessage<Coin>("cosmos.base.v1beta1.Coin", [
 *   [1, "denom", STRING],
 *   [2, "amount", STRING],
 * ]);
 * wireEncode(coin, wireCreate(coin, { denom: "usdc", amount: "1" })).length; // 9
 * ```
 */
export function wireMessage<T extends Message>(
  typeName: T["$typeName"],
  entries: readonly WireEntry[],
): WireMessage<T> {
  let plan: Plan | undefined;
  return {
    typeName,
    plan: () => {
      plan ??= planOf(entries);
      return plan;
    },
  };
}

function planOf(entries: readonly WireEntry[]): Plan {
  const members: Member[] = [];
  const oneofs = new Map<string, WireField[]>();
  const fields: WireField[] = [];
  for (const [no, name, type, flags = 0, oneof] of entries) {
    const field: WireField = {
      no,
      name,
      scalar: typeof type === "number" ? type : undefined,
      message: typeof type === "number" ? undefined : type,
      list: (flags & LIST) !== 0,
      packed: (flags & PACKED) !== 0,
      explicit: (flags & EXPLICIT) !== 0,
      oneof,
    };
    fields.push(field);
    if (oneof === undefined) members.push({ kind: "field", field });
    else {
      let group = oneofs.get(oneof);
      if (group === undefined) {
        group = [];
        oneofs.set(oneof, group);
        members.push({ kind: "oneof", name: oneof });
      }
      group.push(field);
    }
  }
  const sorted = [...fields].sort((a, b) => a.no - b.no);
  return { members, sorted, byNumber: new Map(sorted.map((f) => [f.no, f])), oneofs };
}

function isMessageOf(value: unknown, typeName: string): boolean {
  return (
    value !== null &&
    typeof value === "object" &&
    "$typeName" in value &&
    (value as { $typeName: unknown }).$typeName === typeName
  );
}

function scalarZero(type: number): unknown {
  switch (type) {
    case STRING:
      return "";
    case BOOL:
      return false;
    case BYTES:
      return new Uint8Array(0);
    case INT64:
    case UINT64:
    case FIXED64:
    case SFIXED64:
    case SINT64:
      return 0n;
    default:
      return 0;
  }
}

/** The zero message of `table`, as protobuf-es's `create` makes it. */
function zeroMessage(table: WireMessage): Record<string, unknown> {
  const message: Record<string, unknown> = { $typeName: table.typeName };
  for (const member of table.plan().members) {
    if (member.kind === "oneof") message[member.name] = { case: undefined };
    else {
      const { field } = member;
      if (field.list) message[field.name] = [];
      else if (field.scalar !== undefined && !field.explicit) message[field.name] = scalarZero(field.scalar);
    }
  }
  return message;
}

function toBytes(value: unknown): unknown {
  return Array.isArray(value) ? new Uint8Array(value) : value;
}

function initValue(field: WireField, value: unknown): unknown {
  if (field.list) {
    if (!Array.isArray(value)) return value;
    if (field.message !== undefined) return value.map((item) => toMessage(field, item));
    return field.scalar === BYTES ? value.map(toBytes) : value;
  }
  if (field.message !== undefined) return toMessage(field, value);
  return field.scalar === BYTES ? toBytes(value) : value;
}

function toMessage(field: WireField, value: unknown): unknown {
  const table = (field.message as () => WireMessage)();
  if (value !== null && typeof value === "object" && !isMessageOf(value, table.typeName)) {
    return wireCreate(table, value as Record<string, unknown>);
  }
  return value;
}

/**
 * A message of `table`'s type, as protobuf-es's `create(schema, init)` makes it: the zero message
 * with `init`'s fields set (nested inits made messages, byte arrays made `Uint8Array`s); a message of
 * the type is returned as it is.
 *
 * @param table - the message type's table.
 * @param init - the fields to set (as `create` takes them).
 * @returns the message.
 * @example
 * ```ts
 * const unit = wireCreate(cosmos_bank_v1beta1_DenomUnit, { denom: "uusdc" });
 * unit.exponent; // 0
 * unit.aliases.length; // 0
 * ```
 */
export function wireCreate<T extends Message>(
  table: WireMessage<T>,
  init?: MessageInitShape<GenMessage<T>>,
): T {
  if (isMessageOf(init, table.typeName)) return init as T;
  const message = zeroMessage(table);
  if (init === undefined) return message as T;
  const source = init as Record<string, unknown>;
  const plan = table.plan();
  for (const member of plan.members) {
    if (member.kind === "oneof") {
      const selected = source[member.name] as { case?: unknown; value?: unknown } | null | undefined;
      if (selected == null || selected.case === undefined) continue;
      const field = plan.oneofs.get(member.name)?.find((f) => f.name === selected.case);
      if (field === undefined || selected.value == null) continue;
      message[member.name] = { case: field.name, value: initValue(field, selected.value) };
      continue;
    }
    const value = source[member.field.name];
    if (value == null) continue;
    message[member.field.name] = initValue(member.field, value);
  }
  return message as T;
}

function isZero(type: number, value: unknown): boolean {
  switch (type) {
    case BOOL:
      return value === false;
    case STRING:
      return value === "";
    case BYTES:
      return value instanceof Uint8Array && value.byteLength === 0;
    case DOUBLE:
    case FLOAT:
      return Object.is(value, 0);
    default:
      // biome-ignore lint/suspicious/noDoubleEquals: 0n, 0 and "0" alike, as protobuf-es compares.
      return value == 0;
  }
}

function scalarWireType(type: number): WireType {
  switch (type) {
    case BYTES:
    case STRING:
      return WireType.LengthDelimited;
    case DOUBLE:
    case FIXED64:
    case SFIXED64:
      return WireType.Bit64;
    case FIXED32:
    case SFIXED32:
    case FLOAT:
      return WireType.Bit32;
    default:
      return WireType.Varint;
  }
}

function writeScalar(w: BinaryWriter, type: number, value: unknown): void {
  switch (type) {
    case STRING:
      w.string(value as string);
      break;
    case BOOL:
      w.bool(value as boolean);
      break;
    case DOUBLE:
      w.double(value as number);
      break;
    case FLOAT:
      w.float(value as number);
      break;
    case INT64:
      w.int64(value as bigint);
      break;
    case UINT64:
      w.uint64(value as bigint);
      break;
    case FIXED64:
      w.fixed64(value as bigint);
      break;
    case SFIXED64:
      w.sfixed64(value as bigint);
      break;
    case SINT64:
      w.sint64(value as bigint);
      break;
    case BYTES:
      w.bytes(value as Uint8Array);
      break;
    case FIXED32:
      w.fixed32(value as number);
      break;
    case SFIXED32:
      w.sfixed32(value as number);
      break;
    case UINT32:
      w.uint32(value as number);
      break;
    case SINT32:
      w.sint32(value as number);
      break;
    default:
      // INT32 and ENUM.
      w.int32(value as number);
  }
}

function writeFields(w: BinaryWriter, table: WireMessage, message: Record<string, unknown>): void {
  for (const field of table.plan().sorted) {
    let value: unknown;
    if (field.oneof !== undefined) {
      const selected = message[field.oneof] as { case: unknown; value: unknown };
      if (selected.case !== field.name) continue;
      value = selected.value;
    } else value = message[field.name];
    if (field.list) {
      const items = value as readonly unknown[];
      if (items.length === 0) continue;
      if (field.message !== undefined) {
        for (const item of items) writeMessage(w, field, item);
      } else if (field.packed) {
        w.tag(field.no, WireType.LengthDelimited).fork();
        for (const item of items) writeScalar(w, field.scalar as number, item);
        w.join();
      } else {
        for (const item of items)
          writeScalar(w.tag(field.no, scalarWireType(field.scalar as number)), field.scalar as number, item);
      }
      continue;
    }
    if (field.message !== undefined) {
      if (value !== undefined) writeMessage(w, field, value);
      continue;
    }
    const type = field.scalar as number;
    if (field.explicit || field.oneof !== undefined ? value === undefined : isZero(type, value)) continue;
    writeScalar(w.tag(field.no, scalarWireType(type)), type, value);
  }
  const unknown = message.$unknown as UnknownField[] | undefined;
  if (unknown !== undefined) for (const { no, wireType, data } of unknown) w.tag(no, wireType).raw(data);
}

function writeMessage(w: BinaryWriter, field: WireField, value: unknown): void {
  w.tag(field.no, WireType.LengthDelimited).fork();
  writeFields(w, (field.message as () => WireMessage)(), value as Record<string, unknown>);
  w.join();
}

/**
 * The bytes protobuf-es's `toBinary` writes for `message`: fields by number, each left out when
 * unset (a zero scalar, an empty list, an absent message), unknown fields last.
 *
 * @param table - the message type's table.
 * @param message - a message of that type.
 * @returns its binary encoding.
 * @example
 * ```ts
 * const unit = wireCreate(cosmos_bank_v1beta1_DenomUnit, { denom: "u", exponent: 6 });
 * [...wireEncode(cosmos_bank_v1beta1_DenomUnit, unit)]; // [10, 1, 117, 16, 6]
 * ```
 */
export function wireEncode<T extends Message>(table: WireMessage<T>, message: T): Uint8Array {
  const w = new BinaryWriter();
  writeFields(w, table, message as unknown as Record<string, unknown>);
  return w.finish();
}

function readScalar(r: BinaryReader, type: number): unknown {
  switch (type) {
    case STRING:
      // proto3 strings are checked UTF-8 (the generator refuses a string field that is not).
      return r.string(true);
    case BOOL:
      return r.bool();
    case DOUBLE:
      return r.double();
    case FLOAT:
      return r.float();
    case INT64:
      return r.int64();
    case UINT64:
      return r.uint64();
    case FIXED64:
      return r.fixed64();
    case SFIXED64:
      return r.sfixed64();
    case SINT64:
      return r.sint64();
    case BYTES:
      return r.bytes();
    case FIXED32:
      return r.fixed32();
    case SFIXED32:
      return r.sfixed32();
    case UINT32:
      return r.uint32();
    case SINT32:
      return r.sint32();
    default:
      return r.int32();
  }
}

/** Protobuf-es's default limit of nested messages. */
const RECURSION_LIMIT = 100;

function readFields(
  r: BinaryReader,
  table: WireMessage,
  message: Record<string, unknown>,
  end: number,
  depth: number,
): void {
  if (depth > RECURSION_LIMIT) {
    throw new ProtoDecodeError(table.typeName, `maximum recursion depth of ${RECURSION_LIMIT} reached`);
  }
  const { byNumber } = table.plan();
  let unknown = message.$unknown as UnknownField[] | undefined;
  while (r.pos < end) {
    const [no, wireType] = r.tag();
    const field = byNumber.get(no);
    if (field === undefined) {
      unknown ??= [];
      unknown.push({ no, wireType, data: r.skip(wireType, no, RECURSION_LIMIT - depth) });
      continue;
    }
    if (field.message !== undefined) {
      const nested = (field.message as () => WireMessage)();
      if (field.list) {
        const item = zeroMessage(nested);
        readFields(r, nested, item, readLength(r), depth + 1);
        (message[field.name] as unknown[]).push(item);
        continue;
      }
      const current = field.oneof === undefined ? message[field.name] : oneofValue(message, field);
      const target = (current as Record<string, unknown> | undefined) ?? zeroMessage(nested);
      readFields(r, nested, target, readLength(r), depth + 1);
      set(message, field, target);
      continue;
    }
    const type = field.scalar as number;
    if (!field.list) {
      set(message, field, readScalar(r, type));
      continue;
    }
    const items = message[field.name] as unknown[];
    if (wireType === WireType.LengthDelimited && type !== STRING && type !== BYTES) {
      const stop = r.uint32() + r.pos;
      while (r.pos < stop) items.push(readScalar(r, type));
    } else items.push(readScalar(r, type));
  }
  if (unknown !== undefined) message.$unknown = unknown;
}

function readLength(r: BinaryReader): number {
  const length = r.uint32();
  return r.pos + length;
}

function oneofValue(message: Record<string, unknown>, field: WireField): unknown {
  const selected = message[field.oneof as string] as { case: unknown; value: unknown };
  return selected.case === field.name ? selected.value : undefined;
}

function set(message: Record<string, unknown>, field: WireField, value: unknown): void {
  if (field.oneof === undefined) message[field.name] = value;
  else message[field.oneof] = { case: field.name, value };
}

/**
 * The message protobuf-es's `fromBinary` reads from `bytes`: the zero message with each field read
 * (a repeated field appended to, a message field read again merged into, a packed or unpacked list
 * alike), bytes fields as views of `bytes`, unknown fields kept in `$unknown`.
 *
 * @param table - the message type's table.
 * @param bytes - its binary encoding.
 * @returns the message.
 * @throws Error when the bytes are not a valid encoding (protobuf-es's reader throws as in
 *   `fromBinary`), ProtoDecodeError past 100 nested messages.
 * @example
 * ```ts
 * wireDecode(cosmos_bank_v1beta1_DenomUnit, new Uint8Array([16, 6])).exponent; // 6
 * ```
 */
export function wireDecode<T extends Message>(table: WireMessage<T>, bytes: Uint8Array): T {
  const message = zeroMessage(table);
  const r = new BinaryReader(bytes);
  readFields(r, table, message, bytes.byteLength, 1);
  return message as T;
}
