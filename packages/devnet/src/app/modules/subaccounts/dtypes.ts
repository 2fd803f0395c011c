/**
 * Integer helpers of the exchange modules: the fixed-width signed form the modules store (32-byte
 * two's complement), so that a write's gas never depends on the value, and bigint division and
 * powers. The wire form, `SerializableInt`, is `encodeSerializableInt`/`decodeSerializableInt` of
 * `@perpx/proto`.
 */
import { DevnetError } from "../../../devnet-error.js";
import { decodeUint, encodeU256 } from "../../lib/codec.js";

const TWO_256 = 1n << 256n;
const MAX_I256 = (1n << 255n) - 1n;

/**
 * 32-byte big-endian two's complement of a signed integer (the stored form).
 *
 * @throws {DevnetError} (`out-of-range`) outside the signed 256-bit range.
 */
export function encodeI256(value: bigint): Uint8Array {
  if (value > MAX_I256 || value < -MAX_I256 - 1n)
    throw new DevnetError("out-of-range", `i256 out of range: ${value}`);
  return encodeU256(value < 0n ? TWO_256 + value : value);
}

/** Reads a 32-byte two's complement integer written by {@link encodeI256} (undefined: 0). */
export function decodeI256(bytes: Uint8Array | undefined): bigint {
  if (bytes === undefined || bytes.length === 0) return 0n;
  const unsigned = decodeUint(bytes);
  return unsigned > MAX_I256 ? unsigned - TWO_256 : unsigned;
}

/**
 * Writes {@link encodeI256} of `value` at `offset` of `out`, a zeroed buffer (a zero, such as most
 * funding indexes and quote balances, leaves it as it is).
 */
export function putI256(out: Uint8Array, offset: number, value: bigint): void {
  if (value !== 0n) out.set(encodeI256(value), offset);
}

/** {@link decodeI256} of the 32 bytes at `offset` of `bytes` (a zero is read without bigint arithmetic). */
export function decodeI256At(bytes: Uint8Array, offset: number): bigint {
  const end = offset + 32;
  for (let i = offset; i < end; i++) if (bytes[i] !== 0) return decodeI256(bytes.subarray(offset, end));
  return 0n;
}

/** Floor division of bigints (rounds toward negative infinity). */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** `value × ppm / 1e6` rounded toward negative infinity (the chain's `lib.BigMulPpm(value, ppm, false)`). */
export function mulPpmFloor(value: bigint, ppm: bigint | number): bigint {
  return floorDiv(value * BigInt(ppm), 1_000_000n);
}

/** Ceiling division of bigints (rounds toward positive infinity). */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return -floorDiv(-a, b);
}

/** 10^0 .. 10^63, computed once (the margin math raises 10 on every position it prices). */
const POWERS_OF_10 = Array.from({ length: 64 }, (_, n) => 10n ** BigInt(n));

/** 10^n as a bigint (n >= 0). */
export function pow10(n: number): bigint {
  return POWERS_OF_10[n] ?? 10n ** BigInt(n);
}

/** The absolute value of a bigint. */
export function absBig(value: bigint): bigint {
  return value < 0n ? -value : value;
}
