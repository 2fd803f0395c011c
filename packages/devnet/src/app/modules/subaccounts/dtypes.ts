/**
 * Integer helpers of the exchange modules: the fixed-width signed form the modules store (32-byte
 * two's complement), so that a write's gas never depends on the value, and bigint division and
 * powers. The wire form, `SerializableInt`, is `encodeSerializableInt`/`decodeSerializableInt` of
 * `@perpx/proto`.
 */
import { DevnetError } from "../../../devnet-error.js";
import { decodeUint, getU32 } from "../../lib/codec.js";

const MAX_I256 = (1n << 255n) - 1n;
const MIN_I256 = -MAX_I256 - 1n;

/**
 * Writes `value` (a signed 256-bit integer) as 32-byte two's complement at `offset` of `out`, whose
 * 32 bytes there are zero. A negative value is written as the bitwise complement of `-value - 1`,
 * so only the words that magnitude needs cost bigint arithmetic (most amounts fit one or two).
 */
function writeI256(out: Uint8Array, offset: number, value: bigint): void {
  const negative = value < 0n;
  let rest = negative ? -value - 1n : value;
  for (let at = offset + 28; at >= offset && rest > 0n; at -= 4) {
    const word = rest <= 0xffffffffn ? Number(rest) : Number(BigInt.asUintN(32, rest));
    out[at] = word >>> 24;
    out[at + 1] = word >>> 16;
    out[at + 2] = word >>> 8;
    out[at + 3] = word;
    rest = rest <= 0xffffffffn ? 0n : rest >> 32n;
  }
  if (negative) for (let i = offset; i < offset + 32; i++) out[i] = 255 - (out[i] as number);
}

/**
 * The signed 256-bit integer in the 32 bytes at `offset` of `bytes` (two's complement, big-endian;
 * the caller checked the bounds): a negative one is read as the complement of its words, so only
 * the words of its magnitude cost bigint arithmetic.
 */
function readI256(bytes: Uint8Array, offset: number): bigint {
  const flip = (bytes[offset] as number) >= 0x80 ? 0xffffffff : 0;
  let at = offset;
  const end = offset + 32;
  while (at < end && (getU32(bytes, at) ^ flip) === 0) at += 4;
  let magnitude = 0n;
  for (; at < end; at += 4) {
    const word = BigInt((getU32(bytes, at) ^ flip) >>> 0);
    magnitude = magnitude === 0n ? word : (magnitude << 32n) | word;
  }
  return flip === 0 ? magnitude : -magnitude - 1n;
}

/**
 * 32-byte big-endian two's complement of a signed integer (the stored form).
 *
 * @throws {DevnetError} (`out-of-range`) outside the signed 256-bit range.
 */
export function encodeI256(value: bigint): Uint8Array {
  if (value > MAX_I256 || value < MIN_I256)
    throw new DevnetError("out-of-range", `i256 out of range: ${value}`);
  const out = new Uint8Array(32);
  writeI256(out, 0, value);
  return out;
}

/** Reads a 32-byte two's complement integer written by {@link encodeI256} (undefined: 0). */
export function decodeI256(bytes: Uint8Array | undefined): bigint {
  if (bytes === undefined || bytes.length === 0) return 0n;
  if (bytes.length === 32) return readI256(bytes, 0);
  const unsigned = decodeUint(bytes);
  return unsigned > MAX_I256 ? unsigned - (1n << 256n) : unsigned;
}

/**
 * Writes {@link encodeI256} of `value` at `offset` of `out`, a zeroed buffer (a zero, such as most
 * funding indexes and quote balances, leaves it as it is).
 *
 * @throws {DevnetError} (`out-of-range`) outside the signed 256-bit range.
 */
export function putI256(out: Uint8Array, offset: number, value: bigint): void {
  if (value === 0n) return;
  if (value > MAX_I256 || value < MIN_I256)
    throw new DevnetError("out-of-range", `i256 out of range: ${value}`);
  writeI256(out, offset, value);
}

/** {@link decodeI256} of the 32 bytes at `offset` of `bytes` (a zero is read without bigint arithmetic). */
export function decodeI256At(bytes: Uint8Array, offset: number): bigint {
  const end = offset + 32;
  if (offset < 0 || end > bytes.length) return decodeI256(bytes.subarray(offset, end));
  for (let i = offset; i < end; i++) if (bytes[i] !== 0) return readI256(bytes, offset);
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
  const q = a / b;
  // Truncation rounds a positive inexact quotient down: one more then.
  return a % b !== 0n && a < 0n === b < 0n ? q + 1n : q;
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
