/**
 * EIP-712 typed data, pure: `hashTypedData` and its parts, computed by the `ox` library (what viem
 * builds on). Our part is the input: values are checked against
 * their types here, before anything is hashed, and a bad one is an `InvalidArgumentError` naming
 * its path (`typedData.message.nonce`); an error of `ox` never escapes unwrapped. The perpx
 * `ServiceTransaction:ApproveAgent` message is built in `../approve-agent.ts` (the root entry) and
 * hashed in `./approval.ts`. It is `@perpx/core/evm`'s, not the root's: the hashing pulls `ox`'s ABI
 * encoder, which a trader's root does without. Signer recovery is `./recover.ts`
 * (`@perpx/core/evm-verify`).
 *
 * The devnet verifies with an implementation of its own (`@perpx/devnet`'s `src/lib/evm`), so a
 * wire test checks one against the other.
 *
 * @module
 */
import { addressBytes, addressBytesToHex } from "@perpx/address";
import { InvalidArgumentError } from "@perpx/errors";
import * as Bytes from "ox/Bytes";
import * as Hash from "ox/Hash";
import * as Hex from "ox/Hex";
import * as OxTypedData from "ox/TypedData";
import type { TypedData, TypedDataValue } from "../typed-data.js";
import { viaOx } from "./ox-error.js";

type Types = TypedData["types"];
type OxTypes = OxTypedData.TypedData;

function bad(path: string, problem: string): never {
  throw new InvalidArgumentError(path, problem);
}

function isStruct(value: TypedDataValue): value is { readonly [field: string]: TypedDataValue } {
  return typeof value === "object" && !(value instanceof Uint8Array) && !Array.isArray(value);
}

function toBigInt(value: TypedDataValue, type: string, path: string): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^(-?\d+|0x[0-9a-fA-F]+)$/.test(value)) return BigInt(value);
  return bad(path, `expected an integer for ${type}, got ${JSON.stringify(String(value))}`);
}

function toHex(value: TypedDataValue, type: string, path: string): Hex.Hex {
  if (value instanceof Uint8Array) return Hex.fromBytes(value);
  if (typeof value === "string" && /^0x([0-9a-fA-F]{2})*$/.test(value)) return value as Hex.Hex;
  return bad(path, `expected 0x-hex or bytes for ${type}`);
}

/**
 * The value as `ox` takes it (addresses EIP-55 hex, bytes hex, integers bigint), checked against
 * its type; `path` names it in the error.
 */
function normalize(types: Types, type: string, value: TypedDataValue, path: string): unknown {
  const fields = types[type];
  if (fields !== undefined) {
    if (!isStruct(value)) return bad(path, `expected an object for struct ${type}`);
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      const item = value[field.name];
      if (item === undefined) bad(`${path}.${field.name}`, `missing field ${type}.${field.name}`);
      out[field.name] = normalize(types, field.type, item, `${path}.${field.name}`);
    }
    return out;
  }
  const array = /^(.+)\[(\d*)\]$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) return bad(path, `expected an array for ${type}`);
    const items = value as readonly TypedDataValue[];
    if (array[2] !== "" && Number(array[2]) !== items.length) {
      bad(path, `expected ${array[2]} elements for ${type}, got ${items.length}`);
    }
    return items.map((item, i) => normalize(types, array[1] as string, item, `${path}[${i}]`));
  }
  if (type === "string") return typeof value === "string" ? value : bad(path, "expected a string");
  if (type === "bool") return typeof value === "boolean" ? value : bad(path, "expected a boolean");
  if (type === "address") {
    if (typeof value !== "string") return bad(path, "expected an address string");
    try {
      return addressBytesToHex(addressBytes(value));
    } catch (cause) {
      throw new InvalidArgumentError(path, `${JSON.stringify(value)} is not an address`, { cause });
    }
  }
  const bytes = /^bytes(\d*)$/.exec(type);
  if (bytes) {
    const hex = toHex(value, type, path);
    const size = (hex.length - 2) / 2;
    return bytes[1] === "" || Number(bytes[1]) === size
      ? hex
      : bad(path, `expected ${bytes[1]} bytes for ${type}, got ${size}`);
  }
  const int = /^(u?)int(\d*)$/.exec(type);
  if (int) {
    const bits = BigInt(int[2] || 256);
    const v = toBigInt(value, type, path);
    const [min, max] =
      int[1] === "u" ? [0n, (1n << bits) - 1n] : [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n];
    return v < min || v > max ? bad(path, `${v} is out of range for ${type}`) : v;
  }
  return bad(path, `unknown type ${JSON.stringify(type)}`);
}

function struct(types: Types, type: string, data: TypedDataValue, path: string): Record<string, unknown> {
  if (types[type] === undefined) bad(path, `unknown type ${JSON.stringify(type)}`);
  return normalize(types, type, data, path) as Record<string, unknown>;
}

/**
 * The EIP-712 `encodeType` of a struct: `Name(type1 field1,...)` followed by every referenced
 * struct type in alphabetical order.
 *
 * @param types - the struct types, by name.
 * @param primaryType - the struct to encode.
 * @returns the type string: the primary struct, then every struct it references, sorted by name.
 *
 * @example
 * ```ts
 * const types = {
 *   Person: [
 *     { name: "name", type: "string" },
 *     { name: "wallet", type: "address" },
 *   ],
 *   Mail: [
 *     { name: "from", type: "Person" },
 *     { name: "to", type: "Person" },
 *     { name: "contents", type: "string" },
 *   ],
 * };
 * encodeType(types, "Mail"); // "Mail(Person from,Person to,string contents)Person(string name,address wallet)"
 * ```
 */
export function encodeType(types: TypedData["types"], primaryType: string): string {
  if (types[primaryType] === undefined) bad("primaryType", `unknown type ${JSON.stringify(primaryType)}`);
  return OxTypedData.encodeType({ types: types as OxTypes, primaryType });
}

/**
 * `keccak256(encodeType(type))`.
 *
 * @param types - the struct types, by name.
 * @param primaryType - the struct to hash.
 * @returns the 32-byte Keccak-256 of {@link encodeType}'s string (the type hash).
 *
 * @example
 * ```ts
 * const types = {
 *   Person: [
 *     { name: "name", type: "string" },
 *     { name: "wallet", type: "address" },
 *   ],
 *   Mail: [
 *     { name: "from", type: "Person" },
 *     { name: "to", type: "Person" },
 *     { name: "contents", type: "string" },
 *   ],
 * };
 * const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
 * hex(hashType(types, "Mail")); // "a0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2"
 * ```
 */
export function hashType(types: TypedData["types"], primaryType: string): Uint8Array {
  encodeType(types, primaryType);
  return Bytes.fromHex(OxTypedData.hashType({ types: types as OxTypes, primaryType }));
}

/**
 * EIP-712 `hashStruct`: `keccak256(typeHash || encodeData(data))`.
 *
 * @param types - every struct type the data refers to.
 * @param primaryType - the type of `data`.
 * @param data - the struct's values.
 * @returns the 32-byte hash.
 * @throws {InvalidArgumentError} for an unknown type or a value that does not fit its type, named by its path (`data.wallet`).
 *
 * @example
 * ```ts
 * const types = {
 *   Person: [
 *     { name: "name", type: "string" },
 *     { name: "wallet", type: "address" },
 *   ],
 *   Mail: [
 *     { name: "from", type: "Person" },
 *     { name: "to", type: "Person" },
 *     { name: "contents", type: "string" },
 *   ],
 * };
 * const mail = {
 *   from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
 *   to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
 *   contents: "Hello, Bob!",
 * };
 * const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
 * hex(hashStruct(types, "Mail", mail)); // "c52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e"
 * ```
 */
export function hashStruct(
  types: TypedData["types"],
  primaryType: string,
  data: { readonly [field: string]: TypedDataValue },
): Uint8Array {
  const value = struct(types, primaryType, data, "data");
  return Bytes.fromHex(
    viaOx("data", () => OxTypedData.hashStruct({ types: types as OxTypes, primaryType, data: value })),
  );
}

/**
 * The EIP-712 digest to sign: `keccak256(0x19 0x01 || hashStruct(EIP712Domain, domain) || hashStruct(primaryType, message))`.
 *
 * @param typedData - types, primary type, domain and message, as `eth_signTypedData_v4` takes them.
 * @returns the 32-byte digest.
 * @throws {InvalidArgumentError} for a value that does not fit its type, named by its path (`typedData.message.nonce`).
 *
 * @example
 * ```ts
 * import { secp256k1 } from "@noble/curves/secp256k1.js";
 *
 * const params: ApproveAgentParams = {
 *   evmChainId: 31337,
 *   masterAddress: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
 *   agentPublicKey: secp256k1.getPublicKey(new Uint8Array(32).fill(2)),
 *   nonce: 1_700_000_000_000,
 * };
 * hashTypedData(approveAgentTypedData(params)).length; // 32
 * ```
 */
export function hashTypedData(typedData: TypedData): Uint8Array {
  const { types, primaryType } = typedData;
  const domain = struct(types, "EIP712Domain", typedData.domain, "typedData.domain");
  const message = struct(types, primaryType, typedData.message, "typedData.message");
  // `0x19 0x01 || domainSeparator || hashStruct(message)` (no message part when the primary type is
  // the domain), from ox's `hashDomain` and `hashStruct`. Its `getSignPayload` would first run its
  // own value checks, which the values checked above do not need (and a bundle would carry).
  return viaOx("typedData", () => {
    const parts: Hex.Hex[] = ["0x1901", OxTypedData.hashDomain({ domain, types: types as OxTypes })];
    if (primaryType !== "EIP712Domain")
      parts.push(OxTypedData.hashStruct({ types: types as OxTypes, primaryType, data: message }));
    return Hash.keccak256(Bytes.fromHex(Hex.concat(...parts)));
  });
}
