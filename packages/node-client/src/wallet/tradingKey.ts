import { addressBytes, decodeCredential, InvalidCredentialError, type TradingCredential } from "@perpx/core";
import { LocalWallet, type WalletOptions } from "./localWallet.js";

/**
 * A trading key ready to sign for its master account.
 *
 * @example
 * ```ts
 * // The master account trades; the key's wallet signs for it.
 * const tradingKey: TradingKey = { masterAddress: wallet.address, wallet: LocalWallet.generate() };
 * ```
 */
export interface TradingKey {
  /** The master account the key trades for (`perpx1...`); it is the signer of the messages. */
  masterAddress: string;
  /** The trading key's own wallet (secp256k1); it signs. */
  wallet: LocalWallet;
}

/**
 * Turns a trading credential (base64 JSON, decoded by `@perpx/core`) into a signing trading key.
 *
 * @param credential - the base64 credential, or an already decoded {@link TradingCredential}.
 * @param options - the address `prefix` and the signer `backend`.
 * @returns the master address and the key's wallet.
 * @throws {InvalidCredentialError} for a malformed or read-only credential (no `tradingPrivateKey`).
 *
 * @example
 * ```ts
 * import { encodeCredential } from "@perpx/core";
 *
 * // The base64 credential a bot is given: the master account and the trading key.
 * const credential = encodeCredential({ masterAddress: wallet.address, tradingPrivateKey: LocalWallet.generate().exportPrivateKeyHex() });
 * const { masterAddress } = tradingKeyFromCredential(credential);
 * masterAddress === wallet.address; // true
 * ```
 */
export function tradingKeyFromCredential(
  credential: string | TradingCredential,
  options: WalletOptions = {},
): TradingKey {
  if (typeof credential !== "string" && (typeof credential !== "object" || credential === null)) {
    throw new InvalidCredentialError(
      "shape",
      `expected the base64 credential or a decoded credential, got ${credential === null ? "null" : typeof credential}`,
    );
  }
  const decoded = typeof credential === "string" ? decodeCredential(credential) : credential;
  if (typeof decoded.revealPrivateKey !== "function") {
    throw new InvalidCredentialError("shape", "expected a credential decoded by decodeCredential");
  }
  const key = decoded.revealPrivateKey();
  if (key === undefined) {
    throw new InvalidCredentialError("shape", "the credential is read-only: it carries no tradingPrivateKey");
  }
  try {
    addressBytes(decoded.masterAddress);
    return { masterAddress: decoded.masterAddress, wallet: LocalWallet.fromPrivateKey(key, options) };
  } finally {
    key.fill(0);
  }
}
