import { InvalidArgumentError, shortenRedacted } from "@perpx/errors";
import { type AmountKind, InvalidAmountError } from "./errors.js";
import type { Exact } from "./exact.js";
import { type DecimalLike, pow10 } from "./exact-math.js";

/**
 * A human amount: a canonical decimal string (digits with one optional `.` between digits, as
 * {@link CANONICAL_DECIMAL_PATTERN} says: `"28688.5"`, `"0.0001"`), an {@link Exact}, or a finite
 * `decimal.js` `Decimal` (any {@link DecimalLike}, taken exactly as its plain-notation `toFixed()`).
 * Anything else is an `InvalidAmountError` (`not-a-decimal`) before anything is signed: spaces, a
 * `+`, an exponent (`"1e-4"`), a bare `.` end (`".5"`, `"5."`), JS numbers (they cannot hold most
 * decimal fractions exactly). A leading `-` is read, so `"-1"` is refused as `not-positive` where an
 * amount must be positive. At most 1,000 characters, and a `Decimal`'s exponent within ±1,000
 * (`out-of-range`).
 *
 * @example
 * ```ts
 * import { Decimal } from "decimal.js";
 *
 * const size: DecimalInput = "0.01";
 * const price: DecimalInput = new Exact("57377").dividedBy(2, { scale: 0, rounding: "floor" });
 * const legacy: DecimalInput = new Decimal("28688");
 * const tiny: DecimalInput = new Decimal("1e-4"); // a Decimal may be built from any notation
 * ```
 */
export type DecimalInput = string | Exact | DecimalLike;

/**
 * An integer amount in base units: a `bigint`, a decimal integer string (as JSON APIs send them),
 * or a safe-integer `number`.
 *
 * @example
 * ```ts
 * const quantums: IntegerInput = 100_000_000n;
 * ```
 */
export type IntegerInput = bigint | string | number;

/**
 * The one written form of a decimal that the SDK takes from its users, as a regular-expression
 * source (and the JSON Schema `pattern` of every decimal field of the agent server): ASCII digits
 * with one optional `.` that has digits on both sides. No sign, spaces, exponent or leading `.`.
 *
 * @example
 * ```ts
 * const canonical = new RegExp(CANONICAL_DECIMAL_PATTERN);
 * canonical.test("28688.5"); // true
 * canonical.test("1e5"); // false
 * canonical.test(".5"); // false
 * ```
 */
export const CANONICAL_DECIMAL_PATTERN = "^[0-9]+(\\.[0-9]+)?$";

/** An exact decimal value: `coefficient × 10^exponent`. Internal. */
export interface ExactDecimal {
  readonly coefficient: bigint;
  readonly exponent: number;
}

/** Largest exponent (in absolute value) of a `Decimal` input. */
const MAX_WRITTEN_EXPONENT = 1000;
/** Longest decimal string read (a u64 of quantums at 18 decimals is under 40 characters). */
const MAX_WRITTEN_LENGTH = 1000;
const CANONICAL_DECIMAL = new RegExp(CANONICAL_DECIMAL_PATTERN);

/** An `Exact` or a decimal.js `Decimal`: both are {@link DecimalLike}s. */
function isDecimalInstance(value: unknown): value is DecimalLike {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { isFinite?: unknown }).isFinite === "function" &&
    typeof (value as { toFixed?: unknown }).toFixed === "function"
  );
}

/**
 * The input as shown in error messages: a string as written, quoted when it is not canonical, with
 * any secret in it redacted before it is shortened (a cut secret would no longer look like one).
 */
export function showInput(input: unknown): string {
  let text: string;
  if (typeof input === "string") {
    const shown = shortenRedacted(input, 100);
    return isCanonical(input) ? shown : JSON.stringify(shown);
  }
  if (isDecimalInstance(input)) text = input.toString();
  else if (typeof input === "object" && input !== null)
    return Array.isArray(input) ? "an array" : "an object";
  else text = String(input);
  return shortenRedacted(text, 100);
}

/** True for a canonical decimal, after an optional leading `-`. */
function isCanonical(text: string): boolean {
  return CANONICAL_DECIMAL.test(text.startsWith("-") ? text.slice(1) : text);
}

function notADecimal(input: unknown, kind: AmountKind, problem: string): InvalidAmountError {
  return new InvalidAmountError({ kind, value: showInput(input), reason: "not-a-decimal", problem });
}

function outOfRange(input: unknown, kind: AmountKind, problem: string): InvalidAmountError {
  return new InvalidAmountError({ kind, value: showInput(input), reason: "out-of-range", problem });
}

/**
 * Parses a user's decimal exactly: a canonical decimal string ({@link CANONICAL_DECIMAL_PATTERN},
 * after an optional leading `-`) or a finite `Decimal` (its plain-notation `toFixed()`).
 *
 * @throws {InvalidAmountError} (`not-a-decimal`, `out-of-range`) naming `kind` and the value.
 */
export function parseDecimal(input: DecimalInput, kind: AmountKind): ExactDecimal {
  let text: string;
  if (typeof input === "string") {
    text = input;
  } else if (isDecimalInstance(input)) {
    if (!input.isFinite()) throw notADecimal(input, kind, "must be finite");
    // decimal.js keeps its exponent in `e`: refuse a huge one before toFixed() writes every digit
    const exponent = (input as { e?: unknown }).e;
    if (typeof exponent === "number" && Math.abs(exponent) > MAX_WRITTEN_EXPONENT) {
      throw outOfRange(input, kind, `exponent beyond ±${MAX_WRITTEN_EXPONENT}`);
    }
    text = input.toFixed();
  } else {
    const type = typeof input;
    const got =
      input === null || type === "object" ? showInput(input) : `${type === "undefined" ? "an" : "a"} ${type}`;
    throw notADecimal(input, kind, `expected a decimal string or a Decimal, got ${got}`);
  }
  if (text.length > MAX_WRITTEN_LENGTH) {
    throw outOfRange(input, kind, `longer than ${MAX_WRITTEN_LENGTH} characters`);
  }
  if (!isCanonical(text)) {
    throw notADecimal(
      input,
      kind,
      'must be plain digits with at most one "." between digits, like "0.5" (no spaces, sign, exponent or bare ".")',
    );
  }
  const negative = text.startsWith("-");
  const body = negative ? text.slice(1) : text;
  const dot = body.indexOf(".");
  const digits = dot === -1 ? body : body.slice(0, dot) + body.slice(dot + 1);
  const magnitude = BigInt(digits);
  return { coefficient: negative ? -magnitude : magnitude, exponent: dot === -1 ? 0 : dot - body.length + 1 };
}

/**
 * Parses an integer amount.
 *
 * @throws {InvalidArgumentError} naming `argument` when it is not an integer.
 */
export function parseInteger(input: IntegerInput, argument: string): bigint {
  if (typeof input === "bigint") return input;
  if (typeof input === "number") {
    if (Number.isSafeInteger(input)) return BigInt(input);
    throw new InvalidArgumentError(argument, `must be a safe integer (or a bigint), got ${input}`);
  }
  if (typeof input === "string" && /^[+-]?\d+$/.test(input.trim())) return BigInt(input.trim());
  throw new InvalidArgumentError(argument, `must be an integer, got ${JSON.stringify(showInput(input))}`);
}

/**
 * Formats `value × 10^exponent` as an exact decimal string in plain notation, without trailing
 * zeros: `formatExact(2868800000n, -5)` is `"28688"`.
 */
export function formatExact(value: bigint, exponent: number): string {
  if (exponent >= 0) return (value * pow10(exponent)).toString();
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString();
  const scale = -exponent;
  const padded = digits.padStart(scale + 1, "0");
  const whole = padded.slice(0, padded.length - scale);
  const fraction = padded.slice(padded.length - scale).replace(/0+$/, "");
  const text = fraction === "" ? whole : `${whole}.${fraction}`;
  return negative && text !== "0" ? `-${text}` : text;
}

/** How to land a value on a grid. `down` and `up` are toward −∞ and +∞; `nearest` breaks ties away from zero. */
export type Rounding = "exact" | "down" | "up" | "nearest";

/** The result of scaling a decimal onto an integer grid. */
export interface GridPosition {
  /** The multiple of the step at or below the value (floor). */
  readonly below: bigint;
  /** True when the value is exactly on the grid. */
  readonly exact: boolean;
  /** The rounded multiple of the step, per the rounding mode (`exact` uses `below`). */
  readonly rounded: bigint;
}

/**
 * Scales `value × 10^shift` onto the grid of multiples of `step` (> 0) and rounds it.
 * Returns counts of steps, not base units.
 */
export function toGrid(value: ExactDecimal, shift: number, step: bigint, rounding: Rounding): GridPosition {
  const t = value.exponent + shift;
  const numerator = t >= 0 ? value.coefficient * pow10(t) : value.coefficient;
  const denominator = (t >= 0 ? 1n : pow10(-t)) * step;
  let below = numerator / denominator;
  let remainder = numerator % denominator;
  if (remainder < 0n) {
    below -= 1n;
    remainder += denominator;
  }
  const exact = remainder === 0n;
  let rounded = below;
  if (!exact) {
    if (rounding === "up") rounded = below + 1n;
    else if (rounding === "nearest") {
      const twice = 2n * remainder;
      // ties away from zero: up for positive values, down for negative ones
      if (twice > denominator || (twice === denominator && numerator > 0n)) rounded = below + 1n;
    }
  }
  return { below, exact, rounded };
}
