/**
 * Exact ordering of decimal price strings without converting them to numbers: a canonical form
 * (no leading zeros in the integer part, no trailing zeros in the fraction) compares by integer
 * length, then as text.
 */
import { InvalidArgumentError } from "@perpx/errors";

/** Index of the dot in a plain non-negative decimal (`text.length` when none), or -1 when not one. */
function dotOf(text: string): number {
  const length = text.length;
  let dot = length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (dot !== length || i === 0 || i === length - 1) return -1;
      dot = i;
    } else if (c < 48 || c > 57) {
      return -1;
    }
  }
  return length === 0 ? -1 : dot;
}

/**
 * The canonical text of a non-negative decimal (`"065000.50"` becomes `"65000.5"`).
 *
 * @throws {InvalidArgumentError} when `text` is not a plain non-negative decimal.
 */
export function canonicalDecimal(text: string, name = "price"): string {
  const dot = typeof text === "string" ? dotOf(text) : -1;
  if (dot === -1) {
    throw new InvalidArgumentError(
      name,
      `must be a non-negative decimal string, got ${JSON.stringify(text)}`,
    );
  }
  let end = text.length;
  if (dot !== end) {
    while (text.charCodeAt(end - 1) === 48) end--;
    if (end === dot + 1) end = dot;
  }
  let start = 0;
  while (start < dot - 1 && text.charCodeAt(start) === 48) start++;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/**
 * True when a decimal string is zero (`"0"`, `"0.00"`).
 *
 * @throws {InvalidArgumentError} when `text` is not a plain non-negative decimal.
 */
export function isZeroDecimal(text: string, name = "size"): boolean {
  if (text === "0") return true;
  if (typeof text !== "string" || dotOf(text) === -1) {
    throw new InvalidArgumentError(
      name,
      `must be a non-negative decimal string, got ${JSON.stringify(text)}`,
    );
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 48 && c !== 46) return false;
  }
  return true;
}

/** Compares two canonical decimals: negative, zero or positive as `a` is below, equal to or above `b`. */
export function compareDecimals(a: string, b: string): number {
  if (a === b) return 0;
  const aDot = a.indexOf(".");
  const bDot = b.indexOf(".");
  const aInt = aDot === -1 ? a.length : aDot;
  const bInt = bDot === -1 ? b.length : bDot;
  if (aInt !== bInt) return aInt - bInt;
  return a < b ? -1 : 1;
}
