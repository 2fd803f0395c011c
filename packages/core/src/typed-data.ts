/**
 * The shapes of EIP-712 typed data (`eth_signTypedData_v4`): types only, so the root entry can
 * describe the ApproveAgent message without the hashing, which is `@perpx/core/evm`'s
 * (`./evm/eip712.ts`, on the `ox` library).
 *
 * @module
 */
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
 * import { hashTypedData } from "@perpx/core/evm";
 *
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
