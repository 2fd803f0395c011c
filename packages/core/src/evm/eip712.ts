/**
 * EIP-712 typed data, pure: `hashTypedData` and its parts, computed by the `ox` library (what viem
 * builds on), plus secp256k1 signer recovery. Our part is the input: values are checked against
 * their types here, before anything is hashed, and a bad one is an `InvalidArgumentError` naming
 * its path (`typedData.message.nonce`); an error of `ox` never escapes unwrapped. The perpx
 * `ServiceTransaction:ApproveAgent` message is built in `../approve-agent.ts` (the root entry) and
 * hashed and verified in `./approval.ts`. All of it is `@perpx/core/eip712`'s, not the root's: the
 * hashing pulls `ox`'s ABI encoder and noble's secp256k1, which a trader's root does not need.
 *
 * The devnet verifies with an implementation of its own (`@perpx/devnet`'s `src/lib/evm`), so a
 * wire test checks one against the other.
 *
 * @module
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
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
  if (/^bytes\d*$/.test(type)) return toHex(value, type, path);
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

/** Signature bytes from bytes or hex (`0x` optional); `undefined` for text that is not hex bytes. */
function signatureBytes(signature: Uint8Array | string): Uint8Array | undefined {
  if (typeof signature !== "string") return signature;
  const hex = signature.replace(/^0[xX]/, "");
  return /^([0-9a-fA-F]{2})*$/.test(hex) ? Bytes.fromHex(`0x${hex}`) : undefined;
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
 * hashTypedData(approveAgentTypedData(params)); // hashApproveAgent(params)
 * ```
 */
export function hashTypedData(typedData: TypedData): Uint8Array {
  const { types, primaryType } = typedData;
  const domain = struct(types, "EIP712Domain", typedData.domain, "typedData.domain");
  const message = struct(types, primaryType, typedData.message, "typedData.message");
  return Bytes.fromHex(
    viaOx("typedData", () =>
      OxTypedData.getSignPayload({ types: types as OxTypes, primaryType, domain, message }),
    ),
  );
}

/**
 * Recovers the 0x address (EIP-55) that produced a 65-byte `r || s || v` signature over a digest
 * (`v` may be 0/1 or 27/28).
 *
 * @param digest - the 32-byte digest that was signed.
 * @param signature - 65 bytes `r || s || v` (v 27/28 or 0/1), as bytes or `0x` hex.
 * @returns the signer's checksummed `0x` address.
 * @throws {InvalidArgumentError} for a malformed signature.
 *
 * @example
 * ```ts
 * // The EIP-712 specification's example, signed by the key keccak256("cow").
 * const mail: TypedData = {
 *   types: {
 *     EIP712Domain: [
 *       { name: "name", type: "string" },
 *       { name: "version", type: "string" },
 *       { name: "chainId", type: "uint256" },
 *       { name: "verifyingContract", type: "address" },
 *     ],
 *     Person: [
 *       { name: "name", type: "string" },
 *       { name: "wallet", type: "address" },
 *     ],
 *     Mail: [
 *       { name: "from", type: "Person" },
 *       { name: "to", type: "Person" },
 *       { name: "contents", type: "string" },
 *     ],
 *   },
 *   primaryType: "Mail",
 *   domain: { name: "Ether Mail", version: "1", chainId: 1, verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC" },
 *   message: {
 *     from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
 *     to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
 *     contents: "Hello, Bob!",
 *   },
 * };
 * const signature =
 *   "0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d" +
 *   "07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c";
 * recoverAddress(hashTypedData(mail), signature); // "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"
 * ```
 */
export function recoverAddress(digest: Uint8Array, signature: Uint8Array | string): `0x${string}` {
  const bytes = typeof signature === "string" ? signatureBytes(signature) : signature;
  if (bytes === undefined || bytes.length !== 65) {
    throw new InvalidArgumentError("signature", "expected 65 bytes r || s || v");
  }
  const v = bytes[64]! >= 27 ? bytes[64]! - 27 : bytes[64]!;
  if (v !== 0 && v !== 1) throw new InvalidArgumentError("signature", `bad recovery id ${bytes[64]}`);
  const recovered = new Uint8Array(65);
  recovered[0] = v;
  recovered.set(bytes.subarray(0, 64), 1);
  const publicKey = secp256k1.recoverPublicKey(recovered, digest, { prehash: false });
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return addressBytesToHex(Hash.keccak256(uncompressed.subarray(1)).subarray(12));
}

/**
 * Checks an Ethereum-style secp256k1 signature over a 32-byte digest against a 20-byte EVM address:
 * `r || s || v` (65 bytes, `v` 0/1/27/28) must recover to the address; a bare `r || s` (64 bytes,
 * as eth_secp256k1 keys verify it, `v` dropped) passes when either recovery id does. High-`s`
 * signatures are refused.
 *
 * @param digest - the 32-byte message hash (Keccak-256 of the signed bytes, or an EIP-712 digest).
 * @param signature - 64 or 65 bytes (or 0x-hex).
 * @param address - the expected signer: 20 bytes, `0x...` or `perpx1...`.
 * @returns true when the signature is the address's.
 *
 * @example
 * ```ts
 * import { secp256k1 } from "@noble/curves/secp256k1.js";
 * import { keccak_256 } from "@noble/hashes/sha3.js";
 *
 * const secret = keccak_256(new TextEncoder().encode("cow")); // the key of 0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826
 * const digest = keccak_256(new TextEncoder().encode("sign bytes"));
 * const recovered = secp256k1.sign(digest, secret, { prehash: false, format: "recovered" }); // v, r, s
 * const signature = Uint8Array.of(...recovered.subarray(1), recovered[0]! + 27); // r, s, v
 * verifyEthSignature(digest, signature, "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"); // true
 * verifyEthSignature(digest, signature, "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"); // false
 * ```
 */
export function verifyEthSignature(
  digest: Uint8Array,
  signature: Uint8Array | string,
  address: Uint8Array | string,
): boolean {
  let expected: Uint8Array;
  try {
    expected = typeof address === "string" ? addressBytes(address) : address;
  } catch {
    return false;
  }
  const bytes = typeof signature === "string" ? signatureBytes(signature) : signature;
  if (bytes === undefined || digest.length !== 32 || expected.length !== 20) return false;
  const candidates: Uint8Array[] = [];
  if (bytes.length === 65) candidates.push(bytes);
  else if (bytes.length === 64) {
    for (const v of [27, 28]) {
      const full = new Uint8Array(65);
      full.set(bytes);
      full[64] = v;
      candidates.push(full);
    }
  } else return false;
  const want = addressBytesToHex(expected).toLowerCase();
  for (const candidate of candidates) {
    try {
      const sig = secp256k1.Signature.fromBytes(candidate.subarray(0, 64), "compact");
      if (sig.hasHighS()) return false;
      if (recoverAddress(digest, candidate).toLowerCase() === want) return true;
    } catch {
      // not recoverable with this id
    }
  }
  return false;
}
