/**
 * A compiled protobuf encoder for the messages on the trading hot path. protobuf-es's `toBinary`
 * walks a message through its reflection API and a forking writer on every call; this compiles a
 * schema once into field writers (varint numbers, strings, bytes, enums, nested messages, oneofs,
 * repeated fields, fixed-width and zigzag integers) that write straight into the envelope's
 * {@link ProtoWriter}. Anything else (maps, groups, floats, 64-bit integers as strings, required
 * fields, unknown fields, recursive schemas) goes through `toBinary`. Property tests prove it
 * byte-identical to `toBinary`.
 */
import { type DescField, type DescMessage, ScalarType, toBinary } from "@bufbuild/protobuf";
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

const toBigInt = (v: unknown) => (typeof v === "bigint" ? v : BigInt(v as number));
const writeUint32: ValueWriter = (w, v) => w.varint32(v as number);
const writeInt32: ValueWriter = (w, v) =>
  (v as number) >= 0 ? w.varint32(v as number) : w.varint64(BigInt(v as number));
const writeInt64: ValueWriter = (w, v) => w.varint64(toBigInt(v));
const writeFixed32: ValueWriter = (w, v) => w.fixed32(v as number);
const writeFixed64: ValueWriter = (w, v) => w.fixed64(toBigInt(v));
const writeSint32: ValueWriter = (w, v) => w.varint32((((v as number) << 1) ^ ((v as number) >> 31)) >>> 0);
const writeSint64: ValueWriter = (w, v) => {
  const n = BigInt.asIntN(64, toBigInt(v));
  w.varint64((n << 1n) ^ (n >> 63n));
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
    case ScalarType.INT64:
      return [0, writeInt64, (v) => v === 0n || v === 0];
    case ScalarType.SINT32:
      return [0, writeSint32, (v) => v === 0];
    case ScalarType.SINT64:
      return [0, writeSint64, (v) => v === 0n || v === 0];
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return [5, writeFixed32, (v) => v === 0];
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return [1, writeFixed64, (v) => v === 0n || v === 0];
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
    for (const field of [...desc.fields].sort((a, b) => a.number - b.number)) {
      const writer = fieldWriter(field);
      if (writer === undefined) return null;
      writers.push(writer);
    }
    encoder = (writer, message) => {
      const unknown = message.$unknown as readonly unknown[] | undefined;
      if (unknown !== undefined && unknown.length > 0) throw new Unsupported();
      for (const write of writers) write(writer, message);
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
 * writer.begin(2);
 * writeMessage(writer, clob.MsgPlaceOrderSchema, message);
 * writer.end();
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
      if (!(error instanceof Unsupported)) throw error;
      writer.restore(mark);
    }
  }
  writer.raw(toBinary(schema, message as never));
}
