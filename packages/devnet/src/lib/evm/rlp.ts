/**
 * Recursive Length Prefix (RLP), the serialization of Ethereum transactions: an item is a byte
 * string or a list of items. Decoding is strict (canonical encodings only), as execution clients
 * require for transactions.
 *
 * The devnet's own hand-written reference implementation: clients encode with `ox` (through
 * `@perpx/core/evm`), so every wire test checks one implementation against the other.
 */
import { InvalidArgumentError } from "@perpx/errors";

/**
 * An RLP item: a byte string or a list of items.
 *
 * @example
 * ```ts
 * const item: RlpItem = [new TextEncoder().encode("cat"), [new Uint8Array(0)]];
 * ```
 */
export type RlpItem = Uint8Array | readonly RlpItem[];

function lengthBytes(length: number): Uint8Array {
  const out: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) out.unshift(n % 256);
  return Uint8Array.from(out);
}

function withPrefix(payload: Uint8Array, shortBase: number): Uint8Array {
  if (payload.length <= 55) {
    const out = new Uint8Array(1 + payload.length);
    out[0] = shortBase + payload.length;
    out.set(payload, 1);
    return out;
  }
  const len = lengthBytes(payload.length);
  const out = new Uint8Array(1 + len.length + payload.length);
  out[0] = shortBase + 55 + len.length;
  out.set(len, 1);
  out.set(payload, 1 + len.length);
  return out;
}

/**
 * Encodes an RLP item.
 *
 * @example
 * ```ts
 * rlpEncode(new TextEncoder().encode("dog")); // Uint8Array.of(0x83, 0x64, 0x6f, 0x67)
 * rlpEncode([]); // Uint8Array.of(0xc0)
 * ```
 */
export function rlpEncode(item: RlpItem): Uint8Array {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && (item[0] as number) < 0x80) return Uint8Array.from(item);
    return withPrefix(item, 0x80);
  }
  const parts = item.map(rlpEncode);
  const payload = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    payload.set(p, offset);
    offset += p.length;
  }
  return withPrefix(payload, 0xc0);
}

function fail(problem: string): never {
  throw new InvalidArgumentError("rlp", problem);
}

function readLength(bytes: Uint8Array, start: number, size: number): number {
  if (start + size > bytes.length) fail("length runs past the end of the input");
  if (bytes[start] === 0) fail("length has a leading zero byte");
  let n = 0;
  for (let i = 0; i < size; i++) n = n * 256 + (bytes[start + i] as number);
  if (n <= 55) fail("long form used for a length of 55 bytes or less");
  if (!Number.isSafeInteger(n)) fail("length too large");
  return n;
}

function decodeAt(bytes: Uint8Array, pos: number): { item: RlpItem; end: number } {
  const first = bytes[pos];
  if (first === undefined) fail("unexpected end of input");
  if (first < 0x80) return { item: bytes.slice(pos, pos + 1), end: pos + 1 };
  let start: number;
  let length: number;
  const isList = first >= 0xc0;
  const base = isList ? 0xc0 : 0x80;
  if (first - base <= 55) {
    start = pos + 1;
    length = first - base;
  } else {
    const size = first - base - 55;
    length = readLength(bytes, pos + 1, size);
    start = pos + 1 + size;
  }
  const end = start + length;
  if (end > bytes.length) fail(`item of ${length} bytes runs past the end of the input`);
  if (!isList) {
    if (length === 1 && (bytes[start] as number) < 0x80) fail("single byte below 0x80 must encode as itself");
    return { item: bytes.slice(start, end), end };
  }
  const items: RlpItem[] = [];
  let at = start;
  while (at < end) {
    const next = decodeAt(bytes, at);
    if (next.end > end) fail("list item runs past the end of its list");
    items.push(next.item);
    at = next.end;
  }
  return { item: items, end };
}

/**
 * Decodes exactly one RLP item (canonical encodings only).
 *
 * @throws {InvalidArgumentError} (argument `rlp`) for truncated, non-canonical or trailing input.
 *
 * @example
 * ```ts
 * rlpDecode(Uint8Array.of(0xc8, 0x83, 0x63, 0x61, 0x74, 0x83, 0x64, 0x6f, 0x67)); // [Uint8Array.of(0x63, 0x61, 0x74), Uint8Array.of(0x64, 0x6f, 0x67)]
 * rlpDecode(Uint8Array.of(0x81, 0x05)); // throws InvalidArgumentError
 * ```
 */
export function rlpDecode(bytes: Uint8Array): RlpItem {
  const { item, end } = decodeAt(bytes, 0);
  if (end !== bytes.length) fail(`${bytes.length - end} trailing byte(s) after the item`);
  return item;
}

/**
 * The minimal big-endian bytes of a non-negative integer (RLP's integer form: 0 is empty).
 *
 * @example
 * ```ts
 * uintToBytes(1024n); // Uint8Array.of(0x04, 0x00)
 * uintToBytes(0n).length; // 0
 * ```
 */
export function uintToBytes(value: bigint): Uint8Array {
  if (value < 0n) throw new InvalidArgumentError("value", `${value} is negative`);
  const out: number[] = [];
  for (let n = value; n > 0n; n >>= 8n) out.unshift(Number(n & 0xffn));
  return Uint8Array.from(out);
}

/**
 * Reads an RLP integer (minimal big-endian bytes).
 *
 * @throws {InvalidArgumentError} naming `field` for a list or a leading zero byte.
 *
 * @example
 * ```ts
 * bytesToUint(Uint8Array.of(4, 0), "nonce"); // 1024n
 * ```
 */
export function bytesToUint(item: RlpItem | undefined, field: string): bigint {
  if (!(item instanceof Uint8Array)) throw new InvalidArgumentError(field, "expected an integer, got a list");
  if (item.length > 0 && item[0] === 0)
    throw new InvalidArgumentError(field, "integer has a leading zero byte");
  let n = 0n;
  for (const b of item) n = (n << 8n) | BigInt(b);
  return n;
}
