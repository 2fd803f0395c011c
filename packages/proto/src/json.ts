import {
  type DescMessage,
  fromBinary,
  fromJson,
  type JsonValue,
  type MessageShape,
  toBinary,
  toJson,
} from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { ProtoDecodeError } from "./errors.js";
import { typeRegistry } from "./registry.js";

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

/**
 * Parses proto3 JSON as the Cosmos SDK's REST gateway writes it (snake_case or camelCase names,
 * 64-bit integers as strings, `Any` as `{"@type": "/x.y.Z", ...}`), resolving `Any` through
 * {@link typeRegistry}. Unlike plain `fromJson`, every `Any` it creates, nested ones included, keeps
 * the Cosmos type URL `/x.y.Z` rather than `type.googleapis.com/x.y.Z`, so its bytes are what a
 * Cosmos chain signs and hashes.
 *
 * @param schema - the message schema.
 * @param json - the parsed JSON value.
 * @returns the message.
 * @throws {ProtoDecodeError} when the JSON does not match the schema or names an unknown `@type`.
 *
 * @example
 * ```ts
 * import { cosmosAuth, fromCosmosJson } from "@perpx/proto";
 * const response = fromCosmosJson(cosmosAuth.QueryAccountResponseSchema, await (await fetch(url)).json());
 * response.account?.typeUrl; // "/cosmos.auth.v1beta1.BaseAccount"
 * ```
 */
export function fromCosmosJson<Desc extends DescMessage>(schema: Desc, json: JsonValue): MessageShape<Desc> {
  let message: MessageShape<Desc>;
  try {
    message = fromJson(schema, json, { registry: typeRegistry });
  } catch (cause) {
    throw new ProtoDecodeError(schema.typeName, "invalid JSON", { cause });
  }
  cosmosTypeUrls(message);
  return message;
}

/**
 * How {@link toCosmosJson} writes.
 *
 * @example
 * ```ts
 * toCosmosJson(cosmosAuth.BaseAccountSchema, account, { snakeCase: false, emitDefaults: false });
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
 * `{"@type": "/x.y.Z", ...}` (resolved through {@link typeRegistry}).
 *
 * @param schema - the message schema.
 * @param message - the message.
 * @param options - field naming and default values.
 * @returns the JSON value.
 * @throws {Error} from protobuf-es, when an `Any` holds a type that is not in the registry.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { cosmosBase, toCosmosJson } from "@perpx/proto";
 * toCosmosJson(cosmosBase.CoinSchema, create(cosmosBase.CoinSchema, { denom: "aperpx" }));
 * // { denom: "aperpx", amount: "" }
 * ```
 */
export function toCosmosJson<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  options: CosmosJsonOptions = {},
): JsonValue {
  return toJson(schema, message, {
    registry: typeRegistry,
    useProtoFieldName: options.snakeCase ?? true,
    alwaysEmitImplicit: options.emitDefaults ?? true,
  });
}
