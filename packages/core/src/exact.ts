/**
 * The SDK's one decimal type for money, prices, sizes, PnL, equity and leverage: a bigint
 * coefficient and a decimal scale, `value = coefficient × 10^-scale`. Addition, subtraction,
 * multiplication and comparison are exact over any range (a product of two 38-digit amounts keeps
 * all of its 76 digits); division and rounding happen only where a caller names the precision and
 * the rounding mode. Written forms are plain notation, never an exponent.
 */
import {
  checkCount,
  checkRounding,
  type DecimalLike,
  digitCount,
  divideRounded,
  type ExactPrecision,
  type ExactRounding,
  formatPlain,
  normalize,
  partsOf,
  pow10,
  refuse,
  show,
} from "./exact-math.js";

/**
 * What {@link Exact} takes: an `Exact`, a decimal string (`"-65000.5"`, `"1e-7"`), a decimal.js
 * `Decimal` (any {@link DecimalLike}), a `bigint`, or a safe-integer `number` (a count or a
 * factor; a fractional JS number is refused, since most decimal fractions have no exact double).
 *
 * @example
 * ```ts
 * const inputs: ExactInput[] = ["28688.5", 10n, 2, new Exact("0.1")];
 * inputs.map((x) => new Exact(x).toString()); // ["28688.5", "10", "2", "0.1"]
 * ```
 */
export type ExactInput = Exact | DecimalLike | string | bigint | number;

/** A normalized Exact from parts, without parsing. */
function make(coefficient: bigint, scale: number): Exact {
  const [c, s] = normalize(coefficient, scale);
  return Object.assign(Object.create(Exact.prototype) as Exact, { coefficient: c, scale: s });
}

/** The arguments of `max`/`min` as Exacts: at least one (untyped callers may pass none), each named. */
function exactsOf(values: readonly ExactInput[]): Exact[] {
  if (values.length === 0) refuse("values", "must hold at least one value, got none");
  return values.map((v, i) => new Exact(v, `values[${i}]`));
}

/**
 * An exact decimal. Immutable: every operation returns a new value.
 *
 * @example
 * ```ts
 * new Exact("1234567890123.123456789").plus("0.000000001").toString(); // "1234567890123.12345679": every digit
 * new Exact("18446744073709551615").times("0.000000000000000001").toString(); // "18.446744073709551615"
 * new Exact("65000").dividedBy("3", { scale: 6, rounding: "halfExpand" }).toString(); // "21666.666667"
 * new Exact("-0.1").lessThan(0); // true
 * ```
 */
export class Exact {
  /** The value times 10^scale, an integer. */
  readonly coefficient: bigint;
  /** How many digits the coefficient has after the point; the smallest that holds the value. */
  readonly scale: number;

  /**
   * @param value - a decimal string, a decimal.js `Decimal`, an `Exact`, a bigint or a safe integer.
   * @param field - the name an error gives the value.
   * @throws {InvalidArgumentError} naming `field` for anything else (a fractional JS number too,
   *   and an exponent beyond ±1000, written or a `Decimal`'s).
   */
  constructor(value: ExactInput, field = "value") {
    const [coefficient, scale] =
      value instanceof Exact ? [value.coefficient, value.scale] : normalize(...partsOf(value, field));
    this.coefficient = coefficient;
    this.scale = scale;
  }

  /**
   * The value of an integer amount of base units: `units × 10^-decimals` (quantums to USDC, a
   * denom's base units to the token).
   *
   * @param units - the integer amount.
   * @param decimals - the token's decimals (0 to 1000).
   * @returns the exact value.
   * @example
   * ```ts
   * Exact.fromUnits(18446744073709551615n, 18).toString(); // "18.446744073709551615"
   * ```
   */
  static fromUnits(units: bigint, decimals: number): Exact {
    if (typeof units !== "bigint") refuse("units", `must be a bigint, got ${show(units)}`);
    checkCount("decimals", decimals, 0);
    return make(units, decimals);
  }

  /**
   * The largest of the values.
   *
   * @param values - one or more values.
   * @returns the largest, as an Exact.
   * @throws {InvalidArgumentError} `values` when there is none (a call from JavaScript), or
   *   `values[i]` naming the one that is not a value.
   * @example
   * ```ts
   * Exact.max("0", "-3", "2.5").toString(); // "2.5"
   * ```
   */
  static max(...values: [ExactInput, ...ExactInput[]]): Exact {
    return exactsOf(values).reduce((a, b) => (b.greaterThan(a) ? b : a));
  }

  /**
   * The smallest of the values.
   *
   * @param values - one or more values.
   * @returns the smallest, as an Exact.
   * @throws {InvalidArgumentError} `values` when there is none (a call from JavaScript), or
   *   `values[i]` naming the one that is not a value.
   * @example
   * ```ts
   * Exact.min("0", "-3", "2.5").toString(); // "-3"
   * ```
   */
  static min(...values: [ExactInput, ...ExactInput[]]): Exact {
    return exactsOf(values).reduce((a, b) => (b.lessThan(a) ? b : a));
  }

  /** `[this, other]` as coefficients at one scale, and that scale. */
  private aligned(other: ExactInput): [bigint, bigint, number] {
    const that = other instanceof Exact ? other : new Exact(other);
    const scale = Math.max(this.scale, that.scale);
    return [
      this.coefficient * pow10(scale - this.scale),
      that.coefficient * pow10(scale - that.scale),
      scale,
    ];
  }

  /**
   * The exact sum.
   *
   * @param other - the value to add.
   * @returns this + other.
   * @example
   * ```ts
   * new Exact("0.1").plus("0.2").toString(); // "0.3"
   * ```
   */
  plus(other: ExactInput): Exact {
    const [a, b, scale] = this.aligned(other);
    return make(a + b, scale);
  }

  /**
   * The exact difference.
   *
   * @param other - the value to subtract.
   * @returns this − other.
   * @example
   * ```ts
   * new Exact("64000").minus("65000.5").toString(); // "-1000.5"
   * ```
   */
  minus(other: ExactInput): Exact {
    const [a, b, scale] = this.aligned(other);
    return make(a - b, scale);
  }

  /**
   * The exact product.
   *
   * @param other - the factor.
   * @returns this × other.
   * @example
   * ```ts
   * new Exact("-0.5").times("64999.99").toString(); // "-32499.995"
   * ```
   */
  times(other: ExactInput): Exact {
    const that = other instanceof Exact ? other : new Exact(other);
    return make(this.coefficient * that.coefficient, this.scale + that.scale);
  }

  /**
   * The quotient, rounded once to the precision asked for (a quotient is rarely a finite decimal).
   *
   * @param divisor - the value to divide by; not zero.
   * @param precision - `{ scale, rounding }` or `{ significantDigits, rounding }`.
   * @returns this ÷ divisor at that precision.
   * @throws {InvalidArgumentError} for a zero divisor (`divisor`) or a bad precision.
   * @example
   * ```ts
   * new Exact("2").dividedBy("3", { scale: 4, rounding: "floor" }).toString(); // "0.6666"
   * new Exact("2").dividedBy("3", { significantDigits: 4, rounding: "halfExpand" }).toString(); // "0.6667"
   * ```
   */
  dividedBy(divisor: ExactInput, precision: ExactPrecision): Exact {
    const that = divisor instanceof Exact ? divisor : new Exact(divisor, "divisor");
    if (that.coefficient === 0n) refuse("divisor", "must not be zero");
    if (typeof precision !== "object" || precision === null) {
      refuse("precision", "must be { scale, rounding } or { significantDigits, rounding }");
    }
    checkRounding(precision.rounding);
    let scale: number;
    if ("scale" in precision) {
      checkCount("scale", precision.scale, 0);
      scale = precision.scale;
    } else {
      checkCount("significantDigits", precision.significantDigits, 1);
      if (this.coefficient === 0n) return this;
      scale = precision.significantDigits - 1 - this.magnitudeOf(that);
    }
    // this ÷ that × 10^scale = (c1 × 10^(s2 + scale)) ÷ (c2 × 10^s1)
    const up = that.scale + scale;
    const numerator = this.coefficient * pow10(Math.max(0, up));
    const denominator = that.coefficient * pow10(this.scale - Math.min(0, up));
    const rounded = divideRounded(numerator, denominator, precision.rounding);
    return scale >= 0 ? make(rounded, scale) : make(rounded * pow10(-scale), 0);
  }

  /** The exponent e with 10^e <= |this ÷ that| < 10^(e+1); neither is zero. */
  private magnitudeOf(that: Exact): number {
    const n = (this.coefficient < 0n ? -this.coefficient : this.coefficient) * pow10(that.scale);
    const d = (that.coefficient < 0n ? -that.coefficient : that.coefficient) * pow10(this.scale);
    const k = digitCount(n) - digitCount(d);
    const atLeast = k >= 0 ? n >= d * pow10(k) : n * pow10(-k) >= d;
    return atLeast ? k : k - 1;
  }

  /**
   * The value with the opposite sign.
   *
   * @returns −this.
   * @example
   * ```ts
   * new Exact("1.5").negated().toString(); // "-1.5"
   * ```
   */
  negated(): Exact {
    return make(-this.coefficient, this.scale);
  }

  /**
   * The absolute value.
   *
   * @returns |this|.
   * @example
   * ```ts
   * new Exact("-0.25").abs().toString(); // "0.25"
   * ```
   */
  abs(): Exact {
    return this.coefficient < 0n ? this.negated() : this;
  }

  /**
   * Compares with another value.
   *
   * @param other - the value to compare with.
   * @returns -1, 0 or 1 as this is below, equal to or above `other`.
   * @example
   * ```ts
   * new Exact("0.10").comparedTo("0.1"); // 0
   * new Exact("2").comparedTo("10"); // -1
   * new Exact("1.50").equals("1.5"); // true
   * new Exact("2").greaterThan("10"); // false
   * new Exact("1000").greaterThanOrEqualTo("1000.0"); // true
   * new Exact("-5").lessThan("-4.9"); // true
   * new Exact("999.999999").lessThanOrEqualTo("1000"); // true
   * ```
   */
  comparedTo(other: ExactInput): -1 | 0 | 1 {
    const [a, b] = this.aligned(other);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /**
   * Whether the two values are equal (see {@link Exact.comparedTo}).
   *
   * @param other - the value to compare with.
   * @returns true when this = other.
   */
  equals(other: ExactInput): boolean {
    return this.comparedTo(other) === 0;
  }

  /**
   * Whether this is above `other`.
   *
   * @param other - the value to compare with.
   * @returns true when this > other.
   */
  greaterThan(other: ExactInput): boolean {
    return this.comparedTo(other) > 0;
  }

  /**
   * Whether this is at or above `other`.
   *
   * @param other - the value to compare with.
   * @returns true when this >= other.
   */
  greaterThanOrEqualTo(other: ExactInput): boolean {
    return this.comparedTo(other) >= 0;
  }

  /**
   * Whether this is below `other`.
   *
   * @param other - the value to compare with.
   * @returns true when this < other.
   */
  lessThan(other: ExactInput): boolean {
    return this.comparedTo(other) < 0;
  }

  /**
   * Whether this is at or below `other`.
   *
   * @param other - the value to compare with.
   * @returns true when this <= other.
   */
  lessThanOrEqualTo(other: ExactInput): boolean {
    return this.comparedTo(other) <= 0;
  }

  /**
   * Whether the value is zero.
   *
   * @returns true for 0.
   * @example
   * ```ts
   * new Exact("0.000").isZero(); // true
   * ```
   */
  isZero(): boolean {
    return this.coefficient === 0n;
  }

  /**
   * Whether the value is below zero.
   *
   * @returns true for a negative value (never for zero).
   * @example
   * ```ts
   * new Exact("-0").isNegative(); // false
   * ```
   */
  isNegative(): boolean {
    return this.coefficient < 0n;
  }

  /**
   * Always true: an Exact is finite. With `toFixed()`, this makes an Exact a {@link DecimalLike}.
   *
   * @returns true.
   * @example
   * ```ts
   * new Exact("1").isFinite(); // true
   * ```
   */
  isFinite(): true {
    return true;
  }

  /**
   * The value rounded to `decimals` fraction digits.
   *
   * @param decimals - fraction digits to keep (0 to 1000).
   * @param rounding - how to round what is dropped.
   * @returns the rounded value.
   * @example
   * ```ts
   * new Exact("3249.9951").toDecimalPlaces(2, "ceil").toString(); // "3250"
   * ```
   */
  toDecimalPlaces(decimals: number, rounding: ExactRounding): Exact {
    checkCount("decimals", decimals, 0);
    checkRounding(rounding);
    if (this.scale <= decimals) return this;
    return make(divideRounded(this.coefficient, pow10(this.scale - decimals), rounding), decimals);
  }

  /**
   * The value in plain notation with every digit (no trailing zeros).
   *
   * @returns the text, never in exponent form.
   * @example
   * ```ts
   * new Exact("1e-7").toFixed(); // "0.0000001"
   * new Exact("2.50").toFixed(); // "2.5"
   * ```
   */
  toFixed(): string;
  /**
   * The value in plain notation, rounded to exactly `decimals` fraction digits (zeros added).
   *
   * @param decimals - fraction digits to show (0 to 1000).
   * @param rounding - how to round what is dropped.
   * @returns the text, never in exponent form.
   * @example
   * ```ts
   * new Exact("2.5").toFixed(2, "trunc"); // "2.50"
   * new Exact("-0.004").toFixed(2, "halfExpand"); // "0.00"
   * ```
   */
  toFixed(decimals: number, rounding: ExactRounding): string;
  toFixed(decimals?: number, rounding?: ExactRounding): string {
    if (decimals === undefined) return formatPlain(this.coefficient, this.scale);
    const rounded = this.toDecimalPlaces(decimals, rounding as ExactRounding);
    return formatPlain(rounded.coefficient * pow10(decimals - rounded.scale), decimals);
  }

  /**
   * The value in plain notation with every digit, as `toFixed()`.
   *
   * @returns the text.
   * @example
   * ```ts
   * String(new Exact("1e21")); // "1000000000000000000000"
   * ```
   */
  toString(): string {
    return formatPlain(this.coefficient, this.scale);
  }

  /**
   * The value as JSON: its plain text (a JSON number would lose digits).
   *
   * @returns the text.
   * @example
   * ```ts
   * JSON.stringify({ price: new Exact("65000.50") }); // '{"price":"65000.5"}'
   * ```
   */
  toJSON(): string {
    return this.toString();
  }

  /**
   * Text for string contexts; refuses to become a JS number (`Number(x)`, `+x`, `x < y`), which
   * would round it or compare it as text by accident.
   *
   * @param hint - the conversion asked for.
   * @returns the plain text.
   * @throws {InvalidArgumentError} for a number conversion.
   * @example
   * ```ts
   * `${new Exact("0.5")} USD`; // "0.5 USD"
   * Number(new Exact("0.5")); // throws InvalidArgumentError
   * ```
   */
  [Symbol.toPrimitive](hint: string): string {
    if (hint === "number") {
      refuse(
        "value",
        "an Exact does not convert to a JS number: compare with comparedTo(), or use toFixed()",
      );
    }
    return this.toString();
  }
}
