import { addressBytesToBech32, DEFAULT_PREFIX } from "@perpx/address";
import { sha256Digest } from "#crypto-platform";
import { toBase64 } from "../bytes.js";
import {
  resolveSignerBackend,
  type SignerBackend,
  type SignerBackendName,
  type SignerBackendOption,
} from "../crypto/backend.js";
import { cosmosAddressBytes, randomPrivateKey } from "../crypto/secp256k1.js";
import { cosmosHdPath, deriveSecretKey, generateMnemonic24 } from "./hd.js";
import { SecretKey } from "./secretKey.js";
import type { DirectSignature, SignDocFields, TxSigner } from "./signer.js";

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/**
 * Options shared by the wallet factories.
 *
 * @example
 * ```ts
 * const options: WalletOptions = { prefix: "perpx", backend: "auto" };
 * LocalWallet.fromPrivateKey(randomPrivateKey(), options).address.startsWith("perpx1"); // true
 * ```
 */
export interface WalletOptions {
  /**
   * The bech32 prefix of the wallet's address.
   * @default "perpx"
   */
  prefix?: string;
  /**
   * Which secp256k1 implementation signs: `"auto"` takes the native addon (libsecp256k1, from the
   * optional dependency `secp256k1`) when it loads and falls back to `@noble/curves`; `"native"`
   * insists on the addon (the factory throws `InvalidArgumentError` without it); `"js"` always uses
   * noble; a {@link SignerBackend} object is used as given. Signatures are byte-identical either way.
   * @default "auto"
   */
  backend?: SignerBackendOption;
}

/**
 * Options of {@link LocalWallet.fromMnemonic}.
 *
 * @example
 * ```ts
 * LocalWallet.fromMnemonic(mnemonic, { index: 2, passphrase: "extra" });
 * ```
 */
export interface FromMnemonicOptions extends WalletOptions {
  /**
   * The account index: the last element of the HD path.
   * @default 0
   */
  index?: number;
  /**
   * A full HD path that replaces the default `m/44'/118'/0'/0/{index}` (then `index` is ignored).
   * @default undefined
   */
  hdPath?: string;
  /**
   * The BIP-39 passphrase ("25th word").
   * @default ""
   */
  passphrase?: string;
}

/**
 * The public facts of a wallet, as `toJSON` prints them. Never the private key.
 *
 * @example
 * ```ts
 * const json: WalletJson = JSON.parse(JSON.stringify(wallet)); // never the key
 * Object.keys(json); // ["address", "keyType", "publicKey"]
 * ```
 */
export interface WalletJson {
  /** The bech32 address. */
  address: string;
  /** The key algorithm. */
  keyType: string;
  /** Base64 of the 33-byte compressed public key. */
  publicKey: string;
}

/**
 * A Cosmos secp256k1 wallet held in memory: address = RIPEMD-160(SHA-256(compressed public key)),
 * signatures = 64-byte low-S ECDSA over SHA-256 of the SignDoc. The private key is kept in a private
 * field and never appears in `toJSON`, `toString`, `util.inspect` or error messages.
 *
 * @example
 * ```ts
 * const wallet = LocalWallet.fromMnemonic(mnemonic); // index 0
 * const second = LocalWallet.fromMnemonic(mnemonic, { index: 1 });
 * console.log(wallet.address); // perpx1...
 * ```
 */
export class LocalWallet implements TxSigner {
  readonly #key: SecretKey;
  readonly #backend: SignerBackend;
  /** The bech32 address. */
  readonly address: string;
  /** The 33-byte compressed public key. */
  readonly publicKey: Uint8Array;
  /** Always `secp256k1`. */
  readonly keyType = "secp256k1" as const;
  /** The backend that signs for this wallet (`native` or `js`), resolved from `options.backend`. */
  readonly signerBackend: SignerBackendName;

  private constructor(key: SecretKey, options: WalletOptions) {
    this.#key = key;
    this.#backend = resolveSignerBackend(options.backend ?? "auto");
    this.signerBackend = this.#backend.name;
    this.publicKey = key.use((bytes) => this.#backend.publicKey(bytes));
    this.address = addressBytesToBech32(cosmosAddressBytes(this.publicKey), options.prefix ?? DEFAULT_PREFIX);
  }

  /**
   * A wallet from a BIP-39 mnemonic at `m/44'/118'/0'/0/{index}`.
   *
   * @param mnemonic - 24 words (any valid BIP-39 length is accepted).
   * @param options - index, HD path, passphrase and address prefix.
   * @returns the wallet.
   * @throws {InvalidArgumentError} for an invalid mnemonic, index or path (never echoing the mnemonic).
   *
   * @example
   * ```ts
   * const wallet = LocalWallet.fromMnemonic(mnemonic, { index: 3 });
   * ```
   */
  static fromMnemonic(mnemonic: string, options: FromMnemonicOptions = {}): LocalWallet {
    const path = options.hdPath ?? cosmosHdPath(options.index ?? 0);
    const key = deriveSecretKey(mnemonic, {
      path,
      ...(options.passphrase === undefined ? {} : { passphrase: options.passphrase }),
    });
    return new LocalWallet(key, options);
  }

  /**
   * A wallet from a raw private key.
   *
   * @param privateKey - 32 bytes, or 64 hex digits with or without `0x`.
   * @param options - address prefix and signer backend.
   * @returns the wallet.
   * @throws {InvalidArgumentError} for a malformed key (the value is never echoed), or
   * `backend: "native"` without the addon.
   *
   * @example
   * ```ts
   * const key = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"; // a test key: never one in code
   * LocalWallet.fromPrivateKey(key).address === LocalWallet.fromPrivateKey(`0x${key}`).address; // true
   * ```
   */
  static fromPrivateKey(privateKey: Uint8Array | string, options: WalletOptions = {}): LocalWallet {
    return new LocalWallet(SecretKey.from(privateKey), options);
  }

  /**
   * A wallet with a fresh random key (no mnemonic); see {@link LocalWallet.generateWithMnemonic}
   * for a recoverable one.
   *
   * @param options - the address `prefix` and the signer `backend`.
   * @returns a wallet no one else holds; it cannot be recovered unless its key is exported.
   * @example
   * ```ts
   * const tradingKey = LocalWallet.generate();
   * ```
   */
  static generate(options: WalletOptions = {}): LocalWallet {
    return new LocalWallet(SecretKey.from(randomPrivateKey()), options);
  }

  /**
   * A fresh 24-word mnemonic and the wallet at its index 0 (or `options.index`).
   *
   * @param options - the account `index` (default 0) or a whole `hdPath`, the address `prefix` and
   *   the signer `backend`.
   * @returns the mnemonic (store it safely: it is the key) and the wallet.
   *
   * @example
   * ```ts
   * const { mnemonic, wallet } = LocalWallet.generateWithMnemonic();
   * ```
   */
  static generateWithMnemonic(options: FromMnemonicOptions = {}): { mnemonic: string; wallet: LocalWallet } {
    const mnemonic = generateMnemonic24();
    return { mnemonic, wallet: LocalWallet.fromMnemonic(mnemonic, options) };
  }

  /**
   * Signs raw bytes: 64-byte `r || s` over SHA-256(bytes), low-S.
   *
   * @param bytes - the bytes to sign (a serialized SignDoc).
   * @returns the 64-byte signature.
   * @example
   * ```ts
   * const signature = wallet.sign(new TextEncoder().encode("sign me"));
   * signature.length; // 64
   * ```
   */
  sign(bytes: Uint8Array): Uint8Array {
    const digest = sha256Digest(bytes);
    return this.#key.use((key) => this.#backend.sign(digest, key));
  }

  /**
   * Signs a SIGN_MODE_DIRECT SignDoc (see {@link TxSigner}).
   *
   * @param doc - the SignDoc's fields (body, auth info, chain id, account number).
   * @param signDocBytes - the serialized SignDoc those fields encode to.
   * @returns the signature and the public key to put in the transaction.
   * @example
   * ```ts
   * const doc = { bodyBytes: Uint8Array.of(1), authInfoBytes: Uint8Array.of(2), chainId: "perpx-local-1", accountNumber: 0n };
   * const { signature } = wallet.signDirect(doc, encodeSignDoc(doc));
   * verifyCosmos(signature, encodeSignDoc(doc), wallet.publicKey); // true
   * ```
   */
  signDirect(doc: SignDocFields, signDocBytes: Uint8Array): DirectSignature {
    return { bodyBytes: doc.bodyBytes, authInfoBytes: doc.authInfoBytes, signature: this.sign(signDocBytes) };
  }

  /**
   * The private key as 64 lowercase hex digits, for deliberate export (a trading credential, a
   * backup). Nothing else in the library ever prints it.
   *
   * @returns the secret key itself: whoever holds it controls the account.
   * @example
   * ```ts
   * const key = LocalWallet.generate();
   * // A trading key's credential carries it; keep it secret.
   * key.exportPrivateKeyHex().length; // 64
   * ```
   */
  exportPrivateKeyHex(): string {
    return this.#key.use((key) => Array.from(key, (b) => b.toString(16).padStart(2, "0")).join(""));
  }

  /**
   * The public facts only.
   *
   * @returns the address, public key and key type; never the secret.
   */
  toJSON(): WalletJson {
    return { address: this.address, keyType: this.keyType, publicKey: toBase64(this.publicKey) };
  }

  /**
   * `LocalWallet(perpx1...)`.
   *
   * @returns the wallet's name and address.
   */
  toString(): string {
    return `LocalWallet(${this.address})`;
  }

  /**
   * What `util.inspect` and `console.log` show: the public facts only.
   *
   * @returns the public facts, never the secret.
   */
  [INSPECT](): string {
    return `LocalWallet ${JSON.stringify(this.toJSON())}`;
  }
}
