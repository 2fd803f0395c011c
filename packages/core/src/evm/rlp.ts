/**
 * Recursive Length Prefix (RLP), the serialization of Ethereum transactions, from the `ox` library:
 * an item is a byte string or a list of items. Errors of `ox` come out as `InvalidArgumentError`.
 */
import { InvalidArgumentError } from "@perpx/errors";
import * as Bytes from "ox/Bytes";
import * as Rlp from "ox/Rlp";
import { viaOx } from "./ox-error.js";

/**
 * An RLP item: a byte string or a list of items.
 *
 * @example
 * ```ts
 * const item: RlpItem = [new TextEncoder().encode("cat"), [new Uint8Array(0)]];
 * ```
 */
export type RlpItem = Uint8Array | readonly RlpItem[];

/**
 * Encodes an RLP item.
 *
 * @param item - a byte string or a (nested) list of them.
 * @returns the encoding.
 *
 * @example
 * ```ts
 * rlpEncode(new TextEncoder().encode("dog")); // Uint8Array.of(0x83, 0x64, 0x6f, 0x67)
 * rlpEncode([]); // Uint8Array.of(0xc0)
 * ```
 */
export function rlpEncode(item: RlpItem): Uint8Array {
  return viaOx("rlp", () => Rlp.from(item as Bytes.Bytes, { as: "Bytes" }));
}

/**
 * Decodes exactly one RLP item.
 *
 * @param bytes - the encoding.
 * @returns the item.
 * @throws {InvalidArgumentError} (argument `rlp`) for truncated or trailing input.
 *
 * @example
 * ```ts
 * rlpDecode(Uint8Array.of(0xc8, 0x83, 0x63, 0x61, 0x74, 0x83, 0x64, 0x6f, 0x67)); // [Uint8Array.of(0x63, 0x61, 0x74), Uint8Array.of(0x64, 0x6f, 0x67)]
 * rlpDecode(Uint8Array.of(0x83, 0x64)); // throws InvalidArgumentError
 * ```
 */
export function rlpDecode(bytes: Uint8Array): RlpItem {
  if (bytes.length === 0) throw new InvalidArgumentError("rlp", "empty input");
  return viaOx("rlp", () => Rlp.toBytes(bytes) as RlpItem);
}

/**
 * The minimal big-endian bytes of a non-negative integer (RLP's integer form: 0 is empty).
 *
 * @param value - a non-negative integer.
 * @returns its bytes, without leading zeros.
 * @throws {InvalidArgumentError} (argument `value`) for a negative integer.
 *
 * @example
 * ```ts
 * uintToBytes(1024n); // Uint8Array.of(0x04, 0x00)
 * uintToBytes(0n).length; // 0
 * ```
 */
export function uintToBytes(value: bigint): Uint8Array {
  if (value < 0n) throw new InvalidArgumentError("value", `${value} is negative`);
  return value === 0n ? new Uint8Array(0) : Bytes.fromNumber(value);
}

/**
 * Reads an RLP integer (minimal big-endian bytes).
 *
 * @param item - a decoded RLP item.
 * @param field - the name the error gives.
 * @returns the integer.
 * @throws {InvalidArgumentError} naming `field` for a list or a leading zero byte.
 *
 * @example
 * ```ts
 * bytesToUint(Uint8Array.of(4, 0), "nonce"); // 1024n
 * ```
 */
export function bytesToUint(item: RlpItem | undefined, field: string): bigint {
  if (!(item instanceof Uint8Array)) throw new InvalidArgumentError(field, "expected an integer, got a list");
  if (item[0] === 0) throw new InvalidArgumentError(field, "integer has a leading zero byte");
  return item.length === 0 ? 0n : Bytes.toBigInt(item);
}
