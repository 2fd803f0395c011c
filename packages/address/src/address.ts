import { addressBytesToBech32, decodeBech32 } from "./bech32.js";
import { describeNonString, InvalidAddressError, isInvalidAddressError } from "./errors.js";
import { addressBytesToHex, decodeHex, looksLikeHex } from "./hex.js";
import { assertPrefix, DEFAULT_PREFIX, VALOPER_PREFIX } from "./prefix.js";

/**
 * Options of the functions that read an address in either form.
 *
 * @example
 * ```ts
 * const options: AddressOptions = { prefix: "cosmos" };
 * addressToHex("cosmos1t2htvpfl862vnwdqnuekd9p4ulh3h6hdhh78pa", options); // "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
 * ```
 */
export interface AddressOptions {
  /**
   * The bech32 prefix a bech32 input must carry, and the prefix of the bech32 output.
   * @default "perpx"
   */
  prefix?: string;
}

/**
 * One account address in both of its forms, as {@link parseAddress} returns it.
 *
 * @example
 * ```ts
 * const parsed: ParsedAddress = parseAddress("perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c");
 * parsed.prefix; // "perpx"
 * parsed.bytes.length; // 20
 * ```
 */
export interface ParsedAddress {
  /** The 20 bytes of the account (a fresh copy the caller may modify). */
  bytes: Uint8Array;
  /** The lowercase bech32 form, with the prefix of the options. */
  bech32: string;
  /** The `0x` form with the EIP-55 checksum. */
  hex: `0x${string}`;
  /** The prefix the input carried, or `undefined` when the input was a `0x` address. */
  prefix: string | undefined;
}

/**
 * Decodes either form. `0x` input in any accepted case; bech32 input must carry one of `prefixes`.
 * Inputs that are not strings (from untyped callers) are rejected as `empty` or `bad-format`.
 */
function decode(
  input: unknown,
  prefixes: readonly string[],
): { bytes: Uint8Array; prefix: string | undefined } {
  if (input === undefined || input === null || input === "") {
    throw new InvalidAddressError("empty", input === "" ? "" : String(input), {
      problem: "expected an address, got nothing",
    });
  }
  if (typeof input !== "string") {
    throw new InvalidAddressError("bad-format", describeNonString(input), {
      problem: `expected a string, got a ${typeof input}`,
    });
  }
  if (looksLikeHex(input, prefixes)) return { bytes: decodeHex(input), prefix: undefined };
  return decodeBech32(input, prefixes);
}

/**
 * Reads an account address in either form and returns it in both.
 *
 * Accepted: `0x` + 40 hex digits in all lowercase, all uppercase, or mixed case with a correct
 * EIP-55 checksum; or a bech32 address (all lowercase or all uppercase) of 20 bytes carrying the
 * prefix `options.prefix`.
 *
 * @param input - the address, `0x...` or `perpx1...`.
 * @param options - `prefix`: the bech32 prefix expected on input and used on output.
 * @returns the address's bytes, its bech32 and checksummed `0x` forms, and the input's prefix.
 * @throws {InvalidAddressError} saying exactly what is wrong (see {@link InvalidAddressReason}).
 * @throws {InvalidArgumentError} when `options.prefix` is not a valid bech32 prefix.
 *
 * @example
 * ```ts
 * const address = parseAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed");
 * address.bech32; // "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c"
 * address.hex; // "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
 * address.prefix; // undefined (the input was a 0x address)
 * ```
 */
export function parseAddress(input: string, options: AddressOptions = {}): ParsedAddress {
  const prefix = assertPrefix(options.prefix ?? DEFAULT_PREFIX, "options.prefix");
  const decoded = decode(input, [prefix]);
  return {
    bytes: decoded.bytes,
    bech32: addressBytesToBech32(decoded.bytes, prefix),
    hex: addressBytesToHex(decoded.bytes),
    prefix: decoded.prefix,
  };
}

/**
 * True when {@link parseAddress} would accept `input` with the same options.
 *
 * @param input - the candidate address.
 * @param options - `prefix`: the bech32 prefix a bech32 input must carry.
 * @returns whether `input` is a valid account address.
 * @throws {InvalidArgumentError} when `options.prefix` is not a valid bech32 prefix (a programming
 * error, never hidden as `false`).
 *
 * @example
 * ```ts
 * isValidAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"); // true
 * isValidAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"); // false: bad checksum
 * ```
 */
export function isValidAddress(input: string, options: AddressOptions = {}): boolean {
  const prefix = assertPrefix(options.prefix ?? DEFAULT_PREFIX, "options.prefix");
  try {
    decode(input, [prefix]);
    return true;
  } catch (error) {
    if (isInvalidAddressError(error)) return false;
    throw error;
  }
}

/**
 * The 20 bytes of an account address given in either form.
 *
 * @param input - the address, `0x...` or bech32 with `options.prefix`.
 * @param options - `prefix`: the bech32 prefix a bech32 input must carry.
 * @returns a fresh 20-byte array.
 * @throws {InvalidAddressError} saying exactly what is wrong.
 * @throws {InvalidArgumentError} when `options.prefix` is not a valid bech32 prefix.
 *
 * @example
 * ```ts
 * addressBytes("perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc"); // new Uint8Array(20)
 * ```
 */
export function addressBytes(input: string, options: AddressOptions = {}): Uint8Array {
  const prefix = assertPrefix(options.prefix ?? DEFAULT_PREFIX, "options.prefix");
  return decode(input, [prefix]).bytes;
}

/**
 * Converts a perpx account address to bech32 with the given prefix.
 *
 * The input may be a `0x` address, or a bech32 address carrying either {@link DEFAULT_PREFIX}
 * (`perpx`) or the target `prefix` itself. Any other source prefix is rejected as `wrong-prefix`,
 * so that a validator operator address or another chain's address is never silently re-labelled;
 * to re-encode those on purpose, use {@link addressBytes} with their prefix and
 * {@link addressBytesToBech32}, or {@link fromValoperAddress}.
 *
 * @param address - the account address, `0x...`, `perpx1...` or `{prefix}1...`.
 * @param prefix - the prefix of the result.
 * @default prefix `"perpx"`
 * @returns the lowercase bech32 address.
 * @throws {InvalidAddressError} saying exactly what is wrong.
 * @throws {InvalidArgumentError} when `prefix` is not a valid bech32 prefix.
 *
 * @example
 * ```ts
 * toBech32("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"); // "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c"
 * toBech32("perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", "cosmos"); // "cosmos1t2htvpfl862vnwdqnuekd9p4ulh3h6hdhh78pa"
 * ```
 */
export function toBech32(address: string, prefix: string = DEFAULT_PREFIX): string {
  assertPrefix(prefix);
  const accepted = prefix === DEFAULT_PREFIX ? [DEFAULT_PREFIX] : [DEFAULT_PREFIX, prefix];
  return addressBytesToBech32(decode(address, accepted).bytes, prefix);
}

/**
 * Converts a perpx account address to its `0x` form with the EIP-55 checksum.
 *
 * @param address - the account address, `0x...` (any accepted case) or bech32 with `options.prefix`.
 * @param options - `prefix`: the bech32 prefix a bech32 input must carry.
 * @returns `0x` followed by 40 checksummed hex digits.
 * @throws {InvalidAddressError} saying exactly what is wrong.
 * @throws {InvalidArgumentError} when `options.prefix` is not a valid bech32 prefix.
 *
 * @example
 * ```ts
 * addressToHex("perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c"); // "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
 * addressToHex("0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED"); // "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
 * ```
 */
export function addressToHex(address: string, options: AddressOptions = {}): `0x${string}` {
  return addressBytesToHex(addressBytes(address, options));
}

/**
 * The validator operator address (`perpxvaloper1...`) of the account that runs a validator.
 *
 * @param address - the operator's account address, `0x...` or `perpx1...`.
 * @returns the same 20 bytes with the prefix {@link VALOPER_PREFIX}.
 * @throws {InvalidAddressError} saying exactly what is wrong (`wrong-prefix` for any bech32
 * prefix other than `perpx`, including `perpxvaloper`).
 *
 * @example
 * ```ts
 * toValoperAddress("perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c"); // "perpxvaloper1t2htvpfl862vnwdqnuekd9p4ulh3h6hd9p8hhj"
 * ```
 */
export function toValoperAddress(address: string): string {
  return addressBytesToBech32(decode(address, [DEFAULT_PREFIX]).bytes, VALOPER_PREFIX);
}

/**
 * The account address (`perpx1...`) behind a validator operator address.
 *
 * @param valoper - the operator address, `perpxvaloper1...` (a `0x` address is rejected as
 * `wrong-prefix`: it names an account, not an operator).
 * @returns the same 20 bytes with the prefix {@link DEFAULT_PREFIX}.
 * @throws {InvalidAddressError} saying exactly what is wrong.
 *
 * @example
 * ```ts
 * fromValoperAddress(toValoperAddress("perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c")); // "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c"
 * ```
 */
export function fromValoperAddress(valoper: string): string {
  if (typeof valoper === "string" && looksLikeHex(valoper, [VALOPER_PREFIX])) {
    throw new InvalidAddressError("wrong-prefix", valoper, {
      problem: `expected a bech32 address with prefix ${JSON.stringify(VALOPER_PREFIX)}, got a 0x address`,
    });
  }
  return addressBytesToBech32(decode(valoper, [VALOPER_PREFIX]).bytes, DEFAULT_PREFIX);
}
