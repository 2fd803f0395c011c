/**
 * Parsers for the fields of the devnet's JSON requests (the control server, the faucet, the modules'
 * control operations): addresses, coin lists and denoms, integers, strings of a form, booleans,
 * nested objects. Each names the field it
 * read (`message.nonce`, `coins[1].denom`) and throws a {@link FieldError} carrying the error code
 * the server answers with; nothing else is thrown for bad input.
 */

import { MAX_SUBACCOUNT_NUMBER } from "@perpx/address";
import { isInvalidAddressError, parseAddress } from "@perpx/core";
import { PerpxError } from "@perpx/errors";
import { isValidDenom } from "./coins.js";

/** The error codes a bad field is answered with. */
export type FieldErrorCode = "invalid_request" | "invalid_address" | "invalid_coins" | "invalid_subaccount";

/**
 * A request field that is missing or malformed; `field` names it, `answerCode` is the code the
 * server answers with (status 400).
 *
 * @example
 * ```ts
 * try {
 *   uintField({ nonce: "x" }, "nonce");
 * } catch (error) {
 *   if (error instanceof FieldError) console.error(error.field, error.shortMessage);
 * }
 * ```
 */
export class FieldError extends PerpxError {
  override name = "FieldError";
  constructor(
    readonly field: string,
    problem: string,
    readonly answerCode: FieldErrorCode = "invalid_request",
  ) {
    super("INVALID_ARGUMENT", `the field "${field}" ${problem}`);
  }
}

/** A JSON object's fields. */
export type Fields = Readonly<Record<string, unknown>>;

/** Where a field lives: its object and its name there, with the path of the object (`message.`). */
interface At {
  readonly fields: Fields;
  readonly name: string;
  readonly path: string;
}

function at(fields: Fields, name: string, path = ""): At {
  return { fields, name, path };
}

function label(where: At): string {
  return `${where.path}${where.name}`;
}

function shown(raw: unknown): string {
  const text = JSON.stringify(raw) ?? String(raw);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A nested object field (its fields are named `name.field`). */
export function objectField(fields: Fields, name: string, path = ""): { fields: Fields; path: string } {
  const where = at(fields, name, path);
  const raw = fields[name];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new FieldError(label(where), raw === undefined ? "is required (an object)" : "must be an object");
  }
  return { fields: raw as Fields, path: `${label(where)}.` };
}

/** A non-negative integer as a bigint: a decimal string or a safe integer; `fallback` when absent. */
export function uintField(
  fields: Fields,
  name: string,
  options: { path?: string; fallback?: bigint } = {},
): bigint {
  const where = at(fields, name, options.path);
  const raw = fields[name];
  if (raw === undefined || raw === null) {
    if (options.fallback !== undefined) return options.fallback;
    throw new FieldError(label(where), "is required");
  }
  if (typeof raw === "string" && /^\d{1,78}$/.test(raw)) return BigInt(raw);
  if (typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0) return BigInt(raw);
  throw new FieldError(label(where), `must be a non-negative integer, got ${shown(raw)}`);
}

/** A non-negative safe integer (a number or a decimal string); `fallback` when absent. */
export function intField(fields: Fields, name: string, fallback?: number, path = ""): number {
  const where = at(fields, name, path);
  const raw = fields[name];
  if (raw === undefined || raw === null) {
    if (fallback !== undefined) return fallback;
    throw new FieldError(label(where), "is required");
  }
  const value = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new FieldError(label(where), `must be a non-negative integer, got ${shown(raw)}`);
  }
  return value;
}

/** A positive integer written as a decimal string (amounts, quantums). */
export function positiveAmountField(fields: Fields, name: string, path = ""): bigint {
  const raw = fields[name];
  if (typeof raw !== "string" || !/^[1-9]\d{0,77}$/.test(raw)) {
    throw new FieldError(label(at(fields, name, path)), "must be a positive integer string");
  }
  return BigInt(raw);
}

/** An account address, `perpx1...` or `0x...`: both forms. */
export function addressField(fields: Fields, name: string, path = ""): { bech32: string; hex: string } {
  const where = at(fields, name, path);
  const raw = fields[name];
  if (typeof raw !== "string") {
    throw new FieldError(
      label(where),
      raw === undefined ? "is missing" : "must be a string",
      "invalid_address",
    );
  }
  try {
    const parsed = parseAddress(raw);
    return { bech32: parsed.bech32, hex: parsed.hex };
  } catch (error) {
    if (isInvalidAddressError(error))
      throw new FieldError(label(where), `is not an address: ${error.shortMessage}`, "invalid_address");
    throw error;
  }
}

/** A subaccount number: an integer from 0 to 128000; `fallback` when absent. */
export function subaccountNumberField(fields: Fields, name: string, fallback = 0): number {
  const raw = fields[name] ?? fallback;
  if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 0 || raw > MAX_SUBACCOUNT_NUMBER) {
    throw new FieldError(
      name,
      `must be an integer from 0 to ${MAX_SUBACCOUNT_NUMBER}, got ${shown(raw)}`,
      "invalid_subaccount",
    );
  }
  return raw;
}

/** A bank denom the chain accepts (`[a-zA-Z][a-zA-Z0-9/:._-]{2,127}`). */
export function denomField(fields: Fields, name: string, path = ""): string {
  const raw = fields[name];
  if (typeof raw !== "string" || !isValidDenom(raw)) {
    throw new FieldError(
      label(at(fields, name, path)),
      `must be a denom (a letter, then 2 to 127 of letters, digits, "/:._-"), got ${shown(raw)}`,
      "invalid_coins",
    );
  }
  return raw;
}

/** A non-empty list of `{denom, amount}` with valid denoms, positive amounts and no denom twice. */
export function coinsField(fields: Fields, name: string): Array<{ denom: string; amount: bigint }> {
  const raw = fields[name];
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new FieldError(name, "must be a non-empty array of {denom, amount}", "invalid_coins");
  }
  const seen = new Set<string>();
  return raw.map((entry: unknown, i) => {
    const path = `${name}[${i}].`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw new FieldError(`${name}[${i}]`, "must be an object {denom, amount}", "invalid_coins");
    }
    const coin = entry as Fields;
    const denom = denomField(coin, "denom", path);
    if (seen.has(denom)) throw new FieldError(`${path}denom`, `repeats ${denom}`, "invalid_coins");
    seen.add(denom);
    const amount = coin.amount;
    const text = typeof amount === "number" && Number.isSafeInteger(amount) ? String(amount) : amount;
    if (typeof text !== "string" || !/^[1-9]\d{0,77}$/.test(text)) {
      throw new FieldError(
        `${path}amount`,
        `must be a positive integer string, got ${shown(amount)}`,
        "invalid_coins",
      );
    }
    return { denom, amount: BigInt(text) };
  });
}

/** A string field (`fallback` when absent); `pattern` (with its description) when it must have a form. */
export function stringField(
  fields: Fields,
  name: string,
  options: { path?: string; pattern?: RegExp; form?: string; fallback?: string } = {},
): string {
  const raw = fields[name] ?? options.fallback;
  const form = options.form ?? "a string";
  if (typeof raw !== "string" || (options.pattern !== undefined && !options.pattern.test(raw))) {
    const where = label(at(fields, name, options.path));
    throw new FieldError(
      where,
      raw === undefined ? `is required (${form})` : `must be ${form}, got ${shown(raw)}`,
    );
  }
  return raw;
}

/** A non-empty string field (`fallback` when absent). */
export function textField(fields: Fields, name: string, fallback?: string): string {
  return stringField(fields, name, {
    pattern: /./,
    form: "a non-empty string",
    ...(fallback === undefined ? {} : { fallback }),
  });
}

/** A boolean field. */
export function boolField(fields: Fields, name: string): boolean {
  const raw = fields[name];
  if (typeof raw !== "boolean") throw new FieldError(name, "must be true or false");
  return raw;
}
