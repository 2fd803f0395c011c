import { bech32 } from "bech32";
import { InvalidAddressError } from "./errors.js";
import { assertAddressBytes } from "./hex.js";
import { ADDRESS_LENGTH, assertPrefix, DEFAULT_PREFIX } from "./prefix.js";

/** The 32 characters of the bech32 data alphabet (BIP-173). */
const BECH32_ALPHABET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
/** Number of 5-bit words that hold exactly 20 bytes (160 bits, no padding). */
const ADDRESS_WORDS = (ADDRESS_LENGTH * 8) / 5;
/** A decode limit past any real input, so overlong strings report their real defect. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * Encodes 20 address bytes as a bech32 address with the given prefix.
 *
 * @param bytes - the 20 bytes of the account.
 * @param prefix - the bech32 prefix (human-readable part).
 * @default prefix {@link DEFAULT_PREFIX} (`"perpx"`)
 * @returns the lowercase bech32 address, `prefix1...`.
 * @throws {InvalidAddressError} `wrong-length` when `bytes` does not hold 20 bytes.
 * @throws {InvalidArgumentError} when `prefix` is not a valid bech32 prefix (see {@link isValidPrefix}).
 *
 * @example
 * ```ts
 * addressBytesToBech32(new Uint8Array(20)); // "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc"
 * ```
 */
export function addressBytesToBech32(bytes: Uint8Array, prefix: string = DEFAULT_PREFIX): string {
  assertAddressBytes(bytes);
  assertPrefix(prefix);
  return bech32.encode(prefix, bech32.toWords(bytes));
}

/** A decoded bech32 address. */
export interface DecodedBech32 {
  /** The lowercase prefix it carried. */
  prefix: string;
  /** Its 20 bytes. */
  bytes: Uint8Array;
}

/**
 * Decodes a bech32 address of 20 bytes (all lowercase or all uppercase) whose prefix is one of
 * `acceptedPrefixes`. Checks run in this order, and the first failure is reported: printable ASCII
 * (`bad-character`), single case (`mixed-case`), structure (`bad-format`), data alphabet
 * (`bad-character`), checksum (`bad-checksum`), prefix (`wrong-prefix`), length (`wrong-length`).
 *
 * @throws {InvalidAddressError} with the reason of the first failed check.
 */
export function decodeBech32(input: string, acceptedPrefixes: readonly string[]): DecodedBech32 {
  for (let i = 0; i < input.length; i++) {
    const code = input.charCodeAt(i);
    if (code < 33 || code > 126) {
      const char = String.fromCodePoint(input.codePointAt(i)!);
      throw new InvalidAddressError("bad-character", input, {
        problem: `${JSON.stringify(char)} at position ${i} is not a printable ASCII character`,
      });
    }
  }
  const lower = input.toLowerCase();
  if (input !== lower && input !== input.toUpperCase()) {
    throw new InvalidAddressError("mixed-case", input, {
      problem: "a bech32 address must be all lowercase or all uppercase",
    });
  }
  const separator = lower.lastIndexOf("1");
  if (separator === -1) {
    throw new InvalidAddressError("bad-format", input, {
      problem: 'neither a "0x" address nor bech32 (no "1" separator)',
    });
  }
  if (separator === 0) {
    throw new InvalidAddressError("bad-format", input, { problem: 'empty prefix before the "1" separator' });
  }
  const data = lower.slice(separator + 1);
  if (data.length < 6) {
    throw new InvalidAddressError("bad-format", input, {
      problem: `the data part after the last "1" has ${data.length} characters; the checksum alone needs 6`,
    });
  }
  for (let i = 0; i < data.length; i++) {
    if (!BECH32_ALPHABET.includes(data[i]!)) {
      throw new InvalidAddressError("bad-character", input, {
        problem: `${JSON.stringify(input[separator + 1 + i])} at position ${separator + 1 + i} is not in the bech32 alphabet`,
      });
    }
  }
  // Every structural check the decoder makes has passed above, so a failure here is the checksum.
  const decoded = bech32.decodeUnsafe(lower, NO_LIMIT);
  if (decoded === undefined) {
    throw new InvalidAddressError("bad-checksum", input, {
      problem: "the bech32 checksum does not verify; check the address for typos",
    });
  }
  if (!acceptedPrefixes.includes(decoded.prefix)) {
    const expected = acceptedPrefixes.map((p) => JSON.stringify(p)).join(" or ");
    throw new InvalidAddressError("wrong-prefix", input, {
      problem: `expected prefix ${expected}, got ${JSON.stringify(decoded.prefix)}`,
    });
  }
  if (decoded.words.length !== ADDRESS_WORDS) {
    const bytes = Math.floor((decoded.words.length * 5) / 8);
    throw new InvalidAddressError("wrong-length", input, {
      problem: `expected ${ADDRESS_LENGTH} bytes (${ADDRESS_WORDS} data characters), got ${decoded.words.length} data characters (${bytes} bytes)`,
    });
  }
  // 32 words are exactly 160 bits, so there is no padding that could be invalid.
  return { prefix: decoded.prefix, bytes: Uint8Array.from(bech32.fromWords(decoded.words)) };
}
