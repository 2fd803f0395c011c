import { InvalidArgumentError } from "@perpx/errors";
import { type AmountKind, InvalidAmountError } from "./errors.js";
import type { Exact } from "./exact.js";
import type { DecimalLike } from "./exact-math.js";

/**
 * A human amount: a decimal string (`"28688.5"`, `"1e-4"`), an {@link Exact}, or a `decimal.js`
 * `Decimal` (any {@link DecimalLike}). JS numbers are refused: they cannot hold most decimal
 * fractions exactly.
 *
 * @example
 * ```ts
 * import { Decimal } from "decimal.js";
 *
 * const size: DecimalInput = "0.01";
 * const price: DecimalInput = new Exact("57377").dividedBy(2, { scale: 0, rounding: "floor" });
 * const legacy: DecimalInput = new Decimal("28688");
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

/** Largest exponent (in absolute value) accepted in a decimal's written form. */
const MAX_WRITTEN_EXPONENT = 1000;
const DECIMAL = /^([+-])?(\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?$/;

const pow10Cache: bigint[] = [];
/** 10^n for n >= 0. */
function pow10(n: number): bigint {
  if (n < 64) {
    let cached = pow10Cache[n];
    if (cached === undefined) {
      cached = 10n ** BigInt(n);
      pow10Cache[n] = cached;
    }
    return cached;
  }
  return 10n ** BigInt(n);
}

/** An `Exact` or a decimal.js `Decimal`: both are {@link DecimalLike}s. */
function isDecimalInstance(value: unknown): value is DecimalLike {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { isFinite?: unknown }).isFinite === "function" &&
    typeof (value as { toFixed?: unknown }).toFixed === "function"
  );
}

/** The input as shown in error messages (shortened when very long). */
export function showInput(input: unknown): string {
  let text: string;
  if (typeof input === "string") text = input.trim();
  else if (isDecimalInstance(input)) text = input.toString();
  else if (typeof input === "bigint") text = input.toString();
  else text = String(input);
  return text.length > 100 ? `${text.slice(0, 100)}...` : text;
}

/**
 * Parses a decimal string or `Decimal` exactly.
 *
 * @throws {InvalidAmountError} (`not-a-decimal`, `out-of-range`) naming `kind` and the value.
 */
export function parseDecimal(input: DecimalInput, kind: AmountKind): ExactDecimal {
  let text: string;
  if (typeof input === "string") {
    text = input.trim();
  } else if (isDecimalInstance(input)) {
    if (!input.isFinite()) {
      throw new InvalidAmountError({
        kind,
        value: showInput(input),
        reason: "not-a-decimal",
        problem: "must be finite",
      });
    }
    text = input.toFixed();
  } else {
    throw new InvalidAmountError({
      kind,
      value: showInput(input),
      reason: "not-a-decimal",
      problem: `expected a decimal string or a Decimal, got a ${typeof input}`,
    });
  }
  const match = DECIMAL.exec(text);
  if (!match) {
    throw new InvalidAmountError({
      kind,
      value: showInput(input),
      reason: "not-a-decimal",
      problem: "is not a decimal number",
    });
  }
  const [, sign, body = "", exp] = match;
  const written = exp === undefined ? 0 : Number(exp);
  if (!Number.isSafeInteger(written) || Math.abs(written) > MAX_WRITTEN_EXPONENT) {
    throw new InvalidAmountError({
      kind,
      value: showInput(input),
      reason: "out-of-range",
      problem: `exponent beyond ±${MAX_WRITTEN_EXPONENT}`,
    });
  }
  const dot = body.indexOf(".");
  const digits = dot === -1 ? body : body.slice(0, dot) + body.slice(dot + 1);
  const fraction = dot === -1 ? 0 : body.length - dot - 1;
  const magnitude = BigInt(digits === "" ? "0" : digits);
  return { coefficient: sign === "-" ? -magnitude : magnitude, exponent: written - fraction };
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
