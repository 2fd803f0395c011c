/**
 * Byte and time encodings shared by the servers: CometBFT prints hashes as uppercase hex, other bytes
 * as base64, 64-bit integers as decimal strings and times as RFC 3339 with nanoseconds.
 */

import { toHex } from "../app/lib/codec.js";

// The encoders are the application's; the servers add lenient decoders for what clients send.
export { toBase64, toHex as toHexLower } from "../app/lib/codec.js";

/** Uppercase hex of `bytes` (CometBFT `HexBytes`). */
export function toHexUpper(bytes: Uint8Array): string {
  return toHex(bytes).toUpperCase();
}

/** Whether `code` is a hex digit. */
function isHexDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/** Whether `code` is a letter or a digit (shared by both base64 alphabets). */
function isAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Whether `text` from `start` is an even number of hex digits (one pass, no regular expression). */
function isHexBody(text: string, start: number): boolean {
  if ((text.length - start) % 2 !== 0) return false;
  for (let i = start; i < text.length; i++) if (!isHexDigit(text.charCodeAt(i))) return false;
  return true;
}

/** Number of `=` at the end of `text` (up to 3, so that 3 is "too many"). */
function paddingOf(text: string): number {
  let n = 0;
  while (n < 3 && n < text.length && text.charCodeAt(text.length - 1 - n) === 61) n++;
  return n;
}

/**
 * Which base64 `text` is, in one pass: `"std"` for standard base64 (alphabet `+/`, padded to a
 * multiple of 4 or unpadded), `"url"` for the URL-safe alphabet (`-_`, up to two `=`), undefined
 * for neither. Linear and non-recursive: a multi-megabyte tx is checked in constant stack.
 */
export function base64Kind(text: string): "std" | "url" | undefined {
  const padding = paddingOf(text);
  if (padding > 2) return undefined;
  const body = text.length - padding;
  let std = true;
  let url = true;
  for (let i = 0; i < body; i++) {
    const code = text.charCodeAt(i);
    if (isAlnum(code)) continue;
    if (code === 43 || code === 47)
      url = false; // + /
    else if (code === 45 || code === 95)
      std = false; // - _
    else return undefined;
  }
  if (std) {
    const tail = body % 4;
    const ok = padding === 0 ? tail !== 1 : text.length % 4 === 0 && tail === 4 - padding;
    if (ok) return "std";
  }
  return url ? "url" : undefined;
}

/** Decodes hex (an optional `0x` prefix is accepted); undefined when it is not hex. */
export function fromHex(text: string): Uint8Array | undefined {
  const start = text.startsWith("0x") || text.startsWith("0X") ? 2 : 0;
  if (!isHexBody(text, start)) return undefined;
  return new Uint8Array(Buffer.from(start === 0 ? text : text.slice(start), "hex"));
}

/** Decodes standard or URL-safe base64; undefined when it is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  const kind = base64Kind(text);
  if (kind === undefined) return undefined;
  return new Uint8Array(Buffer.from(text, kind === "std" ? "base64" : "base64url"));
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
