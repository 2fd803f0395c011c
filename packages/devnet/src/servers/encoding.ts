/**
 * Byte and time encodings shared by the servers: CometBFT prints hashes as uppercase hex, other bytes
 * as base64, 64-bit integers as decimal strings and times as RFC 3339 with nanoseconds.
 */

import { toHex } from "../app/codec.js";

// The encoders are the application's; the servers add lenient decoders for what clients send.
export { toBase64, toHex as toHexLower } from "../app/codec.js";

/** Uppercase hex of `bytes` (CometBFT `HexBytes`). */
export function toHexUpper(bytes: Uint8Array): string {
  return toHex(bytes).toUpperCase();
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

/** Decodes hex (an optional `0x` prefix is accepted); undefined when it is not hex. */
export function fromHex(text: string): Uint8Array | undefined {
  const body = text.startsWith("0x") || text.startsWith("0X") ? text.slice(2) : text;
  if (!HEX.test(body)) return undefined;
  return new Uint8Array(Buffer.from(body, "hex"));
}

/** Decodes standard or URL-safe base64; undefined when it is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  if (BASE64.test(text)) return new Uint8Array(Buffer.from(text, "base64"));
  if (BASE64URL.test(text)) return new Uint8Array(Buffer.from(text, "base64url"));
  return undefined;
}

/** RFC 3339 with nine fractional digits, as Go's `time.RFC3339Nano` prints a UTC time with full precision. */
export function rfc3339Nanos(time: Date, nanos: number): string {
  const iso = time.toISOString(); // 2024-01-02T03:04:05.678Z
  const seconds = iso.slice(0, 19);
  const frac = String(nanos).padStart(9, "0");
  return `${seconds}.${frac}Z`;
}

/**
 * Nanoseconds within the second of a block time: the record's `timeNanos` (which carries the full
 * sub-second part), falling back to the milliseconds of `time`.
 */
export function nanosOf(time: Date, timeNanos: number | undefined): number {
  if (timeNanos !== undefined && Number.isInteger(timeNanos) && timeNanos >= 0 && timeNanos < 1e9) {
    return timeNanos;
  }
  return (time.getTime() % 1000) * 1_000_000;
}

/** Parses a non-negative decimal integer string; undefined when it is not one. */
export function parseUint(text: string): bigint | undefined {
  if (!/^\d{1,20}$/.test(text)) return undefined;
  return BigInt(text);
}

/** `0x`-prefixed hex quantity (Ethereum JSON-RPC): no leading zeros, `0x0` for zero. */
export function toQuantity(value: bigint | number): string {
  return `0x${BigInt(value).toString(16)}`;
}
