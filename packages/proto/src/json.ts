import {
  type DescField,
  type DescMessage,
  fromBinary,
  fromJson,
  type JsonObject,
  type JsonValue,
  type Message,
  type MessageShape,
  toBinary,
  toJson,
} from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import type { Any } from "@bufbuild/protobuf/wkt";
import { ProtoDecodeError } from "./errors.js";
import { typeRegistry } from "./registry.js";
import { decodeAt, encodeSerializableInt, isSerializableIntField, parseAt } from "./serializable-int.js";

const GOOGLE_PREFIX = "type.googleapis.com/";

function isAny(value: object): value is Any {
  return (value as { $typeName?: unknown }).$typeName === "google.protobuf.Any";
}

/** Rewrites, in place and recursively (inside Any values too), `type.googleapis.com/` type URLs to `/`. */
function cosmosTypeUrls(value: unknown): void {
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return;
  if (Array.isArray(value)) {
    for (const item of value) cosmosTypeUrls(item);
    return;
  }
  if (isAny(value) && value.typeUrl.startsWith(GOOGLE_PREFIX)) {
    const name = value.typeUrl.slice(GOOGLE_PREFIX.length);
    const schema = typeRegistry.getMessage(name);
    if (schema) {
      const inner = fromBinary(schema, value.value);
      cosmosTypeUrls(inner);
      value.value = toBinary(schema, inner);
    }
    value.typeUrl = `/${name}`;
    return;
  }
  for (const field of Object.values(value)) cosmosTypeUrls(field);
}

const ANY = "google.protobuf.Any";

/** The message type of a message, list-of-message or map-of-message field. */
function messageOfField(field: DescField): DescMessage | undefined {
  if (field.fieldKind === "message") return field.message;
  if (field.fieldKind === "list" && field.listKind === "message") return field.message;
  if (field.fieldKind === "map" && field.mapKind === "message") return field.message;
  return undefined;
}

const mayHold = new WeakMap<DescMessage, boolean>();

/**
 * Whether a message of `desc` can hold a SerializableInt at any depth (an `Any` can hold anything).
 * A walk of every reachable type, so recursive types are answered right.
 */
function mayHoldInts(desc: DescMessage): boolean {
  let answer = mayHold.get(desc);
  if (answer === undefined) {
    answer = false;
    const seen = new Set<DescMessage>();
    const stack = [desc];
    for (let next = stack.pop(); next !== undefined && !answer; next = stack.pop()) {
      if (seen.has(next)) continue;
      seen.add(next);
      if (next.typeName === ANY) answer = true;
      for (const field of next.fields) {
        if (isSerializableIntField(field)) answer = true;
        const inner = messageOfField(field);
        if (inner) stack.push(inner);
      }
    }
    mayHold.set(desc, answer);
  }
  return answer;
}

/** The fields of a message type that the JSON conversion of SerializableInts visits. */
interface Plan {
  /** SerializableInt fields. */
  readonly ints: ReadonlySet<DescField>;
  /** Message fields whose messages may hold SerializableInts. */
  readonly nested: ReadonlySet<DescField>;
  /** Both, by proto name and by JSON name. */
  readonly byKey: ReadonlyMap<string, DescField>;
}

const plans = new WeakMap<DescMessage, Plan | null>();

/** The plan of a (non-`Any`) message type; `undefined` when none of its messages holds a SerializableInt. */
function planOf(desc: DescMessage): Plan | undefined {
  let plan = plans.get(desc);
  if (plan === undefined) {
    plan = null;
    if (mayHoldInts(desc)) {
      const ints = desc.fields.filter(isSerializableIntField);
      const nested = desc.fields.filter((f) => {
        const inner = messageOfField(f);
        return inner !== undefined && mayHoldInts(inner);
      });
      const byKey = new Map<string, DescField>();
      for (const field of [...ints, ...nested]) byKey.set(field.name, field).set(field.jsonName, field);
      plan = { ints: new Set(ints), nested: new Set(nested), byKey };
    }
    plans.set(desc, plan);
  }
  return plan ?? undefined;
}

function isObject(json: JsonValue | undefined): json is JsonObject {
  return typeof json === "object" && json !== null && !Array.isArray(json);
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/** The schema an `Any` names (by its `type.googleapis.com/x.y.Z` or `/x.y.Z` URL), if registered. */
function anySchema(typeUrl: unknown): DescMessage | undefined {
  if (typeof typeUrl !== "string") return undefined;
  return typeRegistry.getMessage(typeUrl.slice(typeUrl.lastIndexOf("/") + 1));
}

/** A field's value in a message, oneof members included (`undefined` when another case is set). */
function fieldValue(message: Message, field: DescField): unknown {
  const record = message as unknown as Record<string, unknown>;
  if (field.oneof === undefined) return record[field.localName];
  const oneof = record[field.oneof.localName] as { case: string | undefined; value?: unknown };
  return oneof.case === field.localName ? oneof.value : undefined;
}

/** Rewrites, in place, the SerializableInt fields of `json` (written by `toJson` from `message`) as decimal strings. */
function printInts(
  desc: DescMessage,
  message: Message,
  json: JsonValue | undefined,
  snake: boolean,
  path: string,
): void {
  if (!isObject(json)) return;
  if (desc.typeName === ANY) {
    const any = message as Any;
    const inner = anySchema(any.typeUrl);
    if (inner === undefined || !mayHoldInts(inner)) return;
    printInts(inner, fromBinary(inner, any.value), json, snake, path);
    return;
  }
  const plan = planOf(desc);
  if (plan === undefined) return;
  for (const field of [...plan.ints, ...plan.nested]) {
    const key = snake ? field.name : field.jsonName;
    const value = fieldValue(message, field);
    if (json[key] === undefined || json[key] === null || value === undefined) continue;
    const at = join(path, key);
    if (plan.ints.has(field)) {
      json[key] =
        field.fieldKind === "list"
          ? (value as Uint8Array[]).map((bytes, i) => decodeAt(bytes, `${at}[${i}]`).toString())
          : decodeAt(value as Uint8Array, at).toString();
      continue;
    }
    const inner = messageOfField(field) as DescMessage;
    const target = json[key];
    if (field.fieldKind === "list" && Array.isArray(target)) {
      for (const [i, m] of (value as Message[]).entries())
        printInts(inner, m, target[i], snake, `${at}[${i}]`);
    } else if (field.fieldKind === "map" && isObject(target)) {
      for (const [k, m] of Object.entries(value as Record<string, Message>)) {
        printInts(inner, m, target[k], snake, `${at}[${k}]`);
      }
    } else printInts(inner, value as Message, target, snake, at);
  }
}

/**
 * Returns `json` with the decimal strings of SerializableInt fields replaced by the base64 of their
 * bytes, as `fromJson` reads `bytes`; copies only what changes.
 */
function readInts(desc: DescMessage, json: JsonValue, path: string): JsonValue {
  if (!isObject(json)) return json;
  if (desc.typeName === ANY) {
    const inner = anySchema(json["@type"]);
    return inner === undefined || !mayHoldInts(inner) ? json : readInts(inner, json, path);
  }
  const plan = planOf(desc);
  if (plan === undefined) return json;
  let out: JsonObject | undefined;
  for (const [key, value] of Object.entries(json)) {
    const field = plan.byKey.get(key);
    if (field === undefined || value === null) continue;
    const at = join(path, key);
    let next: JsonValue = value;
    if (plan.ints.has(field)) {
      const bytes = (v: JsonValue, where: string) => base64Encode(encodeSerializableInt(parseAt(v, where)));
      if (field.fieldKind !== "list") next = bytes(value, at);
      else if (Array.isArray(value)) next = value.map((v, i) => bytes(v, `${at}[${i}]`));
    } else {
      const inner = messageOfField(field) as DescMessage;
      if (field.fieldKind === "list") {
        if (Array.isArray(value)) next = value.map((v, i) => readInts(inner, v, `${at}[${i}]`));
      } else if (field.fieldKind === "map") {
        if (isObject(value)) {
          next = Object.fromEntries(
            Object.entries(value).map(([k, v]) => [k, readInts(inner, v, `${at}[${k}]`)]),
          );
        }
      } else next = readInts(inner, value, at);
    }
    if (next !== value) {
      out ??= { ...json };
      out[key] = next;
    }
  }
  return out ?? json;
}

/**
 * Parses proto3 JSON as the Cosmos SDK's REST gateway writes it (snake_case or camelCase names,
 * 64-bit integers as strings, `Any` as `{"@type": "/x.y.Z", ...}`), resolving `Any` through
 * {@link typeRegistry}. Unlike plain `fromJson`, every `Any` it creates, nested ones included, keeps
 * the Cosmos type URL `/x.y.Z` rather than `type.googleapis.com/x.y.Z`, so its bytes are what a
 * Cosmos chain signs and hashes. SerializableInt fields (see {@link isSerializableIntField}) are read
 * from decimal strings (`"quantums": "-1500"`), at any depth and inside `Any` values.
 *
 * @param schema - the message schema.
 * @param json - the parsed JSON value.
 * @param options - whether unknown fields are an error.
 * @returns the message.
 * @throws {ProtoDecodeError} when the JSON does not match the schema or names an unknown `@type`.
 * @throws {SerializableIntError} when a SerializableInt field is not a decimal integer; its `field`
 *   names the field (`subaccount.asset_positions[0].quantums`).
 *
 * @example
 * ```ts
 * import { cosmosAuth, fromCosmosJson, subaccounts } from "@perpx/proto";
 * const json = {
 *   account: { "@type": "/cosmos.auth.v1beta1.BaseAccount", address: "perpx1alice", account_number: "7", sequence: "2" },
 * };
 * const response = fromCosmosJson(cosmosAuth.QueryAccountResponseSchema, json);
 * response.account?.typeUrl; // "/cosmos.auth.v1beta1.BaseAccount"
 * fromCosmosJson(subaccounts.AssetPositionSchema, { quantums: "-5" }).quantums; // Uint8Array.of(0x03, 0x05)
 * ```
 */
export function fromCosmosJson<Desc extends DescMessage>(
  schema: Desc,
  json: JsonValue,
  options: CosmosJsonReadOptions = {},
): MessageShape<Desc> {
  const input = readInts(schema, json, "");
  let message: MessageShape<Desc>;
  try {
    message = fromJson(schema, input, {
      registry: typeRegistry,
      ignoreUnknownFields: options.ignoreUnknownFields ?? false,
    });
  } catch (cause) {
    throw new ProtoDecodeError(schema.typeName, "invalid JSON", { cause });
  }
  cosmosTypeUrls(message);
  return message;
}

/**
 * How {@link fromCosmosJson} reads.
 *
 * @example
 * ```ts
 * import { cosmosAuth, fromCosmosJson } from "@perpx/proto";
 * const json = { address: "perpx1alice", account_number: "7", sequence: "2", added_later: true };
 * const account = fromCosmosJson(cosmosAuth.BaseAccountSchema, json, { ignoreUnknownFields: true });
 * account.accountNumber; // 7n
 * ```
 */
export interface CosmosJsonReadOptions {
  /**
   * Skip fields the schema does not know (a node of a newer version may add some) instead of failing.
   * @default false
   */
  readonly ignoreUnknownFields?: boolean;
}

/**
 * How {@link toCosmosJson} writes.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { cosmosAuth, toCosmosJson } from "@perpx/proto";
 * const account = create(cosmosAuth.BaseAccountSchema, { address: "perpx1alice", accountNumber: 7n });
 * toCosmosJson(cosmosAuth.BaseAccountSchema, account, { snakeCase: false, emitDefaults: false });
 * // { address: "perpx1alice", accountNumber: "7" }
 * ```
 */
export interface CosmosJsonOptions {
  /**
   * Write proto field names (`account_number`), as the Cosmos REST gateway does; `false` writes
   * JSON names (`accountNumber`).
   * @default true
   */
  readonly snakeCase?: boolean;
  /**
   * Write fields that hold their default value (`"sequence": "0"`, `"memo": ""`), as the Cosmos
   * REST gateway does. Unset message fields are omitted either way (the gateway writes `null`).
   * @default true
   */
  readonly emitDefaults?: boolean;
}

/**
 * Writes a message as proto3 JSON in the Cosmos SDK REST gateway's style: snake_case field names,
 * default values written, enums by name, 64-bit integers as strings, `Any` as
 * `{"@type": "/x.y.Z", ...}` (resolved through {@link typeRegistry}), and SerializableInt fields
 * (see {@link isSerializableIntField}) as decimal strings (`"quantums": "1000000"`; a list as an
 * array of them), as the chain writes genesis and REST answers.
 *
 * @param schema - the message schema.
 * @param message - the message.
 * @param options - field naming and default values.
 * @returns the JSON value.
 * @throws {Error} from protobuf-es, when an `Any` holds a type that is not in the registry.
 * @throws {SerializableIntError} when a SerializableInt field holds bytes with a bad sign byte.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { cosmosBase, encodeSerializableInt, subaccounts, toCosmosJson } from "@perpx/proto";
 * toCosmosJson(cosmosBase.CoinSchema, create(cosmosBase.CoinSchema, { denom: "aperpx" }));
 * // { denom: "aperpx", amount: "" }
 * const usdc = create(subaccounts.AssetPositionSchema, { quantums: encodeSerializableInt(-5n) });
 * toCosmosJson(subaccounts.AssetPositionSchema, usdc); // { asset_id: 0, quantums: "-5", index: "0" }
 * ```
 */
export function toCosmosJson<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  options: CosmosJsonOptions = {},
): JsonValue {
  const snakeCase = options.snakeCase ?? true;
  const json = toJson(schema, message, {
    registry: typeRegistry,
    useProtoFieldName: snakeCase,
    alwaysEmitImplicit: options.emitDefaults ?? true,
  });
  printInts(schema, message, json, snakeCase, "");
  return json;
}
