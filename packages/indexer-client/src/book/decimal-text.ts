/**
 * Exact ordering of decimal price strings without converting them to numbers: a canonical form
 * (no leading zeros in the integer part, no trailing zeros in the fraction) compares by integer
 * length, then as text.
 */
import { InvalidArgumentError } from "@perpx/errors";

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * The canonical text of a non-negative decimal (`"065000.50"` becomes `"65000.5"`).
 *
 * @throws {InvalidArgumentError} when `text` is not a plain non-negative decimal.
 */
export function canonicalDecimal(text: string, name = "price"): string {
  if (typeof text !== "string" || !DECIMAL.test(text)) {
    throw new InvalidArgumentError(
      name,
      `must be a non-negative decimal string, got ${JSON.stringify(text)}`,
    );
  }
  const dot = text.indexOf(".");
  let end = text.length;
  if (dot !== -1) {
    while (text.charCodeAt(end - 1) === 48) end--;
    if (end === dot + 1) end = dot;
  }
  let start = 0;
  const intEnd = dot === -1 ? end : Math.min(dot, end);
  while (start < intEnd - 1 && text.charCodeAt(start) === 48) start++;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** True when a decimal string is zero (`"0"`, `"0.00"`). */
export function isZeroDecimal(text: string): boolean {
  if (text === "0") return true;
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
