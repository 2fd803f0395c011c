/**
 * A compiled protobuf encoder for the messages on the trading hot path. protobuf-es's `toBinary`
 * walks a message through its reflection API and a forking writer on every call; this compiles a
 * schema once into field writers (varint numbers, strings, bytes, enums, nested messages, oneofs,
 * repeated fields, fixed-width and zigzag integers) that write straight into the envelope's
 * {@link ProtoWriter}. Anything else (maps, groups, floats, 64-bit integers as strings, required
 * fields, unknown fields, recursive schemas) goes through `toBinary`. Every integer is checked for
 * its wire type exactly where `toBinary` checks it (never wrapped): an out-of-range value throws
 * `InvalidArgumentError` naming the field. Property tests prove it byte-identical to `toBinary` and
 * throwing on the same inputs.
 */
import { type DescField, type DescMessage, ScalarType, toBinary } from "@bufbuild/protobuf";
import { InvalidArgumentError } from "@perpx/errors";
import type { ProtoWriter } from "./wire.js";

type Fields = Record<string, unknown>;
type Encoder = (writer: ProtoWriter, message: Fields) => void;
type ValueWriter = (writer: ProtoWriter, value: unknown) => void;

const IMPLICIT = 2;
const LEGACY_REQUIRED = 3;

/** Thrown inside an encoder when a message has unknown fields: the caller falls back to toBinary. */
class Unsupported extends Error {}

const compiled = new WeakMap<DescMessage, Encoder | null>();
const compiling = new Set<DescMessage>();

const INT32_MIN = -0x8000_0000;
const INT32_MAX = 0x7fff_ffff;
const UINT32_MAX = 0xffff_ffff;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** A value outside its field's wire type: thrown where protobuf-es's `toBinary` throws. */
class OutOfRange extends Error {}

/** A 32-bit field's number, checked as protobuf-es checks it (strings are read as numbers). */
function int32Of(value: unknown, min: number, max: number, type: string): number {
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max) {
    throw new OutOfRange(`invalid ${type}: ${typeof n === "number" ? n : typeof value}`);
  }
  return n;
}

/** A 64-bit field's value as a bigint, checked as protobuf-es checks it (never wrapped). */
function int64Of(value: unknown, min: bigint, max: bigint, type: string): bigint {
  let n: bigint;
  try {
    n = typeof value === "bigint" ? value : BigInt(value as number | string);
  } catch {
    throw new OutOfRange(`invalid ${type}: ${String(value)}`);
  }
  if (n < min || n > max) throw new OutOfRange(`invalid ${type}: ${n}`);
  return n;
}

const writeUint32: ValueWriter = (w, v) => w.varint32(int32Of(v, 0, UINT32_MAX, "uint32"));
const writeInt32: ValueWriter = (w, v) => {
  const n = int32Of(v, INT32_MIN, INT32_MAX, "int32");
  if (n >= 0) w.varint32(n);
  else w.varint64(BigInt.asUintN(64, BigInt(n)));
};
const writeUint64: ValueWriter = (w, v) => w.varint64(int64Of(v, 0n, UINT64_MAX, "uint64"));
const writeInt64: ValueWriter = (w, v) =>
  w.varint64(BigInt.asUintN(64, int64Of(v, INT64_MIN, INT64_MAX, "int64")));
const writeFixed32: ValueWriter = (w, v) => w.fixed32(int32Of(v, 0, UINT32_MAX, "uint32"));
const writeSfixed32: ValueWriter = (w, v) => w.fixed32(int32Of(v, INT32_MIN, INT32_MAX, "int32"));
const writeFixed64: ValueWriter = (w, v) => w.fixed64(int64Of(v, 0n, UINT64_MAX, "uint64"));
const writeSfixed64: ValueWriter = (w, v) =>
  w.fixed64(BigInt.asUintN(64, int64Of(v, INT64_MIN, INT64_MAX, "int64")));
const writeSint32: ValueWriter = (w, v) => {
  const n = int32Of(v, INT32_MIN, INT32_MAX, "int32");
  w.varint32(((n << 1) ^ (n >> 31)) >>> 0);
};
const writeSint64: ValueWriter = (w, v) => {
  const n = int64Of(v, INT64_MIN, INT64_MAX, "int64");
  w.varint64(BigInt.asUintN(64, (n << 1n) ^ (n >> 63n)));
};
const writeBool: ValueWriter = (w, v) => w.varint32(v ? 1 : 0);
const writeString: ValueWriter = (w, v) => w.stringValue(v as string);
const writeBytes: ValueWriter = (w, v) => {
  w.varint32((v as Uint8Array).length);
  w.raw(v as Uint8Array);
};

/** Wire type, value writer and zero test of a supported scalar type. */
function scalarWriter(type: ScalarType): [number, ValueWriter, (value: unknown) => boolean] | undefined {
  switch (type) {
    case ScalarType.UINT32:
      return [0, writeUint32, (v) => v === 0];
    case ScalarType.INT32:
      return [0, writeInt32, (v) => v === 0];
    case ScalarType.UINT64:
      return [0, writeUint64, (v) => v === 0n || v === 0];
    case ScalarType.INT64:
      return [0, writeInt64, (v) => v === 0n || v === 0];
    case ScalarType.SINT32:
      return [0, writeSint32, (v) => v === 0];
    case ScalarType.SINT64:
      return [0, writeSint64, (v) => v === 0n || v === 0];
    case ScalarType.FIXED32:
      return [5, writeFixed32, (v) => v === 0];
    case ScalarType.SFIXED32:
      return [5, writeSfixed32, (v) => v === 0];
    case ScalarType.FIXED64:
      return [1, writeFixed64, (v) => v === 0n || v === 0];
    case ScalarType.SFIXED64:
      return [1, writeSfixed64, (v) => v === 0n || v === 0];
    case ScalarType.BOOL:
      return [0, writeBool, (v) => v === false];
    case ScalarType.STRING:
      return [2, writeString, (v) => v === ""];
    case ScalarType.BYTES:
      return [2, writeBytes, (v) => (v as Uint8Array).length === 0];
    default:
      return undefined;
  }
}

function messageWriter(number: number, desc: DescMessage): ValueWriter | undefined {
  const inner = compile(desc);
  if (inner === null) return undefined;
  return (writer, value) => {
    writer.begin(number);
    inner(writer, value as Fields);
    writer.end();
  };
}

function fieldWriter(field: DescField): Encoder | undefined {
  const name = field.localName;
  const number = field.number;
  if (field.fieldKind === "map" || field.presence === LEGACY_REQUIRED) return undefined;
  let write: ValueWriter | undefined;
  let wireType = 2;
  let isZero: ((value: unknown) => boolean) | undefined;
  if (field.fieldKind === "message") {
    if (field.delimitedEncoding) return undefined;
    write = messageWriter(number, field.message);
    if (write === undefined) return undefined;
    const writeMessage = write;
    if (field.oneof === undefined) {
      return (writer, message) => {
        const value = message[name];
        if (value !== undefined) writeMessage(writer, value);
      };
    }
  } else if (field.fieldKind === "list") {
    if (field.listKind === "message") {
      if (field.delimitedEncoding) return undefined;
      const writeItem = messageWriter(number, field.message);
      if (writeItem === undefined) return undefined;
      return (writer, message) => {
        for (const item of message[name] as unknown[]) writeItem(writer, item);
      };
    }
    if (field.listKind === "scalar" && field.longAsString) return undefined;
    const scalar = scalarWriter(field.listKind === "enum" ? ScalarType.INT32 : field.scalar);
    if (scalar === undefined) return undefined;
    const [itemWireType, writeItem] = scalar;
    if (field.packed) {
      return (writer, message) => {
        const items = message[name] as unknown[];
        if (items.length === 0) return;
        writer.begin(number);
        for (const item of items) writeItem(writer, item);
        writer.end();
      };
    }
    return (writer, message) => {
      for (const item of message[name] as unknown[]) {
        writer.tag(number, itemWireType);
        writeItem(writer, item);
      }
    };
  } else {
    if (field.fieldKind === "scalar" && field.longAsString) return undefined;
    const scalar = scalarWriter(field.fieldKind === "enum" ? ScalarType.INT32 : field.scalar);
    if (scalar === undefined) return undefined;
    [wireType, write, isZero] = scalar;
  }
  const writeValue = write;
  const type = wireType;
  const tagged: ValueWriter =
    field.fieldKind === "message"
      ? writeValue
      : (writer, value) => {
          writer.tag(number, type);
          writeValue(writer, value);
        };
  if (field.oneof !== undefined) {
    const oneof = field.oneof.localName;
    return (writer, message) => {
      const selected = message[oneof] as { case?: string; value?: unknown } | undefined;
      if (selected?.case === name) tagged(writer, selected.value);
    };
  }
  if (field.presence === IMPLICIT && isZero !== undefined) {
    const zero = isZero;
    return (writer, message) => {
      const value = message[name];
      if (!zero(value)) tagged(writer, value);
    };
  }
  return (writer, message) => {
    const value = message[name];
    if (value !== undefined) tagged(writer, value);
  };
}

function compile(desc: DescMessage): Encoder | null {
  const known = compiled.get(desc);
  if (known !== undefined) return known;
  if (compiling.has(desc)) return null;
  compiling.add(desc);
  let encoder: Encoder | null = null;
  try {
    const writers: Encoder[] = [];
    const fields = [...desc.fields].sort((a, b) => a.number - b.number);
    for (const field of fields) {
      const writer = fieldWriter(field);
      if (writer === undefined) return null;
      writers.push(writer);
    }
    encoder = (writer, message) => {
      const unknown = message.$unknown as readonly unknown[] | undefined;
      if (unknown !== undefined && unknown.length > 0) throw new Unsupported();
      let i = 0;
      try {
        for (; i < writers.length; i++) writers[i]!(writer, message);
      } catch (error) {
        if (!(error instanceof OutOfRange)) throw error;
        throw new InvalidArgumentError(`${desc.typeName}.${fields[i]!.name}`, error.message);
      }
    };
    return encoder;
  } finally {
    compiling.delete(desc);
    compiled.set(desc, encoder);
  }
}

/**
 * True when `schema` (and every message it nests) takes the compiled path rather than `toBinary`.
 *
 * @example
 * ```ts
 * import { clob } from "@perpx/proto";
 *
 * hasCompiledEncoder(clob.MsgPlaceOrderSchema); // true
 * ```
 */
export function hasCompiledEncoder(schema: DescMessage): boolean {
  return compile(schema) !== null;
}

/**
 * Writes the fields of `message` (no tag, no length) into `writer` exactly as `toBinary(schema,
 * message)` would serialize them.
 *
 * @example
 * ```ts
 * import { create, toBinary } from "@bufbuild/protobuf";
 * import { cosmosBank } from "@perpx/proto";
 *
 * const message = create(cosmosBank.MsgSendSchema, { fromAddress: wallet.address, toAddress: wallet.address, amount: [{ denom: "uusdc", amount: "1" }] });
 * const writer = new ProtoWriter();
 * writeMessage(writer, cosmosBank.MsgSendSchema, message);
 * Buffer.from(writer.finish()).equals(toBinary(cosmosBank.MsgSendSchema, message)); // true
 * ```
 */
export function writeMessage(writer: ProtoWriter, schema: DescMessage, message: object): void {
  const encoder = compile(schema);
  if (encoder !== null) {
    const mark = writer.mark();
    try {
      encoder(writer, message as Fields);
      return;
    } catch (error) {
      writer.restore(mark);
      if (!(error instanceof Unsupported)) throw error;
    }
  }
  let bytes: Uint8Array;
  try {
    bytes = toBinary(schema, message as never);
  } catch (error) {
    throw new InvalidArgumentError(schema.typeName, error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
  writer.raw(bytes);
}
