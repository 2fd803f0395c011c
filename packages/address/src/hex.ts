import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { describeNonString, InvalidAddressError } from "./errors.js";
import { ADDRESS_LENGTH } from "./prefix.js";

const HEX_DIGITS = /^[0-9a-fA-F]*$/;

/** The EIP-55 spelling of 40 lowercase hex digits (without `0x`). */
function checksumDigits(lower: string): string {
  const hash = keccak_256(utf8ToBytes(lower));
  let out = "";
  for (let i = 0; i < lower.length; i++) {
    const char = lower[i]!;
    // Nibble i of the hash: high nibble of byte i/2 for even i, low nibble for odd i.
    const byte = hash[i >> 1]!;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    out += nibble >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

/**
 * Checks that `bytes` is a 20-byte `Uint8Array`.
 *
 * @throws {InvalidAddressError} `wrong-length` otherwise.
 */
export function assertAddressBytes(bytes: Uint8Array): Uint8Array {
  if (!(bytes instanceof Uint8Array)) {
    throw new InvalidAddressError("bad-format", describeNonString(bytes), {
      problem: "expected a Uint8Array",
    });
  }
  if (bytes.length !== ADDRESS_LENGTH) {
    throw new InvalidAddressError("wrong-length", `0x${bytesToHex(bytes)}`, {
      problem: `expected ${ADDRESS_LENGTH} bytes, got ${bytes.length}`,
    });
  }
  return bytes;
}

/**
 * Encodes 20 address bytes as a `0x` address with the EIP-55 mixed-case checksum.
 *
 * @param bytes - the 20 bytes of the account.
 * @returns `0x` followed by 40 hex digits, checksummed.
 * @throws {InvalidAddressError} `wrong-length` when `bytes` does not hold 20 bytes.
 *
 * @example
 * ```ts
 * addressBytesToHex(new Uint8Array(20).fill(0xab)); // "0xABaBaBaBABabABabAbAbABAbABabababaBaBABaB"
 * ```
 */
export function addressBytesToHex(bytes: Uint8Array): `0x${string}` {
  return `0x${checksumDigits(bytesToHex(assertAddressBytes(bytes)))}`;
}

/**
 * True when `input` is meant as a `0x` address rather than bech32: it starts with `0x` or `0X`, or
 * it is 40 hex digits without the `0x` and cannot be a bech32 address with one of
 * `bech32Prefixes` (a one-character hex prefix makes such a string ambiguous). Says nothing about
 * validity.
 */
export function looksLikeHex(input: string, bech32Prefixes: readonly string[]): boolean {
  if (input.startsWith("0x") || input.startsWith("0X")) return true;
  if (!/^[0-9a-fA-F]{40}$/.test(input)) return false;
  return !bech32Prefixes.includes(input.slice(0, input.toLowerCase().lastIndexOf("1")).toLowerCase());
}

/**
 * Decodes a `0x` address: lowercase, uppercase, or mixed case with a correct EIP-55 checksum.
 *
 * @throws {InvalidAddressError} `bad-format`, `bad-character`, `wrong-length` or `bad-checksum`.
 */
export function decodeHex(input: string): Uint8Array {
  if (!input.startsWith("0x")) {
    const problem = input.startsWith("0X")
      ? 'the prefix must be a lowercase "0x"'
      : 'missing the "0x" prefix before the 40 hex digits';
    throw new InvalidAddressError("bad-format", input, { problem });
  }
  const digits = input.slice(2);
  if (!HEX_DIGITS.test(digits)) {
    const index = [...digits].findIndex((c) => !/[0-9a-fA-F]/.test(c));
    const char = [...digits][index]!;
    throw new InvalidAddressError("bad-character", input, {
      problem: `${JSON.stringify(char)} at position ${index + 2} is not a hex digit`,
    });
  }
  if (digits.length !== ADDRESS_LENGTH * 2) {
    throw new InvalidAddressError("wrong-length", input, {
      problem: `expected ${ADDRESS_LENGTH * 2} hex digits after "0x", got ${digits.length}`,
    });
  }
  const lower = digits.toLowerCase();
  if (digits !== lower && digits !== digits.toUpperCase()) {
    // The correct spelling is deliberately not shown: copying it would defeat the checksum.
    if (digits !== checksumDigits(lower)) {
      throw new InvalidAddressError("bad-checksum", input, {
        problem: "the mixed-case EIP-55 checksum does not match; check the address for typos",
      });
    }
  }
  return hexToBytes(lower);
}
