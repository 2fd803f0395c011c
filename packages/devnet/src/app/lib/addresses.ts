/**
 * Addresses as the chain reads them: bech32 with the `perpx` prefix only (the SDK's address codec
 * does not take the 0x form), module account addresses, and store-key spelling.
 */

import { addressBytes, addressBytesToBech32, DEFAULT_PREFIX } from "@perpx/address";
import { bytesKey, fromHex, toHex, utf8 } from "./codec.js";
import { AbciError, abciError, sdkErrors } from "./errors.js";
import { sha256 } from "./sha256.js";

/** The chain's account prefix. */
export const ACCOUNT_PREFIX = DEFAULT_PREFIX;

/** Addresses decoded lately (valid ones only; oldest dropped first): every tx decodes the same few. */
const DECODED_CACHE_SIZE = 4096;
const decodedAddresses = new Map<string, Uint8Array>();

/**
 * The 20 bytes of a `perpx1...` address; throws sdk code 7 with `<what>: <reason>` otherwise.
 * A fresh copy each call (decoded once, then from a bounded cache).
 *
 * @param text - the bech32 address.
 * @param what - the context of the error, e.g. "invalid from address".
 */
export function accAddressBytes(text: string, what = "invalid address"): Uint8Array {
  const cached = decodedAddresses.get(text);
  if (cached !== undefined) return cached.slice();
  const bytes = decodeAccAddress(text, what);
  if (decodedAddresses.size >= DECODED_CACHE_SIZE) {
    const oldest = decodedAddresses.keys().next().value;
    if (oldest !== undefined) decodedAddresses.delete(oldest);
  }
  decodedAddresses.set(text, bytes.slice());
  return bytes;
}

function decodeAccAddress(text: string, what: string): Uint8Array {
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

/**
 * Why `text` is no account address, in the words of the SDK's `AccAddressFromBech32` where the
 * devnet knows them (an empty address, a bech32 address of another prefix), else the decoder's; for
 * the error path only (the address is decoded afresh, nothing cached).
 *
 * @param text - the rejected address.
 * @returns the reason, or undefined for a valid address.
 * @example
 * ```ts
 * accAddressProblem(""); // "empty address string is not allowed"
 * accAddressProblem("cosmos1t2htvpfl862vnwdqnuekd9p4ulh3h6hdhh78pa"); // "invalid Bech32 prefix; expected perpx, got cosmos"
 * ```
 */
export function accAddressProblem(text: string): string | undefined {
  if (text.trim() === "") return "empty address string is not allowed";
  if (/^0x/i.test(text)) return "decoding bech32 failed: invalid character not part of charset: 120";
  try {
    addressBytes(text, { prefix: ACCOUNT_PREFIX });
    return undefined;
  } catch (error) {
    if (error instanceof AbciError) return error.log;
    if ((error as { reason?: string }).reason === "wrong-prefix") {
      return `invalid Bech32 prefix; expected ${ACCOUNT_PREFIX}, got ${text.slice(0, text.lastIndexOf("1")).toLowerCase()}`;
    }
    return error instanceof Error
      ? ((error as { shortMessage?: string }).shortMessage ?? error.message)
      : String(error);
  }
}

/** Addresses encoded lately, by their bytes as latin1 text (oldest dropped first): a fill's events name the same few. */
const encodedAddresses = new Map<string, string>();

/** `perpx1...` of 20 bytes (encoded once, then from a bounded cache). */
export function bech32Of(bytes: Uint8Array): string {
  const key = bytesKey(bytes);
  const cached = encodedAddresses.get(key);
  if (cached !== undefined) return cached;
  const text = addressBytesToBech32(bytes, ACCOUNT_PREFIX);
  if (encodedAddresses.size >= DECODED_CACHE_SIZE) {
    const oldest = encodedAddresses.keys().next().value;
    if (oldest !== undefined) encodedAddresses.delete(oldest);
  }
  encodedAddresses.set(key, text);
  return text;
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
  let address = moduleAddresses.get(name);
  if (address === undefined) {
    address = sha256(utf8(name)).subarray(0, 20);
    if (moduleAddresses.size >= DECODED_CACHE_SIZE) moduleAddresses.clear();
    moduleAddresses.set(name, address);
  }
  return address.slice();
}

/** Module account addresses computed lately (a fee or a fill moves coins between the same few). */
const moduleAddresses = new Map<string, Uint8Array>();
