import {
  createRegistry,
  type DescMessage,
  fromBinary,
  type Message,
  type MessageShape,
  type Registry,
  toBinary,
} from "@bufbuild/protobuf";
import { type Any, AnySchema } from "@bufbuild/protobuf/wkt";
import { ProtoDecodeError, UnknownTypeUrlError } from "./errors.js";
import { files } from "./gen/files.js";

/**
 * A Cosmos type URL: `/` followed by a fully qualified message name.
 *
 * @example
 * ```ts
 * import type { TypeUrl } from "@perpx/proto";
 * const url: TypeUrl = "/perpx.clob.v1.MsgPlaceOrder";
 * ```
 */
export type TypeUrl = `/${string}`;

/**
 * A protobuf-es {@link Registry} of every message, enum and service generated in `@perpx/proto`
 * (perpx modules, and the Cosmos SDK, CometBFT and IBC subset). Pass it as `registry` to
 * `toJson`/`fromJson` to (de)serialise messages that hold `Any` fields.
 *
 * @example
 * ```ts
 * import { create, toJson } from "@bufbuild/protobuf";
 * import { cosmosBank, cosmosTx, packAny, typeRegistry } from "@perpx/proto";
 * const send = create(cosmosBank.MsgSendSchema, { fromAddress: "perpx1alice", toAddress: "perpx1bob" });
 * const body = create(cosmosTx.TxBodySchema, { messages: [packAny(cosmosBank.MsgSendSchema, send)] });
 * const json = toJson(cosmosTx.TxBodySchema, body, { registry: typeRegistry });
 * json; // { messages: [{ "@type": "/cosmos.bank.v1beta1.MsgSend", fromAddress: "perpx1alice", toAddress: "perpx1bob" }] }
 * ```
 */
export const typeRegistry: Registry = /*@__PURE__*/ createRegistry(...files);

function collectMessages(): ReadonlyMap<TypeUrl, DescMessage> {
  const entries: [TypeUrl, DescMessage][] = [];
  for (const type of typeRegistry) {
    if (type.kind === "message") entries.push([`/${type.typeName}`, type]);
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(entries);
}

/**
 * Every generated message schema by type URL (`/perpx.clob.v1.MsgPlaceOrder`), sorted by URL.
 *
 * @example
 * ```ts
 * import { messageRegistry } from "@perpx/proto";
 * for (const [typeUrl, schema] of messageRegistry) console.log(typeUrl, schema.name);
 * ```
 */
export const messageRegistry: ReadonlyMap<TypeUrl, DescMessage> = /*@__PURE__*/ collectMessages();

function collectMsgTypeUrls(): readonly TypeUrl[] {
  const urls = new Set<TypeUrl>();
  for (const type of typeRegistry) {
    if (type.kind !== "service" || type.name !== "Msg") continue;
    for (const method of type.methods) urls.add(`/${method.input.typeName}`);
  }
  return [...urls].sort();
}

/**
 * The type URL of the request of every rpc of every `service Msg` (the messages a transaction can
 * carry), perpx and Cosmos alike, sorted.
 *
 * @example
 * ```ts
 * import { msgTypeUrls } from "@perpx/proto";
 * msgTypeUrls.includes("/perpx.clob.v1.MsgPlaceOrder"); // true
 * ```
 */
export const msgTypeUrls: readonly TypeUrl[] = /*@__PURE__*/ collectMsgTypeUrls();

/**
 * The Cosmos type URL of a message schema: `/` + its fully qualified name.
 *
 * @param schema - a message schema, e.g. `cosmosBank.MsgSendSchema`.
 * @returns the type URL, e.g. `/cosmos.bank.v1beta1.MsgSend`.
 *
 * @example
 * ```ts
 * import { clob, typeUrlOf } from "@perpx/proto";
 * typeUrlOf(clob.MsgPlaceOrderSchema); // "/perpx.clob.v1.MsgPlaceOrder"
 * ```
 */
export function typeUrlOf(schema: DescMessage): TypeUrl {
  return `/${schema.typeName}`;
}

/**
 * Looks up the schema of a type URL. The part after the last `/` is the message name, so
 * `type.googleapis.com/x.y.Z` is accepted as well as `/x.y.Z`.
 *
 * @param typeUrl - e.g. `/perpx.clob.v1.MsgPlaceOrder`.
 * @returns the message schema.
 * @throws {UnknownTypeUrlError} when no generated message has that name.
 *
 * @example
 * ```ts
 * import { create, fromBinary } from "@bufbuild/protobuf";
 * import { cosmosBank, packAny, schemaOf } from "@perpx/proto";
 * const any = packAny(cosmosBank.MsgSendSchema, create(cosmosBank.MsgSendSchema, { toAddress: "perpx1bob" }));
 * const message = fromBinary(schemaOf(any.typeUrl), any.value);
 * message.$typeName; // "cosmos.bank.v1beta1.MsgSend"
 * ```
 */
export function schemaOf(typeUrl: string): DescMessage {
  const slash = typeUrl.lastIndexOf("/");
  const schema = slash < 0 ? undefined : typeRegistry.getMessage(typeUrl.slice(slash + 1));
  if (!schema) throw new UnknownTypeUrlError(typeUrl);
  return schema;
}

/**
 * Packs a message into a `google.protobuf.Any` the Cosmos way: type URL `/` + full name (not
 * `type.googleapis.com/...`), value = the message's binary encoding.
 *
 * @param schema - the message's schema.
 * @param message - the message (from `create(schema, ...)`).
 * @returns the `Any`.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { cosmosBank, packAny } from "@perpx/proto";
 * const amount = [{ denom: "aperpx", amount: "1" }];
 * const any = packAny(cosmosBank.MsgSendSchema, create(cosmosBank.MsgSendSchema, { fromAddress: "perpx1alice", toAddress: "perpx1bob", amount }));
 * any.typeUrl; // "/cosmos.bank.v1beta1.MsgSend"
 * ```
 */
export function packAny<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): Any {
  return { $typeName: AnySchema.typeName, typeUrl: typeUrlOf(schema), value: toBinary(schema, message) };
}

/**
 * Unpacks an `Any` into its message. Without `schema`, the schema comes from the type URL (see
 * {@link schemaOf}); with it, the type URL must name that schema.
 *
 * @param any - the `Any` to unpack.
 * @param schema - the expected message schema.
 * @returns the decoded message.
 * @throws {UnknownTypeUrlError} without `schema`, when the type URL is unknown.
 * @throws {ProtoDecodeError} when the type URL does not match `schema`, or the value does not decode.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { cosmosAuth, packAny, unpackAny } from "@perpx/proto";
 * const response = create(cosmosAuth.QueryAccountResponseSchema, {
 *   account: packAny(cosmosAuth.BaseAccountSchema, create(cosmosAuth.BaseAccountSchema, { accountNumber: 7n })),
 * });
 * const account = unpackAny(response.account!, cosmosAuth.BaseAccountSchema);
 * account.accountNumber; // 7n
 * ```
 */
export function unpackAny<Desc extends DescMessage>(any: Any, schema: Desc): MessageShape<Desc>;
export function unpackAny(any: Any): Message;
export function unpackAny(any: Any, expected?: DescMessage): Message {
  let schema: DescMessage;
  if (expected) {
    const name = any.typeUrl.slice(any.typeUrl.lastIndexOf("/") + 1);
    if (name !== expected.typeName) {
      throw new ProtoDecodeError(expected.typeName, `the Any holds "${any.typeUrl}"`);
    }
    schema = expected;
  } else {
    schema = schemaOf(any.typeUrl);
  }
  return decodeMessage(schema, any.value);
}

/**
 * Decodes binary protobuf into a message, turning protobuf-es failures into a typed error.
 *
 * @param schema - the message schema.
 * @param bytes - the encoded message.
 * @returns the decoded message.
 * @throws {ProtoDecodeError} when the bytes are not a valid encoding of the message.
 *
 * @example
 * ```ts
 * import { create, toBinary } from "@bufbuild/protobuf";
 * import { cosmosTx, decodeMessage } from "@perpx/proto";
 * const txBytes = toBinary(cosmosTx.TxRawSchema, create(cosmosTx.TxRawSchema, { bodyBytes: Uint8Array.of(1, 2) }));
 * const raw = decodeMessage(cosmosTx.TxRawSchema, txBytes);
 * raw.bodyBytes; // Uint8Array.of(1, 2)
 * ```
 */
export function decodeMessage<Desc extends DescMessage>(schema: Desc, bytes: Uint8Array): MessageShape<Desc> {
  try {
    return fromBinary(schema, bytes);
  } catch (cause) {
    throw new ProtoDecodeError(schema.typeName, "invalid binary encoding", { cause });
  }
}
