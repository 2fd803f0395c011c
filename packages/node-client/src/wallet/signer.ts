/**
 * The key algorithms a perpx account can have.
 * - `secp256k1`: Cosmos keys (`/cosmos.crypto.secp256k1.PubKey`), signatures over SHA-256.
 * - `eth_secp256k1`: EVM keys (`/cosmos.evm.crypto.v1.ethsecp256k1.PubKey`), signatures over
 *   Keccak-256, keccak addresses.
 *
 * @example
 * ```ts
 * const keyType: KeyType = "eth_secp256k1";
 * ```
 */
export type KeyType = "secp256k1" | "eth_secp256k1";

/**
 * The public key type URL of each key algorithm, as it goes into `SignerInfo.public_key`.
 *
 * @example
 * ```ts
 * PUBKEY_TYPE_URLS.secp256k1; // "/cosmos.crypto.secp256k1.PubKey"
 * ```
 */
export const PUBKEY_TYPE_URLS: Readonly<Record<KeyType, string>> = {
  secp256k1: "/cosmos.crypto.secp256k1.PubKey",
  eth_secp256k1: "/cosmos.evm.crypto.v1.ethsecp256k1.PubKey",
};

/**
 * The fields of a SIGN_MODE_DIRECT `SignDoc`.
 *
 * @example
 * ```ts
 * const doc: SignDocFields = { bodyBytes: Uint8Array.of(1), authInfoBytes: Uint8Array.of(2), chainId: "perpx-local-1", accountNumber: 0n };
 * ```
 */
export interface SignDocFields {
  /** Serialized `TxBody`. */
  bodyBytes: Uint8Array;
  /** Serialized `AuthInfo`. */
  authInfoBytes: Uint8Array;
  /** The chain id, e.g. `perpx-local-1`. */
  chainId: string;
  /** The signing account's number (the owner's, when a trading key signs). */
  accountNumber: bigint;
}

/**
 * What a {@link TxSigner} returns: the doc it actually signed (an external wallet may change it) and the signature.
 *
 * @example
 * ```ts
 * const doc = { bodyBytes: Uint8Array.of(1), authInfoBytes: Uint8Array.of(2), chainId: "perpx-local-1", accountNumber: 0n };
 * const { signature }: DirectSignature = await wallet.signDirect(doc, encodeSignDoc(doc));
 * signature.length; // 64
 * ```
 */
export interface DirectSignature {
  /** The body bytes that were signed (put these in `TxRaw`). */
  bodyBytes: Uint8Array;
  /** The auth info bytes that were signed (put these in `TxRaw`). */
  authInfoBytes: Uint8Array;
  /** The signature bytes for `TxRaw.signatures`. */
  signature: Uint8Array;
}

/**
 * Anything that can sign perpx transactions in SIGN_MODE_DIRECT: local wallets, EVM wallets,
 * trading keys and adapted external signers.
 *
 * @example
 * ```ts
 * const signer: TxSigner = LocalWallet.fromMnemonic(mnemonic);
 * ```
 */
export interface TxSigner {
  /** The bech32 address of the key's own account. */
  readonly address: string;
  /** The 33-byte compressed public key. */
  readonly publicKey: Uint8Array;
  /** The key algorithm. */
  readonly keyType: KeyType;
  /**
   * Signs a SignDoc.
   *
   * @param doc - the SignDoc's fields.
   * @param signDocBytes - the serialized SignDoc, when the caller already has it (local signers sign these).
   */
  signDirect(doc: SignDocFields, signDocBytes: Uint8Array): DirectSignature | Promise<DirectSignature>;
}
