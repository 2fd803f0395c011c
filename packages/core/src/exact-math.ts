import { InvalidArgumentError, shortenRedacted } from "@perpx/errors";

/**
 * The integer half of {@link Exact}: powers of ten, rounded integer division in the nine rounding
 * modes of ECMA-402 (`Intl.NumberFormat`'s `roundingMode`), and the plain written form of
 * `coefficient × 10^-scale`, and the reading of its inputs. Everything here works on bigints, so
 * nothing is ever approximated.
 */

/**
 * How a value that falls between two representable ones is rounded, by the names of ECMA-402's
 * `roundingMode`: `ceil` toward +∞, `floor` toward −∞, `expand` away from zero, `trunc` toward
 * zero; the `half*` modes go to the nearer neighbour and break a tie the way their suffix says
 * (`halfEven`: to the even neighbour, banker's rounding).
 *
 * @example
 * ```ts
 * const rounding: ExactRounding = "halfEven";
 * new Exact("2.5").toFixed(0, rounding); // "2"
 * new Exact("-2.5").toFixed(0, "halfExpand"); // "-3"
 * new Exact("-2.5").toFixed(0, "floor"); // "-3"
 * ```
 */
export type ExactRounding =
  | "ceil"
  | "floor"
  | "expand"
  | "trunc"
  | "halfCeil"
  | "halfFloor"
  | "halfExpand"
  | "halfTrunc"
  | "halfEven";

/** The rounding modes, for validation. */
const ROUNDINGS: ReadonlySet<string> = new Set<ExactRounding>([
  "ceil",
  "floor",
  "expand",
  "trunc",
  "halfCeil",
  "halfFloor",
  "halfExpand",
  "halfTrunc",
  "halfEven",
]);

const pow10Cache: bigint[] = [];

/** 10^n for an integer n >= 0. */
export function pow10(n: number): bigint {
  if (n < 80) {
    let cached = pow10Cache[n];
    if (cached === undefined) {
      cached = 10n ** BigInt(n);
      pow10Cache[n] = cached;
    }
    return cached;
  }
  return 10n ** BigInt(n);
}

/** `numerator / denominator` rounded to an integer by `rounding`; `denominator` is not zero. */
export function divideRounded(numerator: bigint, denominator: bigint, rounding: ExactRounding): bigint {
  let n = numerator;
  let d = denominator;
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const quotient = n / d; // truncated toward zero
  const remainder = n % d; // the sign of n
  if (remainder === 0n) return quotient;
  const away = n < 0n ? quotient - 1n : quotient + 1n;
  switch (rounding) {
    case "trunc":
      return quotient;
    case "expand":
      return away;
    case "floor":
      return n < 0n ? away : quotient;
    case "ceil":
      return n < 0n ? quotient : away;
  }
  const twice = 2n * (remainder < 0n ? -remainder : remainder);
  if (twice < d) return quotient;
  if (twice > d) return away;
  switch (rounding) {
    case "halfTrunc":
      return quotient;
    case "halfExpand":
      return away;
    case "halfFloor":
      return n < 0n ? away : quotient;
    case "halfCeil":
      return n < 0n ? quotient : away;
    default:
      return quotient % 2n === 0n ? quotient : away;
  }
}

/** The number of decimal digits of |value| (1 for 0). */
export function digitCount(value: bigint): number {
  return (value < 0n ? -value : value).toString().length;
}

/** `coefficient × 10^-scale` without trailing zeros in its fraction: `[coefficient, scale]`. */
export function normalize(coefficient: bigint, scale: number): [bigint, number] {
  if (coefficient === 0n) return [0n, 0];
  let c = coefficient;
  let s = scale;
  for (let i = 0; i < 16 && s > 0 && c % 10n === 0n; i++) {
    c /= 10n;
    s--;
  }
  if (s > 0 && c % 10n === 0n) {
    // many trailing zeros ("1." and 100,000 zeros): count them in the text, one division instead
    // of one per zero (quadratic in the length)
    const digits = c.toString();
    let zeros = 0;
    while (zeros < s && digits[digits.length - 1 - zeros] === "0") zeros++;
    c /= pow10(zeros);
    s -= zeros;
  }
  return [c, s];
}

/**
 * `coefficient × 10^-scale` in plain notation (never an exponent), with exactly `scale` fraction
 * digits; no sign for zero.
 */
export function formatPlain(coefficient: bigint, scale: number): string {
  const negative = coefficient < 0n;
  const digits = (negative ? -coefficient : coefficient).toString();
  let text = digits;
  if (scale > 0) {
    const padded = digits.padStart(scale + 1, "0");
    text = `${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`;
  }
  return negative ? `-${text}` : text;
}

/**
 * A decimal object of another library that converts itself to plain text: a `decimal.js` `Decimal`
 * (or a clone) is one. {@link Exact} takes it through `toFixed()`, after checking `isFinite()`.
 *
 * @example
 * ```ts
 * const half: DecimalLike = { isFinite: () => true, toFixed: () => "0.5" };
 * new Exact(half).plus("1").toString(); // "1.5"
 * ```
 */
export interface DecimalLike {
  /** False for NaN and infinities, which are refused. */
  isFinite(): boolean;
  /** The value in plain notation, every digit kept. */
  toFixed(): string;
}

/**
 * The precision of a division (or of a rounding): a number of fraction digits (`scale`) or of
 * significant digits, and how to round to it.
 *
 * @example
 * ```ts
 * const cents: ExactPrecision = { scale: 2, rounding: "halfEven" };
 * new Exact("10").dividedBy("3", cents).toString(); // "3.33"
 * new Exact("20000").dividedBy("3", { significantDigits: 3, rounding: "trunc" }).toString(); // "6660"
 * ```
 */
export type ExactPrecision =
  | { readonly scale: number; readonly rounding: ExactRounding }
  | { readonly significantDigits: number; readonly rounding: ExactRounding };

/** The largest written exponent (in absolute value) and the largest scale or digit count asked for. */
const MAX_EXPONENT = 1000;
const DECIMAL_TEXT = /^([+-]?)(\d+\.?\d*|\.\d+)(?:[eE]([+-]?\d+))?$/;

/** Throws the typed error of a bad value, naming its field. */
export function refuse(field: string, problem: string): never {
  throw new InvalidArgumentError(field, problem);
}

/** A value as an error message shows it (any secret in it redacted, then shortened). */
export function show(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : String(value);
  } catch {
    text = `a ${typeof value}`;
  }
  return shortenRedacted(text, 80);
}

/** Reads a decimal string: an optional sign, digits with an optional point, an optional exponent. */
function parseText(text: string, field: string): [bigint, number] {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return refuse(field, `must be a decimal number, got ${show(text)}`);
  const [, sign, body = "", written] = match;
  const exponent = written === undefined ? 0 : Number(written);
  if (!(Math.abs(exponent) <= MAX_EXPONENT)) {
    return refuse(field, `has an exponent beyond ±${MAX_EXPONENT}: ${show(text)}`);
  }
  const dot = body.indexOf(".");
  const digits = dot === -1 ? body : body.slice(0, dot) + body.slice(dot + 1);
  const magnitude = BigInt(digits === "" ? "0" : digits);
  const coefficient = sign === "-" ? -magnitude : magnitude;
  const scale = (dot === -1 ? 0 : body.length - dot - 1) - exponent;
  return scale >= 0 ? [coefficient, scale] : [coefficient * pow10(-scale), 0];
}

/** The parts of any input but an `Exact` (which the class takes as it is). */
export function partsOf(value: string | bigint | number | DecimalLike, field: string): [bigint, number] {
  if (typeof value === "string") return parseText(value, field);
  if (typeof value === "bigint") return [value, 0];
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return [BigInt(value), 0];
    return refuse(field, `must be a decimal string, not the JS number ${value} (not exact)`);
  }
  const like = value as Partial<DecimalLike> | null;
  // a DecimalLike has both methods: a boxed `new Number(0.5)` has only toFixed(), which rounds
  // to "1", and is refused like the primitive's fraction rather than taken as a whole number
  if (
    typeof like === "object" &&
    like !== null &&
    typeof like.toFixed === "function" &&
    typeof like.isFinite === "function"
  ) {
    if (!like.isFinite()) {
      return refuse(field, `must be finite, got ${show(value)}`);
    }
    // decimal.js keeps its exponent in `e`: refuse a huge one (as a written exponent is refused)
    // before toFixed() writes every digit of 1e9000000000000000
    const exponent = (value as { e?: unknown }).e;
    if (typeof exponent === "number" && !(Math.abs(exponent) <= MAX_EXPONENT)) {
      return refuse(field, `has an exponent beyond ±${MAX_EXPONENT}: ${show(value)}`);
    }
    const text = like.toFixed();
    if (typeof text === "string") return parseText(text, field);
  }
  return refuse(field, `must be a decimal string, a Decimal or a bigint, got ${show(value)}`);
}

/** Checks a count of digits (a scale, decimals, significant digits): an integer from `min` to 1000. */
export function checkCount(field: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min || value > MAX_EXPONENT) {
    refuse(field, `must be an integer from ${min} to ${MAX_EXPONENT}, got ${show(value)}`);
  }
}

/** Checks a rounding mode. */
export function checkRounding(rounding: ExactRounding): void {
  if (!ROUNDINGS.has(rounding)) {
    refuse("rounding", `must be one of ${[...ROUNDINGS].join(", ")}, got ${show(rounding)}`);
  }
}
