/**
 * Addresses as the chain reads them: bech32 with the `perpx` prefix only (the SDK's address codec
 * does not take the 0x form), module account addresses, and store-key spelling.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { addressBytes, bech32FromBytes, DEFAULT_PREFIX } from "@perpx/address";
import { fromHex, toHex, utf8 } from "./codec.js";
import { AbciError, abciError, sdkErrors } from "./errors.js";

/** The chain's account prefix. */
export const ACCOUNT_PREFIX = DEFAULT_PREFIX;

/**
 * The 20 bytes of a `perpx1...` address; throws sdk code 7 with `<what>: <reason>` otherwise.
 *
 * @param text - the bech32 address.
 * @param what - the context of the error, e.g. "invalid from address".
 */
export function accAddressBytes(text: string, what = "invalid address"): Uint8Array {
  if (text === "") throw abciError(sdkErrors.invalidAddress, `${what}: empty address string is not allowed`);
  if (/^0x/i.test(text)) {
    throw abciError(
      sdkErrors.invalidAddress,
      `${what}: decoding bech32 failed: invalid character not part of charset: 120`,
    );
  }
  try {
    return addressBytes(text, { prefix: ACCOUNT_PREFIX });
  } catch (error) {
    if (error instanceof AbciError) throw error;
    const reason =
      error instanceof Error
        ? ((error as { shortMessage?: string }).shortMessage ?? error.message)
        : String(error);
    throw abciError(sdkErrors.invalidAddress, `${what}: ${reason}`);
  }
}

/** `perpx1...` of 20 bytes. */
export function bech32Of(bytes: Uint8Array): string {
  return bech32FromBytes(bytes, ACCOUNT_PREFIX);
}

/** The store-key spelling of an address: 40 lower-case hex digits (sorts as the bytes do). */
export function addressKey(bytes: Uint8Array): string {
  return toHex(bytes);
}

/** The bytes of a store-key address. */
export function addressFromKey(key: string): Uint8Array {
  return fromHex(key);
}

/** A module account's address: the first 20 bytes of SHA-256(name), as the SDK's `address.Module`. */
export function moduleAddress(name: string): Uint8Array {
  return sha256(utf8(name)).subarray(0, 20);
}
