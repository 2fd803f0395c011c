/**
 * The devnet's own EIP-712 typed-data hashing and secp256k1 signer recovery: the reference
 * implementation it verifies ApproveAgent approvals and eth_secp256k1 signatures with. Clients sign
 * with `@perpx/core`, which takes these from the `ox` library; keeping a separate implementation
 * here is what lets a wire test catch a bug in either (one side signs, the other verifies).
 *
 * The digest is `keccak256(0x1901 || hashStruct(EIP712Domain, domain) || hashStruct(primaryType, message))`.
 *
 * @module
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { addressBytes, addressBytesToHex } from "@perpx/address";
import { InvalidArgumentError } from "@perpx/errors";

const HEX = "0123456789abcdef";

function toHexString(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += (HEX[b >> 4] as string) + (HEX[b & 15] as string);
  return out;
}

function fromHexString(text: string): Uint8Array | undefined {
  const hex = text.startsWith("0x") || text.startsWith("0X") ? text.slice(2) : text;
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * One field of an EIP-712 struct type.
 *
 * @example
 * ```ts
 * const field: TypedDataField = { name: "nonce", type: "uint64" };
 * ```
 */
export interface TypedDataField {
  /** The field name. */
  name: string;
  /** The Solidity type: `address`, `bool`, `string`, `bytes`, `bytesN`, `uintN`, `intN`, a struct name, or an array of those. */
  type: string;
}

/**
 * A value in a typed-data message: strings (hex for address/bytes, decimal for ints), numbers, bigints, booleans, bytes, structs, arrays.
 *
 * @example
 * ```ts
 * const value: TypedDataValue = { name: "Bob", wallet: "0xbBbB..." };
 * ```
 */
export type TypedDataValue =
  | string
  | number
  | bigint
  | boolean
  | Uint8Array
  | readonly TypedDataValue[]
  | { readonly [field: string]: TypedDataValue };

/**
 * EIP-712 typed data, the `eth_signTypedData_v4` shape.
 *
 * @example
 * ```ts
 * // The EIP-712 specification's example ("Ether Mail").
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
 * const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
 * hex(hashTypedData(mail)); // "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
 * ```
 */
export interface TypedData {
  /** Every struct type, `EIP712Domain` included. */
  types: Readonly<Record<string, readonly TypedDataField[]>>;
  /** The type of `message`. */
  primaryType: string;
  /** The domain, typed by `types.EIP712Domain`. */
  domain: { readonly [field: string]: TypedDataValue };
  /** The message, typed by `types[primaryType]`. */
  message: { readonly [field: string]: TypedDataValue };
}

const utf8 = new TextEncoder();

function typeError(problem: string): never {
  throw new InvalidArgumentError("typedData", problem);
}

function baseType(type: string): string {
  const bracket = type.indexOf("[");
  return bracket === -1 ? type : type.slice(0, bracket);
}

function dependencies(types: TypedData["types"], type: string, found: Set<string>): Set<string> {
  const name = baseType(type);
  if (found.has(name) || types[name] === undefined) return found;
  found.add(name);
  for (const field of types[name]) dependencies(types, field.type, found);
  return found;
}

/**
 * The EIP-712 `encodeType` of a struct: `Name(type1 field1,...)` followed by every referenced
 * struct type in alphabetical order.
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
  const deps = dependencies(types, primaryType, new Set());
  deps.delete(primaryType);
  const ordered = [primaryType, ...[...deps].sort()];
  return ordered
    .map((name) => {
      const fields = types[name];
      if (fields === undefined) typeError(`unknown type ${JSON.stringify(name)}`);
      return `${name}(${fields.map((f) => `${f.type} ${f.name}`).join(",")})`;
    })
    .join("");
}

/**
 * `keccak256(encodeType(type))`.
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
  return keccak_256(utf8.encode(encodeType(types, primaryType)));
}

function toBigInt(value: TypedDataValue, type: string): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^(-?\d+|0x[0-9a-fA-F]+)$/.test(value)) return BigInt(value);
  return typeError(`expected an integer for ${type}, got ${JSON.stringify(String(value))}`);
}

function word(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = value;
  for (let i = 31; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

function toBytes(value: TypedDataValue, type: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === "string") {
    const bytes = fromHexString(value);
    if (bytes !== undefined && value.startsWith("0x")) return bytes;
  }
  return typeError(`expected 0x-hex or bytes for ${type}`);
}

function encodeValue(types: TypedData["types"], type: string, value: TypedDataValue): Uint8Array {
  if (types[type] !== undefined) {
    if (typeof value !== "object" || value === null || value instanceof Uint8Array || Array.isArray(value)) {
      return typeError(`expected an object for struct ${type}`);
    }
    return hashStruct(types, type, value as { readonly [field: string]: TypedDataValue });
  }
  if (type.endsWith("]")) {
    if (!Array.isArray(value)) return typeError(`expected an array for ${type}`);
    const inner = type.slice(0, type.lastIndexOf("["));
    const length = type.slice(type.lastIndexOf("[") + 1, -1);
    if (length !== "" && Number(length) !== value.length) {
      typeError(`expected ${length} elements for ${type}, got ${value.length}`);
    }
    const parts = (value as readonly TypedDataValue[]).map((item) => encodeValue(types, inner, item));
    return keccak_256(concat(parts));
  }
  if (type === "string") {
    if (typeof value !== "string") return typeError("expected a string");
    return keccak_256(utf8.encode(value));
  }
  if (type === "bytes") return keccak_256(toBytes(value, type));
  if (type === "bool") {
    if (typeof value !== "boolean") return typeError("expected a boolean");
    return word(value ? 1n : 0n);
  }
  if (type === "address") {
    if (typeof value !== "string") return typeError("expected an address string");
    return word(BigInt(`0x${toHexString(addressBytes(value))}`));
  }
  const bytesN = /^bytes(\d+)$/.exec(type);
  if (bytesN) {
    const n = Number(bytesN[1]);
    const bytes = toBytes(value, type);
    if (n < 1 || n > 32 || bytes.length !== n) typeError(`expected ${n} bytes for ${type}`);
    const out = new Uint8Array(32);
    out.set(bytes);
    return out;
  }
  const int = /^(u?)int(\d*)$/.exec(type);
  if (int) {
    const bits = int[2] === "" ? 256 : Number(int[2]);
    if (bits < 8 || bits > 256 || bits % 8 !== 0) typeError(`bad integer type ${type}`);
    const v = toBigInt(value, type);
    const unsigned = int[1] === "u";
    const min = unsigned ? 0n : -(1n << BigInt(bits - 1));
    const max = unsigned ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
    if (v < min || v > max) typeError(`${v} is out of range for ${type}`);
    return word(v < 0n ? (1n << 256n) + v : v);
  }
  return typeError(`unknown type ${JSON.stringify(type)}`);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * EIP-712 `hashStruct`: `keccak256(typeHash || encodeData(data))`.
 *
 * @throws {InvalidArgumentError} for an unknown type or a value that does not fit its type.
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
  const fields = types[primaryType];
  if (fields === undefined) return typeError(`unknown type ${JSON.stringify(primaryType)}`);
  const parts = [hashType(types, primaryType)];
  for (const field of fields) {
    const value = data[field.name];
    if (value === undefined) typeError(`missing field ${primaryType}.${field.name}`);
    parts.push(encodeValue(types, field.type, value));
  }
  return keccak_256(concat(parts));
}

/**
 * The EIP-712 digest to sign: `keccak256(0x19 0x01 || hashStruct(EIP712Domain, domain) || hashStruct(primaryType, message))`.
 *
 * @example
 * ```ts
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
 * Buffer.from(hashTypedData(mail)).toString("hex"); // "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
 * ```
 */
export function hashTypedData(typedData: TypedData): Uint8Array {
  const domainSeparator = hashStruct(typedData.types, "EIP712Domain", typedData.domain);
  const messageHash = hashStruct(typedData.types, typedData.primaryType, typedData.message);
  return keccak_256(concat([new Uint8Array([0x19, 0x01]), domainSeparator, messageHash]));
}

/**
 * Recovers the 0x address (EIP-55) that produced a 65-byte `r || s || v` signature over a digest
 * (`v` may be 0/1 or 27/28).
 *
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
  const bytes = typeof signature === "string" ? fromHexString(signature) : signature;
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
  return addressBytesToHex(keccak_256(uncompressed.subarray(1)).subarray(12));
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
  const bytes = typeof signature === "string" ? fromHexString(signature) : signature;
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

/**
 * Whether a 65-byte `r || s || v` signature over the EIP-712 digest of `typedData` recovers to
 * `signer` (the devnet's check of an approval: its own hashing and recovery, not the client's).
 *
 * @param typedData - the typed data that was signed.
 * @param signature - 65 bytes `r || s || v` (bytes or 0x-hex), `v` 0/1 or 27/28.
 * @param signer - the expected signer's 20 bytes.
 * @returns true when the signature is the signer's; false for another signer or a malformed signature.
 *
 * @example
 * ```ts
 * import { secp256k1 } from "@noble/curves/secp256k1.js";
 * import { keccak_256 } from "@noble/hashes/sha3.js";
 *
 * const typedData: TypedData = {
 *   types: { EIP712Domain: [{ name: "name", type: "string" }], Note: [{ name: "text", type: "string" }] },
 *   primaryType: "Note",
 *   domain: { name: "example" },
 *   message: { text: "hello" },
 * };
 * const secret = keccak_256(new TextEncoder().encode("cow")); // the key of 0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826
 * const recovered = secp256k1.sign(hashTypedData(typedData), secret, { prehash: false, format: "recovered" });
 * const signature = Uint8Array.of(...recovered.subarray(1), recovered[0]! + 27);
 * const cow = Buffer.from("cd2a3d9f938e13cd947ec05abc7fe734df8dd826", "hex");
 * typedDataSignedBy(typedData, signature, cow); // true
 * typedDataSignedBy(typedData, signature, new Uint8Array(20)); // false
 * ```
 */
export function typedDataSignedBy(
  typedData: TypedData,
  signature: Uint8Array | string,
  signer: Uint8Array,
): boolean {
  let recovered: string;
  try {
    recovered = recoverAddress(hashTypedData(typedData), signature);
  } catch {
    return false;
  }
  return recovered.toLowerCase() === addressBytesToHex(signer).toLowerCase();
}
