/**
 * Checks of call parameters, before any request: each failure is an `InvalidArgumentError` naming
 * the parameter (with the address or subaccount error as its cause where there is one).
 */
import { isPerpxError, parseAddress } from "@perpx/core";
import { INDEXER_LIMIT_MAX, MAX_PARENT_SUBACCOUNT_NUMBER, MAX_SUBACCOUNT_NUMBER } from "@perpx/core/indexer";
import { InvalidArgumentError } from "@perpx/errors";

/**
 * A block height as a caller may give it: a non-negative integer as a number, a bigint or decimal text.
 *
 * @example
 * ```ts
 * const height: HeightInput = 1_200n;
 * ```
 */
export type HeightInput = number | bigint | string;

/**
 * A point in time as a caller may give it: a `Date` or ISO-8601 text.
 *
 * @example
 * ```ts
 * const at: TimeInput = new Date("2026-01-01T00:00:00Z");
 * ```
 */
export type TimeInput = Date | string;

/**
 * An address parameter: bech32 with the connection's prefix, or `0x` hex; sent as bech32.
 *
 * @param name - the parameter's name.
 * @param value - the address.
 * @param prefix - the expected bech32 prefix.
 * @returns the bech32 address.
 * @throws InvalidArgumentError naming `name`, with the `InvalidAddressError` as its cause.
 * @example
 * ```ts
 * checkAddress("address", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "perpx"); // "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c"
 * ```
 */
export function checkAddress(name: string, value: string, prefix: string): string {
  if (typeof value !== "string")
    throw new InvalidArgumentError(name, `must be an address string, got ${typeof value}`);
  try {
    return parseAddress(value, { prefix }).bech32;
  } catch (error) {
    const problem = isPerpxError(error) ? error.shortMessage : "not a valid address";
    throw new InvalidArgumentError(name, problem, { cause: error });
  }
}

function checkInteger(name: string, value: number, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(name, `must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/**
 * A subaccount number: an integer from 0 to 128000.
 *
 * @param name - the parameter's name.
 * @param value - the number.
 * @returns the number.
 * @throws InvalidArgumentError naming `name`.
 * @example
 * ```ts
 * checkSubaccountNumber("subaccountNumber", 128); // 128
 * ```
 */
export function checkSubaccountNumber(name: string, value: number): number {
  return checkInteger(name, value, 0, MAX_SUBACCOUNT_NUMBER);
}

/**
 * A parent subaccount number: an integer from 0 to 127.
 *
 * @param name - the parameter's name.
 * @param value - the number.
 * @returns the number.
 * @throws InvalidArgumentError naming `name`.
 * @example
 * ```ts
 * checkParentSubaccountNumber("parentSubaccountNumber", 127); // 127
 * ```
 */
export function checkParentSubaccountNumber(name: string, value: number): number {
  return checkInteger(name, value, 0, MAX_PARENT_SUBACCOUNT_NUMBER);
}

/**
 * An optional `limit`: an integer from 1 to 1000.
 *
 * @param value - the limit, or undefined.
 * @returns the limit, or undefined.
 * @throws InvalidArgumentError naming `limit`.
 * @example
 * ```ts
 * checkLimit(100); // 100
 * checkLimit(undefined); // undefined
 * ```
 */
export function checkLimit(value: number | undefined): number | undefined {
  return value === undefined ? undefined : checkInteger("limit", value, 1, INDEXER_LIMIT_MAX);
}

/**
 * An optional positive integer (`page`, `goodTilBlockBeforeOrAt`, ...).
 *
 * @param name - the parameter's name.
 * @param value - the number, or undefined.
 * @returns the number, or undefined.
 * @throws InvalidArgumentError naming `name`.
 * @example
 * ```ts
 * checkPositive("page", 2); // 2
 * ```
 */
export function checkPositive(name: string, value: number | undefined): number | undefined {
  return value === undefined ? undefined : checkInteger(name, value, 1, Number.MAX_SAFE_INTEGER);
}

/**
 * An optional page offset: an integer from 0, the number of results to skip.
 *
 * @param name - the parameter's name.
 * @param value - the offset, or undefined.
 * @returns the offset, or undefined.
 * @throws InvalidArgumentError naming `name`.
 * @example
 * ```ts
 * checkOffset("offset", 0); // 0
 * ```
 */
export function checkOffset(name: string, value: number | undefined): number | undefined {
  return value === undefined ? undefined : checkInteger(name, value, 0, Number.MAX_SAFE_INTEGER);
}

/**
 * An optional block height: a non-negative integer (number, bigint or decimal text), sent as text.
 *
 * @param name - the parameter's name.
 * @param value - the height, or undefined.
 * @returns the height as decimal text, or undefined.
 * @throws InvalidArgumentError naming `name`.
 * @example
 * ```ts
 * checkHeight("createdBeforeOrAtHeight", 120n); // "120"
 * ```
 */
export function checkHeight(name: string, value: HeightInput | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text =
    typeof value === "string" ? value : typeof value === "bigint" ? value.toString() : String(value);
  const ok =
    (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) ||
    (typeof value !== "number" && /^(0|[1-9][0-9]*)$/.test(text));
  if (!ok) throw new InvalidArgumentError(name, `must be a non-negative integer height, got ${text}`);
  return text;
}

/**
 * An optional point in time, sent as ISO-8601.
 *
 * @param name - the parameter's name.
 * @param value - a `Date` or ISO text, or undefined.
 * @returns the ISO text, or undefined.
 * @throws InvalidArgumentError naming `name`.
 * @example
 * ```ts
 * checkTime("createdBeforeOrAt", new Date(0)); // "1970-01-01T00:00:00.000Z"
 * ```
 */
export function checkTime(name: string, value: TimeInput | undefined): string | undefined {
  if (value === undefined) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime()) || (typeof value === "string" && !/^\d{4}-\d{2}-\d{2}/.test(value))) {
    throw new InvalidArgumentError(name, `must be a valid date or ISO-8601 time, got ${String(value)}`);
  }
  return typeof value === "string" ? value : date.toISOString();
}

/**
 * An optional value of an enumeration.
 *
 * @param name - the parameter's name.
 * @param value - the value, or undefined.
 * @param allowed - the enumeration's values.
 * @returns the value, or undefined.
 * @throws InvalidArgumentError naming `name` and listing the allowed values.
 * @example
 * ```ts
 * checkOneOf("side", "BUY", ["BUY", "SELL"]); // "BUY"
 * ```
 */
export function checkOneOf<T extends string>(
  name: string,
  value: T | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value)) {
    throw new InvalidArgumentError(name, `must be one of ${allowed.join(",")}, got ${String(value)}`);
  }
  return value;
}

/**
 * An optional list of enumeration values.
 *
 * @param name - the parameter's name.
 * @param values - the values, or undefined.
 * @param allowed - the enumeration's values.
 * @returns the values, or undefined.
 * @throws InvalidArgumentError naming `name`.
 * @example
 * ```ts
 * checkAllOf("status", ["OPEN"], ["OPEN", "CLOSED"]); // ["OPEN"]
 * ```
 */
export function checkAllOf<T extends string>(
  name: string,
  values: readonly T[] | undefined,
  allowed: readonly T[],
): readonly T[] | undefined {
  if (values === undefined) return undefined;
  if (!Array.isArray(values)) throw new InvalidArgumentError(name, "must be an array");
  for (const value of values) checkOneOf(name, value, allowed);
  return values;
}

/**
 * A ticker: non-empty, letters, digits and dashes (`BTC-USD`).
 *
 * @param name - the parameter's name.
 * @param value - the ticker.
 * @returns the ticker.
 * @throws InvalidArgumentError naming `name`.
 * @example
 * ```ts
 * checkTicker("ticker", "BTC-USD"); // "BTC-USD"
 * ```
 */
export function checkTicker(name: string, value: string): string {
  if (typeof value !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value)) {
    throw new InvalidArgumentError(name, `must be a ticker like BTC-USD, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * An order id: a UUID.
 *
 * @param value - the id.
 * @returns the id.
 * @throws InvalidArgumentError naming `orderId`.
 * @example
 * ```ts
 * checkUuid("orderId", "0b9f6a64-1d1e-5c3e-9d4a-6f0e4c1b2a33"); // "0b9f6a64-1d1e-5c3e-9d4a-6f0e4c1b2a33"
 * ```
 */
export function checkUuid(name: string, value: string): string {
  if (
    typeof value !== "string" ||
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
  ) {
    throw new InvalidArgumentError(name, `must be a UUID, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * An optional boolean.
 *
 * @param name - the parameter's name.
 * @param value - the flag, or undefined.
 * @returns the flag, or undefined.
 * @throws InvalidArgumentError naming `name`.
 * @example
 * ```ts
 * checkBoolean("daily", true); // true
 * ```
 */
export function checkBoolean(name: string, value: boolean | undefined): boolean | undefined {
  if (value !== undefined && typeof value !== "boolean") {
    throw new InvalidArgumentError(name, `must be a boolean, got ${String(value)}`);
  }
  return value;
}
