/**
 * A small structural checker for what the server sends: each check walks a value and answers the
 * first field that is not what the contract promises (its path, `bids[0][0]` or
 * `markets["BTC-USD"].oraclePrice`, and what was expected), or `undefined`. Fields the contract
 * does not name are let through (a newer server may add some); fields it names are checked when
 * present, and the ones the client reads must be present.
 */

/** The first field of a value that breaks its shape. */
export interface ShapeProblem {
  /** Where, from the contents' root (`""` is the contents itself). */
  readonly path: string;
  /** What the contract promises there. */
  readonly expected: string;
  /** What was found there. */
  readonly found: unknown;
}

/** A check of one value at `path`. */
export type Check = (value: unknown, path: string) => ShapeProblem | undefined;

const problem = (path: string, expected: string, found: unknown): ShapeProblem => ({
  path,
  expected,
  found,
});

/** A plain decimal, signed, with an optional exponent (how the indexer writes amounts and rates). */
const DECIMAL = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
/** A plain non-negative decimal without exponent (book prices and sizes). */
const UNSIGNED_DECIMAL = /^\d+(\.\d+)?$/;
/** A non-negative decimal, with an optional exponent (an unsigned amount the indexer writes). */
const NON_NEGATIVE_DECIMAL = /^\d+(\.\d+)?([eE][+-]?\d+)?$/;
const DIGITS = /^\d+$/;

/** Any string. */
export const text: Check = (value, path) =>
  typeof value === "string" ? undefined : problem(path, "a string", value);

/** A decimal string. */
export const decimal: Check = (value, path) =>
  typeof value === "string" && DECIMAL.test(value) ? undefined : problem(path, "a decimal string", value);

/** A non-negative plain decimal string. */
export const unsignedDecimal: Check = (value, path) =>
  typeof value === "string" && UNSIGNED_DECIMAL.test(value)
    ? undefined
    : problem(path, "a non-negative decimal string", value);

/** A non-negative decimal string, with an optional exponent (an unsigned size). */
export const nonNegativeDecimal: Check = (value, path) =>
  typeof value === "string" && NON_NEGATIVE_DECIMAL.test(value)
    ? undefined
    : problem(path, "a non-negative decimal string", value);

/** One of the given strings (an enum of the contract). */
export function oneOf(...values: string[]): Check {
  const expected = values.map((v) => JSON.stringify(v)).join(" or ");
  return (value, path) =>
    typeof value === "string" && values.includes(value) ? undefined : problem(path, expected, value);
}

/** A string of decimal digits (a height, a count). */
export const digits: Check = (value, path) =>
  typeof value === "string" && DIGITS.test(value) ? undefined : problem(path, "a string of digits", value);

/** A finite number. */
export const number: Check = (value, path) =>
  typeof value === "number" && Number.isFinite(value) ? undefined : problem(path, "a finite number", value);

/** A safe integer. */
export const integer: Check = (value, path) =>
  Number.isSafeInteger(value) ? undefined : problem(path, "an integer", value);

/** A boolean. */
export const boolean: Check = (value, path) =>
  typeof value === "boolean" ? undefined : problem(path, "a boolean", value);

/** `check`, or `null`. */
export function nullable(check: Check): Check {
  return (value, path) => (value === null ? undefined : check(value, path));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const KEY = /^[A-Za-z_$][\w$]*$/;

/** The path of a property: `a.b`, or `a["BTC-USD"]` for a key that is not an identifier. */
function at(path: string, key: string): string {
  if (!KEY.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
}

/**
 * An object whose `required` fields must be present and pass their check, and whose `optional`
 * fields pass theirs when present (`undefined` counts as absent).
 */
export function object(required: Record<string, Check>, optional: Record<string, Check> = {}): Check {
  const must = Object.entries(required);
  const may = Object.entries(optional);
  return (value, path) => {
    if (!isRecord(value)) return problem(path, "an object", value);
    for (const [key, check] of must) {
      const found = check(value[key], at(path, key));
      if (found) return found;
    }
    for (const [key, check] of may) {
      const field = value[key];
      if (field === undefined) continue;
      const found = check(field, at(path, key));
      if (found) return found;
    }
    return undefined;
  };
}

/** An array whose every element passes `check`. */
export function array(check: Check): Check {
  return (value, path) => {
    if (!Array.isArray(value)) return problem(path, "an array", value);
    for (let i = 0; i < value.length; i++) {
      const found = check(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  };
}

/** An object used as a map: every value passes `check`. */
export function record(check: Check): Check {
  return (value, path) => {
    if (!isRecord(value)) return problem(path, "an object", value);
    for (const key of Object.keys(value)) {
      const found = check(value[key], at(path, key));
      if (found) return found;
    }
    return undefined;
  };
}

/** A fixed-length array (a tuple) whose elements pass their checks in order. */
export function tuple(...checks: Check[]): Check {
  return (value, path) => {
    if (!Array.isArray(value) || value.length !== checks.length) {
      return problem(path, `an array of ${checks.length}`, value);
    }
    for (let i = 0; i < checks.length; i++) {
      const found = (checks[i] as Check)(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  };
}

/**
 * A refused value as a refusal shows it: JSON, cut to 60 characters.
 *
 * @param value - the value found.
 * @returns its short text.
 * @example
 * ```ts
 * shown({ size: "-1" }); // '{"size":"-1"}'
 * shown(undefined); // "undefined"
 * ```
 */
export function shown(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? "undefined" : JSON.stringify(value);
  } catch {
    text = typeof value;
  }
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}
