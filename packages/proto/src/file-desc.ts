/**
 * `fileDesc` for the generated `*_pb.ts` files: protobuf-es's own (`@bufbuild/protobuf/codegenv2`),
 * with the embedded `FileDescriptorProto` decoded by a small table-driven reader instead of the
 * reflective `fromBinary`. The reader builds the same messages `fromBinary` builds (each through
 * `create`, so with the same prototypes, fields in the same order, unknown fields kept the same
 * way); whatever it does not cover (a group, a map, a oneof, a 64-bit integer, a closed enum's
 * unknown value) sends the whole file to `fromBinary`. A devnet builds every descriptor of this
 * package when it starts: decoding them was about three fifths of building them.
 */
import {
  create,
  createFileRegistry,
  type DescField,
  type DescMessage,
  fromBinary,
  ScalarType,
} from "@bufbuild/protobuf";
import type { GenFile } from "@bufbuild/protobuf/codegenv2";
import { protoCamelCase } from "@bufbuild/protobuf/reflect";
import { base64Decode } from "@bufbuild/protobuf/wire";
import {
  type DescriptorProto,
  type FileDescriptorProto,
  FileDescriptorProtoSchema,
} from "@bufbuild/protobuf/wkt";

/** How the reader treats one field of a descriptor message. */
interface FieldPlan {
  readonly localName: string;
  /** A scalar, an enum (its known values), or a message (its plan, built on first use). */
  readonly scalar: ScalarType | undefined;
  readonly enumValues: ReadonlySet<number> | undefined;
  readonly message: DescMessage | undefined;
  readonly repeated: boolean;
}

/** A message's fields by number; `undefined` when the reader does not cover the message. */
type MessagePlan = ReadonlyMap<number, FieldPlan> | undefined;

/** Thrown inside the reader for what it leaves to `fromBinary`. */
class NotCovered extends Error {}

/**
 * Whether the reader covers a scalar type (a function, not a table: loading this module must not
 * load protobuf-es, which the CommonJS build requires on first use).
 */
function coveredScalar(type: ScalarType): boolean {
  switch (type) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
    case ScalarType.BOOL:
    case ScalarType.INT32:
    case ScalarType.UINT32:
    case ScalarType.DOUBLE:
      return true;
    default:
      return false;
  }
}

const plans = new Map<DescMessage, MessagePlan>();

function fieldPlan(field: DescField): FieldPlan | undefined {
  if (field.oneof !== undefined || field.fieldKind === "map") return undefined;
  const kind = field.fieldKind === "list" ? field.listKind : field.fieldKind;
  const message = kind === "message" ? (field.message as DescMessage) : undefined;
  const delimited =
    field.fieldKind === "message" || (field.fieldKind === "list" && field.listKind === "message")
      ? field.delimitedEncoding
      : false;
  if (delimited) return undefined;
  const scalar = kind === "scalar" ? (field.scalar as ScalarType) : undefined;
  if (scalar !== undefined && !coveredScalar(scalar)) return undefined;
  const enumDesc = kind === "enum" ? field.enum : undefined;
  if (enumDesc?.open === true) return undefined;
  return {
    localName: field.localName,
    scalar,
    enumValues: enumDesc === undefined ? undefined : new Set(enumDesc.values.map((value) => value.number)),
    message,
    repeated: field.fieldKind === "list",
  };
}

function planOf(desc: DescMessage): MessagePlan {
  if (plans.has(desc)) return plans.get(desc);
  let plan: Map<number, FieldPlan> | undefined = new Map();
  for (const field of desc.fields) {
    const one = fieldPlan(field);
    if (one === undefined) {
      plan = undefined;
      break;
    }
    plan.set(field.number, one);
  }
  if (desc.oneofs.length > 0) plan = undefined;
  plans.set(desc, plan);
  return plan;
}

/**
 * How `create` makes a zero message of a descriptor message: its prototype (the defaults of its
 * proto2 fields) and its own list fields, in order; `undefined` when it makes anything else.
 */
interface ZeroShape {
  readonly prototype: object;
  readonly lists: readonly string[];
}

const zeroShapes = new Map<DescMessage, ZeroShape | undefined>();

/** Reads the shape of `create(desc)` off one message it makes. */
function zeroShapeOf(desc: DescMessage): ZeroShape | undefined {
  const sample = create(desc) as unknown as Record<string, unknown>;
  const keys = Reflect.ownKeys(sample);
  if (keys[0] !== "$typeName") return undefined;
  const lists = keys.slice(1);
  const allEmptyLists = lists.every((key) => {
    const value = typeof key === "string" ? sample[key] : undefined;
    return Array.isArray(value) && value.length === 0;
  });
  return allEmptyLists
    ? { prototype: Object.getPrototypeOf(sample) as object, lists: lists as string[] }
    : undefined;
}

/**
 * A zero message of `desc`, the one `create(desc)` makes (same prototype, same own keys in the same
 * order), without walking the descriptor's members for every message as `create` does.
 */
function zeroMessage(desc: DescMessage): Fields {
  let shape = zeroShapes.get(desc);
  if (shape === undefined && !zeroShapes.has(desc)) {
    shape = zeroShapeOf(desc);
    zeroShapes.set(desc, shape);
  }
  if (shape === undefined) return create(desc) as unknown as Fields;
  const message = Object.create(shape.prototype) as Fields;
  message.$typeName = desc.typeName;
  for (const key of shape.lists) message[key] = [];
  return message;
}

const utf8 = new TextDecoder();

/** A cursor over the bytes of one descriptor. */
class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  /** A varint's low 32 bits, unsigned; the rest of a longer varint is skipped. */
  varint(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.byte();
      result |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result >>> 0;
    }
    for (let i = 0; i < 5; i++) if ((this.byte() & 0x80) === 0) return result >>> 0;
    throw new NotCovered("varint too long");
  }

  byte(): number {
    const byte = this.buf[this.pos++];
    if (byte === undefined) throw new NotCovered("premature end");
    return byte;
  }

  /** The end of a length-delimited value that starts here. */
  end(): number {
    const length = this.varint();
    const end = this.pos + length;
    if (end > this.buf.length) throw new NotCovered("premature end");
    return end;
  }

  /** Skips one value of `wireType` (not a group); returns the bytes skipped. */
  skip(wireType: number): Uint8Array {
    const start = this.pos;
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 5) this.pos += 4;
    else if (wireType === 2) this.pos = this.end();
    else throw new NotCovered("group");
    if (this.pos > this.buf.length) throw new NotCovered("premature end");
    return this.buf.subarray(start, this.pos);
  }

  /** The bytes of a length-delimited value. */
  bytes(): Uint8Array {
    const end = this.end();
    const start = this.pos;
    this.pos = end;
    return this.buf.subarray(start, end);
  }

  scalar(type: ScalarType): string | number | boolean | Uint8Array {
    switch (type) {
      case ScalarType.STRING:
        return utf8.decode(this.bytes());
      case ScalarType.BYTES:
        return this.bytes();
      case ScalarType.BOOL:
        return this.bool();
      case ScalarType.INT32:
        return this.varint() | 0;
      case ScalarType.UINT32:
        return this.varint();
      default: {
        const start = this.pos;
        this.pos += 8;
        if (this.pos > this.buf.length) throw new NotCovered("premature end");
        return new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength).getFloat64(
          start,
          true,
        );
      }
    }
  }

  /** A bool: any set bit of the (up to 64-bit) varint. */
  bool(): boolean {
    let set = false;
    for (let i = 0; i < 10; i++) {
      const byte = this.byte();
      if ((byte & 0x7f) !== 0) set = true;
      if ((byte & 0x80) === 0) return set;
    }
    throw new NotCovered("varint too long");
  }
}

type Fields = Record<string, unknown> & { $unknown?: { no: number; wireType: number; data: Uint8Array }[] };

/** Reads the fields of one message up to `end` into `message` (a `create`d message of `desc`). */
function readInto(reader: Reader, desc: DescMessage, message: Fields, end: number): void {
  const plan = planOf(desc);
  if (plan === undefined) throw new NotCovered(desc.typeName);
  const unknown = message.$unknown ?? [];
  while (reader.pos < end) {
    const tag = reader.varint();
    const no = tag >>> 3;
    const wireType = tag & 7;
    if (no === 0 || wireType > 5) throw new NotCovered("illegal tag");
    const field = plan.get(no);
    if (field === undefined) {
      unknown.push({ no, wireType, data: reader.skip(wireType) });
      continue;
    }
    if (field.message !== undefined) {
      const fieldEnd = reader.end();
      const existing = field.repeated ? undefined : (message[field.localName] as Fields | undefined);
      const value = existing ?? zeroMessage(field.message);
      readInto(reader, field.message, value, fieldEnd);
      if (field.repeated) (message[field.localName] as unknown[]).push(value);
      else message[field.localName] = value;
      continue;
    }
    const type = field.scalar ?? ScalarType.INT32;
    if (field.repeated && wireType === 2 && type !== ScalarType.STRING && type !== ScalarType.BYTES) {
      const packedEnd = reader.end();
      while (reader.pos < packedEnd) setValue(message, field, reader.scalar(type));
    } else {
      setValue(message, field, reader.scalar(type));
    }
  }
  if (reader.pos !== end) throw new NotCovered("premature end");
  if (unknown.length > 0) message.$unknown = unknown;
}

function setValue(message: Fields, field: FieldPlan, value: unknown): void {
  // `fromBinary` keeps a closed enum's unknown value as an unknown field (not in a list)
  if (!field.repeated && field.enumValues !== undefined && !field.enumValues.has(value as number)) {
    throw new NotCovered("unknown enum value");
  }
  if (field.repeated) (message[field.localName] as unknown[]).push(value);
  else message[field.localName] = value;
}

/**
 * Decodes a serialized `FileDescriptorProto` as `fromBinary(FileDescriptorProtoSchema, bytes)`
 * does, to the same messages.
 *
 * @param bytes - a serialized `google.protobuf.FileDescriptorProto`.
 * @returns the decoded message.
 * @throws Error when the bytes are not a valid message (from `fromBinary`).
 * @example
 * ```ts
 * import { toBinary } from "@bufbuild/protobuf";
 * import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
 * import { clob } from "@perpx/proto";
 *
 * const bytes = toBinary(FileDescriptorProtoSchema, clob.file_perpx_clob_v1_order.proto);
 * decodeFileDescriptorProto(bytes).name; // "perpx/clob/v1/order.proto"
 * ```
 */
export function decodeFileDescriptorProto(bytes: Uint8Array): FileDescriptorProto {
  try {
    const message = zeroMessage(FileDescriptorProtoSchema);
    readInto(new Reader(bytes), FileDescriptorProtoSchema, message, bytes.length);
    return message as unknown as FileDescriptorProto;
  } catch (error) {
    if (!(error instanceof NotCovered)) throw error;
    return fromBinary(FileDescriptorProtoSchema, bytes);
  }
}

/** protobuf-es's `restoreJsonNames`: a field without an explicit `json_name` gets the default. */
function restoreJsonNames(message: DescriptorProto): void {
  for (const field of message.field) {
    if (!Object.hasOwn(field, "jsonName") || field.jsonName === undefined) {
      field.jsonName = protoCamelCase(field.name);
    }
  }
  message.nestedType.forEach(restoreJsonNames);
}

/**
 * Hydrates an embedded file descriptor, as `fileDesc` of `@bufbuild/protobuf/codegenv2` does (the
 * generated files call this one instead; see the file comment).
 *
 * @param b64 - the file's `FileDescriptorProto`, base64, as protoc-gen-es embeds it.
 * @param imports - the descriptors of the files it imports.
 * @returns the file's descriptor.
 * @example
 * ```ts
 * // google/protobuf/empty.proto, as protoc-gen-es embeds it
 * const file = fileDesc("Chtnb29nbGUvcHJvdG9idWYvZW1wdHkucHJvdG8SD2dvb2dsZS5wcm90b2J1ZiIHCgVFbXB0eWIGcHJvdG8z");
 * file.messages[0]?.typeName; // "google.protobuf.Empty"
 * ```
 */
export function fileDesc(b64: string, imports?: GenFile[]): GenFile {
  const root = decodeFileDescriptorProto(base64Decode(b64));
  root.messageType.forEach(restoreJsonNames);
  const direct = imports ?? [];
  root.dependency = direct.map((file) => file.proto.name);
  return withDirectImports(root, direct) ?? withAllImports(root, direct);
}

/**
 * Builds the file over a registry of its direct imports' own types only: `createFileRegistry`
 * given the imports themselves adds every file they import, transitively, for every file built.
 * Each import stands in as a copy without imports, and the file gets the real ones back. A type
 * the file names from further down (a public import) is not found, and protobuf-es throws on every
 * lookup that finds nothing: `undefined` then, and the caller builds the file the full way.
 */
function withDirectImports(root: FileDescriptorProto, imports: readonly GenFile[]): GenFile | undefined {
  const standIns = imports.map((file) => ({ ...file, dependencies: [] }));
  let file: GenFile;
  try {
    const registry = createFileRegistry(root, (name) =>
      standIns.find((standIn) => standIn.proto.name === name),
    );
    file = registry.getFile(root.name) as GenFile;
  } catch {
    return undefined;
  }
  // `dependencies` lists the stand-ins, in the order of `root.dependency`, which is `imports`
  (file as { dependencies: GenFile[] }).dependencies = [...imports];
  return file;
}

/** Builds the file as protobuf-es's `fileDesc` does: over a registry of every file it imports. */
function withAllImports(root: FileDescriptorProto, imports: readonly GenFile[]): GenFile {
  const registry = createFileRegistry(root, (name) => imports.find((file) => file.proto.name === name));
  // the registry was just built from this file
  return registry.getFile(root.name) as GenFile;
}
