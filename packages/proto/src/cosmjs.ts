import {
  create,
  type DescMessage,
  type MessageInitShape,
  type MessageShape,
  toBinary,
} from "@bufbuild/protobuf";
import { type BinaryReader, BinaryWriter } from "@bufbuild/protobuf/wire";
import { InvalidArgumentError } from "@perpx/errors";
import { ProtoDecodeError } from "./errors.js";
import { decodeMessage, msgTypeUrls, schemaOf, type TypeUrl, typeUrlOf } from "./registry.js";

/**
 * A protobuf writer as cosmjs types it. cosmjs's `Registry` never passes one (it calls
 * `encode(message).finish()`); when a writer is passed, it must be able to append raw bytes
 * (protobuf-es's `BinaryWriter` can), else `encode` throws `InvalidArgumentError`.
 *
 * @example
 * ```ts
 * import { BinaryWriter } from "@bufbuild/protobuf/wire";
 * import { cosmosBank, toCosmjsGeneratedType } from "@perpx/proto";
 * const msg = { fromAddress: "perpx1alice", toAddress: "perpx1bob", amount: [] };
 * const writer: CosmjsWriterLike = toCosmjsGeneratedType(cosmosBank.MsgSendSchema).encode(msg, new BinaryWriter());
 * writer.finish().length; // 24
 * ```
 */
export interface CosmjsWriterLike {
  /** Returns the bytes written so far. */
  finish(): Uint8Array;
}

/**
 * A protobuf-es message schema shaped like a ts-proto/Telescope generated type, which is what
 * cosmjs's `Registry` (`@cosmjs/proto-signing`) accepts as a `GeneratedType`.
 *
 * Values are protobuf-es shapes: camelCase fields, `bigint` for 64-bit integers, `Uint8Array` for
 * bytes, and oneofs as `{ case, value }`.
 *
 * @example
 * ```ts
 * import { cosmosBank, toCosmjsGeneratedType } from "@perpx/proto";
 * const toAddress = "perpx1bob";
 * const type = toCosmjsGeneratedType(cosmosBank.MsgSendSchema);
 * const bytes = type.encode({ fromAddress: "perpx1alice", toAddress, amount: [{ denom: "aperpx", amount: "1" }] }).finish();
 * type.decode(bytes).toAddress === toAddress; // true
 * ```
 */
export interface CosmjsGeneratedType<Desc extends DescMessage = DescMessage> {
  /** The type URL of the message, e.g. `/perpx.clob.v1.MsgPlaceOrder`. */
  readonly typeUrl: TypeUrl;
  /**
   * Appends the message's fields to `writer` (a new one by default). Call `.finish()` for bytes.
   * The message may be a partial init object; it goes through `fromPartial` first.
   */
  encode<W extends CosmjsWriterLike = BinaryWriter>(message: MessageInitShape<Desc>, writer?: W): W;
  /** Decodes the message from bytes, or from the next `length` bytes (default: all) of a reader. */
  decode(input: Uint8Array | BinaryReader, length?: number): MessageShape<Desc>;
  /** Builds a full message (defaults filled) from a partial init object. */
  fromPartial(object: MessageInitShape<Desc>): MessageShape<Desc>;
}

/**
 * Adapts a protobuf-es schema to cosmjs's `GeneratedType`, so a cosmjs `Registry` can encode and
 * decode it. Encoding is byte-identical to protobuf-es `toBinary`.
 *
 * @param schema - the message schema.
 * @returns an object with `typeUrl`, `encode`, `decode` and `fromPartial`.
 * @throws {ProtoDecodeError} from `decode`, when the bytes are not a valid encoding.
 *
 * @example
 * ```ts
 * import { Registry } from "@cosmjs/proto-signing";
 * import { clob, toCosmjsGeneratedType } from "@perpx/proto";
 * const registry = new Registry([["/perpx.clob.v1.MsgPlaceOrder", toCosmjsGeneratedType(clob.MsgPlaceOrderSchema)]]);
 * ```
 */
export function toCosmjsGeneratedType<Desc extends DescMessage>(schema: Desc): CosmjsGeneratedType<Desc> {
  const fromPartial = (object: MessageInitShape<Desc>): MessageShape<Desc> => create(schema, object);
  return {
    typeUrl: typeUrlOf(schema),
    fromPartial,
    encode<W extends CosmjsWriterLike = BinaryWriter>(message: MessageInitShape<Desc>, writer?: W): W {
      const bytes = toBinary(schema, fromPartial(message));
      if (writer === undefined) return new BinaryWriter().raw(bytes) as CosmjsWriterLike as W;
      if (!canAppendRaw(writer)) {
        throw new InvalidArgumentError(
          "writer",
          "must append raw bytes (a protobuf-es BinaryWriter); omit it to get one",
        );
      }
      writer.raw(bytes);
      return writer;
    },
    decode(input, length) {
      if (input instanceof Uint8Array) {
        return decodeMessage(schema, length === undefined ? input : input.subarray(0, length));
      }
      return decodeMessage(schema, readFields(schema, input, length));
    },
  };
}

/** Copies the next `length` bytes (default: the rest) of a reader, field by field. */
function readFields(schema: DescMessage, reader: BinaryReader, length: number | undefined): Uint8Array {
  const end = length === undefined ? reader.len : reader.pos + length;
  const writer = new BinaryWriter();
  try {
    while (reader.pos < end) {
      const [fieldNo, wireType] = reader.tag();
      writer.tag(fieldNo, wireType).raw(reader.skip(wireType, fieldNo));
    }
  } catch (cause) {
    throw new ProtoDecodeError(schema.typeName, "invalid binary encoding", { cause });
  }
  if (reader.pos !== end) throw new ProtoDecodeError(schema.typeName, "a field runs past the given length");
  return writer.finish();
}

/**
 * Which messages {@link cosmjsRegistryEntries} returns.
 *
 * @example
 * ```ts
 * import { cosmjsRegistryEntries } from "@perpx/proto";
 * const everything = cosmjsRegistryEntries({ include: "all" });
 * ```
 */
export interface CosmjsRegistryEntriesOptions {
  /**
   * `"perpx"`: the Msgs of perpx modules only (cosmjs's default registry already has the Cosmos
   * ones). `"all"`: every Msg `@perpx/proto` generates, Cosmos and IBC included.
   * @default "perpx"
   */
  readonly include?: "perpx" | "all";
}

/**
 * `[typeUrl, GeneratedType]` pairs for every Msg (every request of every `service Msg`), ready for
 * `new Registry(...)` of `@cosmjs/proto-signing`, sorted by type URL.
 *
 * @param options - which Msgs to include; perpx modules only by default.
 * @returns the registry entries.
 *
 * @example
 * ```ts
 * import { Registry } from "@cosmjs/proto-signing";
 * import { cosmjsRegistryEntries } from "@perpx/proto";
 * const registry = new Registry(cosmjsRegistryEntries());
 * registry.lookupType("/perpx.clob.v1.MsgPlaceOrder") !== undefined; // true
 * ```
 */
export function cosmjsRegistryEntries(
  options: CosmjsRegistryEntriesOptions = {},
): [TypeUrl, CosmjsGeneratedType][] {
  const include = options.include ?? "perpx";
  return msgTypeUrls
    .filter((url) => include === "all" || url.startsWith("/perpx."))
    .map((url) => [url, toCosmjsGeneratedType(schemaOf(url))]);
}

function canAppendRaw(
  writer: CosmjsWriterLike,
): writer is CosmjsWriterLike & { raw(bytes: Uint8Array): unknown } {
  return typeof (writer as { raw?: unknown }).raw === "function";
}
