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
import { files, filesOfPackage, msgRequestTypeUrls } from "./gen/files.js";

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

/** One registry per proto package, built when a type of that package is first looked up. */
const packageRegistries = new Map<string, Registry>();
let everything: Registry | undefined;

/**
 * The registry of the proto package of `typeName` (the longest package that prefixes it; nested
 * types have more segments), decoding that package's files and their imports only.
 */
function registryOfType(typeName: string): Registry | undefined {
  for (let end = typeName.lastIndexOf("."); end > 0; end = typeName.lastIndexOf(".", end - 1)) {
    const pkg = typeName.slice(0, end);
    const indexes = filesOfPackage.get(pkg);
    if (indexes === undefined) continue;
    let registry = packageRegistries.get(pkg);
    if (!registry) {
      registry = createRegistry(...indexes.map((index) => files[index]!()));
      packageRegistries.set(pkg, registry);
    }
    return registry;
  }
  return undefined;
}

/** The registry of every generated file (decodes them all, once). */
function registryOfAll(): Registry {
  everything ??= createRegistry(...files.map((file) => file()));
  return everything;
}

/**
 * A protobuf-es {@link Registry} of every message, enum and service generated in `@perpx/proto`
 * (perpx modules, and the Cosmos SDK, CometBFT and IBC subset). Pass it as `registry` to
 * `toJson`/`fromJson` to (de)serialise messages that hold `Any` fields. A lookup by name decodes
 * only the files of the type's proto package (and their imports); iterating it decodes every file.
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
export const typeRegistry: Registry = {
  kind: "registry",
  [Symbol.iterator]: () => registryOfAll()[Symbol.iterator](),
  get: (typeName) => registryOfType(typeName)?.get(typeName),
  getMessage: (typeName) => registryOfType(typeName)?.getMessage(typeName),
  getEnum: (typeName) => registryOfType(typeName)?.getEnum(typeName),
  getExtension: (typeName) => registryOfType(typeName)?.getExtension(typeName),
  getExtensionFor: (extendee, no) => registryOfAll().getExtensionFor(extendee, no),
  getService: (typeName) => registryOfType(typeName)?.getService(typeName),
};

/** A read-only map of every message schema by type URL, filled (every file decoded) on first use. */
class MessageMap extends Map<TypeUrl, DescMessage> {
  #filled = false;

  #fill(): void {
    if (!this.#filled) {
      this.#filled = true;
      const entries: [TypeUrl, DescMessage][] = [];
      for (const type of typeRegistry) {
        if (type.kind === "message") entries.push([`/${type.typeName}`, type]);
      }
      entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [url, schema] of entries) super.set(url, schema);
    }
  }

  override get size(): number {
    this.#fill();
    return super.size;
  }
  override get(typeUrl: TypeUrl): DescMessage | undefined {
    this.#fill();
    return super.get(typeUrl);
  }
  override has(typeUrl: TypeUrl): boolean {
    this.#fill();
    return super.has(typeUrl);
  }
  override forEach(
    callback: (value: DescMessage, key: TypeUrl, map: Map<TypeUrl, DescMessage>) => void,
    thisArg?: unknown,
  ): void {
    this.#fill();
    super.forEach(callback, thisArg);
  }
  override entries(): MapIterator<[TypeUrl, DescMessage]> {
    this.#fill();
    return super.entries();
  }
  override keys(): MapIterator<TypeUrl> {
    this.#fill();
    return super.keys();
  }
  override values(): MapIterator<DescMessage> {
    this.#fill();
    return super.values();
  }
  override [Symbol.iterator](): MapIterator<[TypeUrl, DescMessage]> {
    return this.entries();
  }
  override set(): this {
    throw new TypeError("messageRegistry is read-only");
  }
  override delete(): boolean {
    throw new TypeError("messageRegistry is read-only");
  }
  override clear(): void {
    throw new TypeError("messageRegistry is read-only");
  }
}

/**
 * Every generated message schema by type URL (`/perpx.clob.v1.MsgPlaceOrder`), sorted by URL.
 * Its first use decodes every generated file.
 *
 * @example
 * ```ts
 * import { messageRegistry } from "@perpx/proto";
 * for (const [typeUrl, schema] of messageRegistry) console.log(typeUrl, schema.name);
 * ```
 */
export const messageRegistry: ReadonlyMap<TypeUrl, DescMessage> = /*@__PURE__*/ new MessageMap();

/**
 * The type URL of the request of every rpc of every `service Msg` (the messages a transaction can
 * carry), perpx and Cosmos alike, sorted. Read from the descriptors at generation time, so using it
 * decodes nothing.
 *
 * @example
 * ```ts
 * import { msgTypeUrls } from "@perpx/proto";
 * msgTypeUrls.includes("/perpx.clob.v1.MsgPlaceOrder"); // true
 * ```
 */
export const msgTypeUrls: readonly TypeUrl[] = msgRequestTypeUrls;

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
  let schema = schemaByUrl.get(typeUrl);
  if (schema) return schema;
  const slash = typeUrl.lastIndexOf("/");
  schema = slash < 0 ? undefined : typeRegistry.getMessage(typeUrl.slice(slash + 1));
  if (!schema) throw new UnknownTypeUrlError(typeUrl);
  schemaByUrl.set(typeUrl, schema);
  return schema;
}

/** The schemas {@link schemaOf} found, by the exact type URL asked (a transaction asks for a few). */
const schemaByUrl = new Map<string, DescMessage>();

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
