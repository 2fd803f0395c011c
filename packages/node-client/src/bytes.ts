/** Small byte helpers shared by the package (no Node-only APIs). */

const HEX = "0123456789abcdef";

/**
 * Lowercase hex of `bytes`, without `0x`.
 *
 * @param bytes - the bytes to encode.
 * @returns two lowercase hex digits per byte.
 * @example
 * ```ts
 * toHexString(new Uint8Array([1, 255])); // "01ff"
 * ```
 */
export function toHexString(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += HEX[b >> 4]! + HEX[b & 15]!;
  return out;
}

/**
 * Decodes hex (with or without `0x`, either case). Returns `undefined` for anything that is not an
 * even number of hex digits, so callers can throw their own typed error.
 *
 * @param text - hex digits, with or without `0x`.
 * @returns the bytes, or `undefined` when the text is not hex of whole bytes.
 * @example
 * ```ts
 * fromHexString("0x01ff"); // Uint8Array.of(1, 255)
 * ```
 */
export function fromHexString(text: string): Uint8Array | undefined {
  const hex = text.startsWith("0x") || text.startsWith("0X") ? text.slice(2) : text;
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Standard base64 (with padding) of `bytes`.
 *
 * @param bytes - the bytes to encode.
 * @returns the base64 text.
 * @example
 * ```ts
 * toBase64(new Uint8Array([1, 2, 3])); // "AQID"
 * ```
 */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * Decodes standard base64. Throws a `DOMException` on bad input (callers wrap it).
 *
 * @param text - standard base64 with padding.
 * @returns the decoded bytes.
 * @example
 * ```ts
 * fromBase64("AQID"); // Uint8Array.of(1, 2, 3)
 * ```
 */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * True when two byte arrays hold the same bytes.
 *
 * @example
 * ```ts
 * bytesEqual(new Uint8Array([1]), new Uint8Array([1])); // true
 * ```
 */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
