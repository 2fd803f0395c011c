import {
  errorGuard,
  PerpxError,
  type PerpxErrorOptions,
  redactSecrets,
  shortenRedacted,
} from "@perpx/errors";

/**
 * Why an address was rejected. Exactly one reason is reported: the first check that fails.
 * A `0x` address is checked for format, characters, length (40 hex digits), then its EIP-55
 * checksum when it is mixed-case. A bech32 address is checked for printable ASCII characters,
 * single case, format, the data alphabet, its checksum, its prefix, then its length (20 bytes).
 *
 * - `empty`: the input is the empty string (or `undefined`/`null` from untyped callers); a blank
 *   string is a `bad-character`.
 * - `bad-format`: neither `0x` + hex nor `prefix1data`: no separator, an empty prefix, a data
 *   part shorter than the 6-character checksum, an uppercase `0X`, 40 hex digits without `0x`,
 *   or a value that is not a string.
 * - `bad-character`: a character that cannot appear there (a non-hex digit after `0x`, a
 *   character outside the bech32 alphabet, whitespace or non-ASCII).
 * - `mixed-case`: a bech32 string mixing upper and lower case (BIP-173 forbids it).
 * - `bad-checksum`: the bech32 checksum does not verify, or a mixed-case `0x` address does not
 *   match its EIP-55 checksum.
 * - `wrong-prefix`: a valid bech32 string whose prefix is not the one expected (or a `0x` address
 *   where only a bech32 address of one prefix is accepted, as in {@link fromValoperAddress}).
 * - `wrong-length`: the address does not hold exactly 20 bytes.
 *
 * @example
 * ```ts
 * const reason: InvalidAddressReason = "bad-checksum";
 * ```
 */
export type InvalidAddressReason =
  | "empty"
  | "bad-format"
  | "bad-character"
  | "mixed-case"
  | "bad-checksum"
  | "wrong-prefix"
  | "wrong-length";

const REASON_TEXT: Record<InvalidAddressReason, string> = {
  empty: "empty",
  "bad-format": "bad format",
  "bad-character": "bad character",
  "mixed-case": "mixed case",
  "bad-checksum": "bad checksum",
  "wrong-prefix": "wrong prefix",
  "wrong-length": "wrong length",
};

/** Longest part of an input quoted in an error message; the full input (redacted) stays in `error.input`. */
const MAX_QUOTED = 120;

/**
 * Quotes a value for an error message, any secret in it redacted before a very long input is
 * shortened (a mnemonic or key cut first would no longer look like one, and part of it would show).
 */
export function quote(input: string): string {
  return JSON.stringify(shortenRedacted(input, MAX_QUOTED));
}

/**
 * A value that is not a string, as text for `InvalidAddressError.input`: a primitive as itself, an
 * object or array by its kind only (an array of byte values may be a private key).
 */
export function describeNonString(value: unknown): string {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return String(value);
  return Array.isArray(value) ? "an array" : `an ${typeof value}`;
}

/**
 * Options of an {@link InvalidAddressError}: the base options plus the precise problem.
 *
 * @example
 * ```ts
 * const options: InvalidAddressErrorOptions = { problem: "expected 20 bytes, got 32" };
 * new InvalidAddressError("wrong-length", "0x00", options).shortMessage; // 'Invalid address "0x00" (wrong length: expected 20 bytes, got 32)'
 * ```
 */
export interface InvalidAddressErrorOptions extends PerpxErrorOptions {
  /** What exactly is wrong, in a few words (`"expected prefix \"perpx\", got \"cosmos\""`). */
  problem?: string;
}

/**
 * An address that is in neither valid form, or that has the wrong prefix, length or checksum.
 * `reason` says which rule failed and `input` holds the rejected value; the message says exactly
 * what is wrong. Its `code` is `"INVALID_ADDRESS"`.
 *
 * @example
 * ```ts
 * try {
 *   parseAddress("cosmos1t2htvpfl862vnwdqnuekd9p4ulh3h6hdhh78pa");
 * } catch (error) {
 *   if (isInvalidAddressError(error)) {
 *     error.reason; // "wrong-prefix"
 *     error.shortMessage; // 'Invalid address "cosmos1t2htvpfl862vnwdqnuekd9p4ulh3h6hdhh78pa" (wrong prefix: expected prefix "perpx", got "cosmos")'
 *   }
 * }
 * ```
 */
export class InvalidAddressError extends PerpxError {
  override name = "InvalidAddressError";
  /** Which rule the address broke. */
  readonly reason: InvalidAddressReason;
  /** The rejected input, in full. */
  readonly input: string;

  /**
   * @param reason - which rule the address broke.
   * @param input - the rejected value.
   * @param options - the precise problem, cause, details and meta lines.
   */
  constructor(reason: InvalidAddressReason, input: string, options: InvalidAddressErrorOptions = {}) {
    const { problem, ...base } = options;
    const what = problem === undefined ? REASON_TEXT[reason] : `${REASON_TEXT[reason]}: ${problem}`;
    super("INVALID_ADDRESS", `Invalid address ${quote(input)} (${what})`, {
      docsPath: "/address#errors",
      ...base,
    });
    this.reason = reason;
    this.input = redactSecrets(input);
  }
}

/**
 * True when `value` is an {@link InvalidAddressError}, also across duplicated package copies.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * try {
 *   addressToHex("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD");
 * } catch (error) {
 *   if (isInvalidAddressError(error)) {
 *     error.reason; // "bad-checksum"
 *   }
 * }
 * ```
 */
export const isInvalidAddressError = errorGuard<InvalidAddressError>("InvalidAddressError");

/**
 * Why a subaccount number or subaccount id was rejected.
 *
 * - `bad-format`: text that is not `{address}/{number}` with a plain decimal number (no sign,
 *   no leading zeros, no spaces), text that is not a string, or a reference that is not an object.
 * - `bad-owner`: the owner is not a valid address; the {@link InvalidAddressError} is the `cause`.
 * - `not-an-integer`: a number that is not an integer (fractions, `NaN`, infinities).
 * - `out-of-range`: a number below 0 or above {@link MAX_SUBACCOUNT_NUMBER}, a parent number above
 *   127, or a child index that would exceed the maximum.
 *
 * @example
 * ```ts
 * const reason: InvalidSubaccountReason = "out-of-range";
 * ```
 */
export type InvalidSubaccountReason = "bad-format" | "bad-owner" | "not-an-integer" | "out-of-range";

/**
 * Options of an {@link InvalidSubaccountError}: the base options plus the precise problem.
 *
 * @example
 * ```ts
 * const options: InvalidSubaccountErrorOptions = { problem: "must be at most 128000" };
 * new InvalidSubaccountError("out-of-range", "128001", options).shortMessage; // 'Invalid subaccount "128001" (out of range: must be at most 128000)'
 * ```
 */
export interface InvalidSubaccountErrorOptions extends PerpxErrorOptions {
  /** What exactly is wrong, in a few words. */
  problem?: string;
}

/**
 * A subaccount number or subaccount id that is out of range or malformed. `reason` says which rule
 * failed and `input` holds the rejected value as text. Its `code` is `"INVALID_SUBACCOUNT"`.
 *
 * @example
 * ```ts
 * try {
 *   validateSubaccountNumber(128_001);
 * } catch (error) {
 *   if (isInvalidSubaccountError(error)) {
 *     error.reason; // "out-of-range"
 *   }
 * }
 * ```
 */
export class InvalidSubaccountError extends PerpxError {
  override name = "InvalidSubaccountError";
  /** Which rule the subaccount number or id broke. */
  readonly reason: InvalidSubaccountReason;
  /** The rejected value, as text (`String(n)` for numbers). */
  readonly input: string;

  /**
   * @param reason - which rule was broken.
   * @param input - the rejected value, as text.
   * @param options - the precise problem, cause, details and meta lines.
   */
  constructor(reason: InvalidSubaccountReason, input: string, options: InvalidSubaccountErrorOptions = {}) {
    const { problem, ...base } = options;
    const name = reason.replace(/-/g, " ");
    const what = problem === undefined ? name : `${name}: ${problem}`;
    super("INVALID_SUBACCOUNT", `Invalid subaccount ${quote(input)} (${what})`, {
      docsPath: "/address#subaccounts",
      ...base,
    });
    this.reason = reason;
    this.input = redactSecrets(input);
  }
}

/**
 * True when `value` is an {@link InvalidSubaccountError}, also across duplicated package copies.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * try {
 *   parseSubaccountId("perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c/007");
 * } catch (error) {
 *   if (isInvalidSubaccountError(error)) {
 *     error.reason; // "bad-format"
 *   }
 * }
 * ```
 */
export const isInvalidSubaccountError = errorGuard<InvalidSubaccountError>("InvalidSubaccountError");
