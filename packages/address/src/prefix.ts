import { InvalidArgumentError } from "@perpx/errors";

/**
 * The bech32 prefix of perpx accounts: addresses read `perpx1...`.
 *
 * @example
 * ```ts
 * addressBytesToBech32(new Uint8Array(20), DEFAULT_PREFIX); // "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc"
 * ```
 */
export const DEFAULT_PREFIX = "perpx";

/**
 * The bech32 prefix of perpx validator operator addresses: `perpxvaloper1...`.
 *
 * @example
 * ```ts
 * toValoperAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed").startsWith(`${VALOPER_PREFIX}1`); // true
 * ```
 */
export const VALOPER_PREFIX = "perpxvaloper";

/**
 * The number of bytes in an account address, in both forms.
 *
 * @example
 * ```ts
 * addressBytes("0x0000000000000000000000000000000000000000").length === ADDRESS_LENGTH; // true
 * ```
 */
export const ADDRESS_LENGTH = 20;

/**
 * The longest bech32 prefix accepted: BIP-173 limits a bech32 string to 90 characters, and a
 * 20-byte address takes 39 of them (separator, 32 data and 6 checksum characters).
 *
 * @example
 * ```ts
 * isValidPrefix("a".repeat(MAX_PREFIX_LENGTH)); // true
 * ```
 */
export const MAX_PREFIX_LENGTH = 51;

/**
 * True when `prefix` can be the prefix of a bech32 address: 1 to {@link MAX_PREFIX_LENGTH}
 * printable ASCII characters (codes 33 to 126), none of them uppercase, and not starting with `0x`
 * (which would make its addresses read as `0x` addresses).
 *
 * @param prefix - the candidate prefix.
 * @returns whether addresses can be encoded and decoded with it.
 *
 * @example
 * ```ts
 * isValidPrefix("perpx"); // true
 * isValidPrefix("Perpx"); // false: prefixes are lowercase
 * isValidPrefix("0xchain"); // false: reads as a 0x address
 * ```
 */
export function isValidPrefix(prefix: string): boolean {
  return (
    typeof prefix === "string" &&
    prefix.length >= 1 &&
    prefix.length <= MAX_PREFIX_LENGTH &&
    /^[\x21-\x7e]+$/.test(prefix) &&
    prefix === prefix.toLowerCase() &&
    !prefix.startsWith("0x")
  );
}

/**
 * Returns `prefix` when {@link isValidPrefix} holds for it.
 *
 * @throws {InvalidArgumentError} when it does not (a programming error, not a bad address).
 */
export function assertPrefix(prefix: string, argument = "prefix"): string {
  if (!isValidPrefix(prefix)) {
    throw new InvalidArgumentError(
      argument,
      `${JSON.stringify(prefix)} is not a bech32 prefix (1 to ${MAX_PREFIX_LENGTH} lowercase printable ASCII characters, not starting with "0x")`,
    );
  }
  return prefix;
}
