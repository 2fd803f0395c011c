import { InvalidArgumentError } from "@perpx/errors";
import { HDKey } from "@scure/bip32";
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { SecretKey } from "./secretKey.js";

/**
 * The Cosmos HD path of account `index`: `m/44'/118'/0'/0/{index}`.
 *
 * @param index - the account index, a non-negative integer.
 * @returns the BIP-44 derivation path.
 * @example
 * ```ts
 * cosmosHdPath(2); // "m/44'/118'/0'/0/2"
 * ```
 */
export function cosmosHdPath(index: number): string {
  return `m/44'/118'/0'/0/${checkIndex(index)}`;
}

/**
 * The Ethereum HD path of account `index`: `m/44'/60'/0'/0/{index}`.
 *
 * @param index - the account index, a non-negative integer.
 * @returns the BIP-44 derivation path.
 * @example
 * ```ts
 * evmHdPath(0); // "m/44'/60'/0'/0/0"
 * ```
 */
export function evmHdPath(index: number): string {
  return `m/44'/60'/0'/0/${checkIndex(index)}`;
}

function checkIndex(index: number): number {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) {
    throw new InvalidArgumentError("index", `expected an integer from 0 to 2^31 - 1, got ${String(index)}`);
  }
  return index;
}

/**
 * A fresh 24-word BIP-39 mnemonic (256 bits of entropy, English wordlist).
 *
 * @returns 24 words separated by single spaces.
 * @example
 * ```ts
 * generateMnemonic24().split(" ").length; // 24
 * ```
 */
export function generateMnemonic24(): string {
  return generateMnemonic(wordlist, 256);
}

/**
 * True when `mnemonic` is a valid English BIP-39 mnemonic (any of the standard lengths).
 *
 * @param mnemonic - the words to check.
 * @returns `true` when the words are in the wordlist and the checksum holds.
 * @example
 * ```ts
 * isValidMnemonic("abandon abandon ..."); // false
 * ```
 */
export function isValidMnemonic(mnemonic: string): boolean {
  return validateMnemonic(normalizeMnemonic(mnemonic), wordlist);
}

function normalizeMnemonic(mnemonic: string): string {
  return typeof mnemonic === "string" ? mnemonic.trim().split(/\s+/).join(" ") : "";
}

/**
 * Derives the secret key at `path` from a BIP-39 mnemonic.
 *
 * @throws {InvalidArgumentError} for an invalid mnemonic or path (the mnemonic is never echoed).
 *
 * @example
 * ```ts
 * const key = deriveSecretKey(mnemonic, { path: cosmosHdPath(0) });
 * ```
 */
export function deriveSecretKey(mnemonic: string, options: { path: string; passphrase?: string }): SecretKey {
  const normalized = normalizeMnemonic(mnemonic);
  if (!validateMnemonic(normalized, wordlist)) {
    throw new InvalidArgumentError("mnemonic", "not a valid English BIP-39 mnemonic (value not shown)");
  }
  const seed = mnemonicToSeedSync(normalized, options.passphrase ?? "");
  let node: HDKey;
  try {
    node = HDKey.fromMasterSeed(seed).derive(options.path);
  } catch (error) {
    throw new InvalidArgumentError("hdPath", `cannot derive ${JSON.stringify(options.path)}`, {
      cause: error,
    });
  } finally {
    seed.fill(0);
  }
  const key = node.privateKey;
  if (!key) throw new InvalidArgumentError("hdPath", `no private key at ${JSON.stringify(options.path)}`);
  const secret = SecretKey.from(key, "mnemonic");
  node.wipePrivateData();
  return secret;
}
