/**
 * Integer encodings of the exchange modules: `SerializableInt` (Go `big.Int.GobEncode`, the wire
 * form of position quantums, funding indexes and open interest) and the fixed-width signed form the
 * modules store (32-byte two's complement), so that a write's gas never depends on the value.
 */
import { decodeUint } from "../codec.js";

const TWO_256 = 1n << 256n;
const MAX_I256 = (1n << 255n) - 1n;

/**
 * SerializableInt bytes: `0x02` (zero or positive) or `0x03` (negative), then the big-endian
 * magnitude with no padding; zero is `[0x02]`.
 *
 * @example
 * ```ts
 * encodeSerializableInt(-256n); // Uint8Array [0x03, 0x01, 0x00]
 * ```
 */
export function encodeSerializableInt(value: bigint): Uint8Array {
  const negative = value < 0n;
  let magnitude = negative ? -value : value;
  const bytes: number[] = [];
  while (magnitude > 0n) {
    bytes.unshift(Number(magnitude & 0xffn));
    magnitude >>= 8n;
  }
  return new Uint8Array([negative ? 0x03 : 0x02, ...bytes]);
}

/**
 * Decodes SerializableInt bytes; empty bytes are 0.
 *
 * @throws RangeError when the sign byte is neither 0x02 nor 0x03.
 */
export function decodeSerializableInt(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n;
  const sign = bytes[0];
  if (sign !== 0x02 && sign !== 0x03) throw new RangeError(`invalid SerializableInt sign byte ${sign}`);
  const magnitude = decodeUint(bytes.subarray(1));
  return sign === 0x03 ? -magnitude : magnitude;
}

/**
 * 32-byte big-endian two's complement of a signed integer (the stored form).
 *
 * @throws RangeError outside the signed 256-bit range.
 */
export function encodeI256(value: bigint): Uint8Array {
  if (value > MAX_I256 || value < -MAX_I256 - 1n) throw new RangeError(`i256 out of range: ${value}`);
  let rest = value < 0n ? TWO_256 + value : value;
  const out = new Uint8Array(32);
  for (let i = 31; i >= 0 && rest > 0n; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

/** Reads a 32-byte two's complement integer written by {@link encodeI256} (undefined: 0). */
export function decodeI256(bytes: Uint8Array | undefined): bigint {
  if (bytes === undefined || bytes.length === 0) return 0n;
  const unsigned = decodeUint(bytes);
  return unsigned > MAX_I256 ? unsigned - TWO_256 : unsigned;
}

/** Floor division of bigints (rounds toward negative infinity). */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** Ceiling division of bigints (rounds toward positive infinity). */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return -floorDiv(-a, b);
}

/** 10^n as a bigint (n >= 0). */
export function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** The absolute value of a bigint. */
export function absBig(value: bigint): bigint {
  return value < 0n ? -value : value;
}
