import { keccak_256 } from "@noble/hashes/sha3.js";
import { addressBytesToBech32, addressBytesToHex, DEFAULT_PREFIX } from "@perpx/address";
import { type ApproveAgentParams, approveAgentTypedData, type TypedData } from "@perpx/core";
import { hashTypedData } from "@perpx/core/evm";
import { toBase64, toHexString } from "../bytes.js";
import { resolveSignerBackend, type SignerBackend, type SignerBackendName } from "../crypto/backend.js";
import { ethAddressBytes, randomPrivateKey } from "../crypto/secp256k1.js";
import { deriveSecretKey, evmHdPath, generateMnemonic24 } from "./hd.js";
import type { FromMnemonicOptions, WalletJson, WalletOptions } from "./localWallet.js";
import { SecretKey } from "./secretKey.js";
import type { DirectSignature, SignDocFields, TxSigner } from "./signer.js";

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/**
 * An EVM (eth_secp256k1) wallet: path `m/44'/60'/0'/0/{index}`, address = last 20 bytes of
 * Keccak-256 of the uncompressed public key, public key type
 * `/cosmos.evm.crypto.v1.ethsecp256k1.PubKey`. It signs perpx transactions (65-byte `r || s || v`
 * over Keccak-256 of the SignDoc) and EIP-712 typed data, such as the trading-key approval.
 *
 * @example
 * ```ts
 * const evm = EvmWallet.fromMnemonic(mnemonic);
 * console.log(evm.evmAddress, evm.address); // 0x..., perpx1... (the same 20 bytes)
 * ```
 */
export class EvmWallet implements TxSigner {
  readonly #key: SecretKey;
  /** The bech32 address. */
  readonly address: string;
  /** The same account in `0x` form with the EIP-55 checksum. */
  readonly evmAddress: `0x${string}`;
  /** The 33-byte compressed public key. */
  readonly publicKey: Uint8Array;
  /** Always `eth_secp256k1`. */
  readonly keyType = "eth_secp256k1" as const;
  /** The backend that signs for this wallet (`native` or `js`), resolved from `options.backend`. */
  readonly signerBackend: SignerBackendName;
  readonly #backend: SignerBackend;

  private constructor(key: SecretKey, options: WalletOptions) {
    this.#key = key;
    this.#backend = resolveSignerBackend(options.backend ?? "auto");
    this.signerBackend = this.#backend.name;
    this.publicKey = key.use((secret) => this.#backend.publicKey(secret));
    const bytes = ethAddressBytes(this.publicKey);
    this.address = addressBytesToBech32(bytes, options.prefix ?? DEFAULT_PREFIX);
    this.evmAddress = addressBytesToHex(bytes);
  }

  /**
   * An EVM wallet from a BIP-39 mnemonic at `m/44'/60'/0'/0/{index}`.
   *
   * @param mnemonic - a BIP-39 mnemonic (English).
   * @param options - the account `index` (default 0) or a whole `hdPath`, the address `prefix` and
   *   the signer `backend`.
   * @returns the wallet.
   * @throws {InvalidArgumentError} for an invalid mnemonic, index or path (never echoing the mnemonic).
   *
   * @example
   * ```ts
   * const evm = EvmWallet.fromMnemonic(mnemonic, { index: 1 });
   * ```
   */
  static fromMnemonic(mnemonic: string, options: FromMnemonicOptions = {}): EvmWallet {
    const path = options.hdPath ?? evmHdPath(options.index ?? 0);
    const key = deriveSecretKey(mnemonic, {
      path,
      ...(options.passphrase === undefined ? {} : { passphrase: options.passphrase }),
    });
    return new EvmWallet(key, options);
  }

  /**
   * An EVM wallet from a raw private key (32 bytes or 64 hex digits).
   *
   * @param privateKey - the secret key: 32 bytes, or 64 hex digits with or without `0x`.
   * @param options - the address `prefix` and the signer `backend`.
   * @returns the wallet.
   * @throws {InvalidArgumentError} for a malformed key (never echoed).
   *
   * @example
   * ```ts
   * const evm = EvmWallet.fromPrivateKey(randomPrivateKey());
   * evm.evmAddress.startsWith("0x"); // true
   * ```
   */
  static fromPrivateKey(privateKey: Uint8Array | string, options: WalletOptions = {}): EvmWallet {
    return new EvmWallet(SecretKey.from(privateKey), options);
  }

  /**
   * An EVM wallet with a fresh random key.
   *
   * @param options - the address `prefix` and the signer `backend`.
   * @returns a wallet no one else holds; it cannot be recovered unless its key is exported.
   * @example
   * ```ts
   * const evm = EvmWallet.generate();
   * ```
   */
  static generate(options: WalletOptions = {}): EvmWallet {
    return new EvmWallet(SecretKey.from(randomPrivateKey()), options);
  }

  /**
   * A fresh 24-word mnemonic and the EVM wallet at its index 0 (or `options.index`).
   *
   * @param options - the account `index` (default 0) or a whole `hdPath`, the address `prefix` and
   *   the signer `backend`.
   * @returns the mnemonic to keep (it recovers the wallet) and the wallet.
   * @example
   * ```ts
   * const { mnemonic, wallet } = EvmWallet.generateWithMnemonic();
   * ```
   */
  static generateWithMnemonic(options: FromMnemonicOptions = {}): { mnemonic: string; wallet: EvmWallet } {
    const mnemonic = generateMnemonic24();
    return { mnemonic, wallet: EvmWallet.fromMnemonic(mnemonic, options) };
  }

  /**
   * Signs raw bytes as eth_secp256k1 does for Cosmos txs: 65 bytes `r || s || v` (v in {0, 1})
   * over Keccak-256(bytes).
   *
   * @param bytes - the bytes to sign (a serialized SignDoc).
   * @returns the 65-byte signature.
   * @example
   * ```ts
   * const evm = EvmWallet.generate();
   * evm.sign(new TextEncoder().encode("sign me")).length; // 65: r, s and the recovery id
   * ```
   */
  sign(bytes: Uint8Array): Uint8Array {
    const digest = keccak_256(bytes);
    return this.#key.use((key) => this.#backend.signRecoverable(digest, key));
  }

  /**
   * Signs a SIGN_MODE_DIRECT SignDoc (see {@link TxSigner}).
   *
   * @param doc - the SignDoc's fields (body, auth info, chain id, account number).
   * @param signDocBytes - the serialized SignDoc those fields encode to.
   * @returns the signature and the public key to put in the transaction.
   * @example
   * ```ts
   * const evm = EvmWallet.generate();
   * const doc = { bodyBytes: Uint8Array.of(1), authInfoBytes: Uint8Array.of(2), chainId: "perpx-local-1", accountNumber: 0n };
   * const { signature } = evm.signDirect(doc, encodeSignDoc(doc));
   * signature.length; // 65
   * ```
   */
  signDirect(doc: SignDocFields, signDocBytes: Uint8Array): DirectSignature {
    return { bodyBytes: doc.bodyBytes, authInfoBytes: doc.authInfoBytes, signature: this.sign(signDocBytes) };
  }

  /**
   * Signs EIP-712 typed data as `eth_signTypedData_v4` does.
   *
   * @param typedData - the EIP-712 domain, types, primary type and message.
   * @returns `0x` + 130 hex digits: `r || s || v` with `v` = 27 or 28.
   *
   * @example
   * ```ts
   * import { approveAgentTypedData } from "@perpx/core";
   *
   * const evm = EvmWallet.generate();
   * const typedData = approveAgentTypedData({ evmChainId: 31337, masterAddress: evm.evmAddress, agentPublicKey: LocalWallet.generate().publicKey, nonce: 1 });
   * evm.signTypedData(typedData).length; // 132: 0x and 65 bytes
   * ```
   */
  signTypedData(typedData: TypedData): `0x${string}` {
    return this.#signDigest(hashTypedData(typedData));
  }

  /**
   * Signs the `ServiceTransaction:ApproveAgent` message authorizing a trading key
   * (see `approveAgentTypedData` of `@perpx/core` for the typed data). `masterAddress` defaults to this wallet.
   *
   * @param params - the trading key's address, the network's EVM chain id and expiry;
   *   `masterAddress` defaults to this wallet's Cosmos address.
   * @returns the 65-byte signature as `0x` hex, to send to the approve-agent service.
   * @example
   * ```ts
   * const evm = EvmWallet.generate();
   * const key = LocalWallet.generate();
   * const signature = evm.signApproveAgent({ evmChainId: 31337, agentPublicKey: key.publicKey, nonce: Date.now() });
   * signature.startsWith("0x"); // true
   * ```
   */
  signApproveAgent(
    params: Omit<ApproveAgentParams, "masterAddress"> & { masterAddress?: string },
  ): `0x${string}` {
    return this.#signDigest(
      hashTypedData(
        approveAgentTypedData({ ...params, masterAddress: params.masterAddress ?? this.evmAddress }),
      ),
    );
  }

  #signDigest(digest: Uint8Array): `0x${string}` {
    const signature = this.#key.use((key) => this.#backend.signRecoverable(digest, key));
    signature[64] = signature[64]! + 27;
    return `0x${toHexString(signature)}`;
  }

  /**
   * The public facts only.
   *
   * @returns the address, EVM address, public key and key type; never the secret.
   */
  toJSON(): WalletJson & { evmAddress: string } {
    return {
      address: this.address,
      evmAddress: this.evmAddress,
      keyType: this.keyType,
      publicKey: toBase64(this.publicKey),
    };
  }

  /**
   * `EvmWallet(0x...)`.
   *
   * @returns the wallet's name and EVM address.
   */
  toString(): string {
    return `EvmWallet(${this.evmAddress})`;
  }

  /**
   * What `util.inspect` and `console.log` show: the public facts only.
   *
   * @returns the public facts, never the secret.
   */
  [INSPECT](): string {
    return `EvmWallet ${JSON.stringify(this.toJSON())}`;
  }
}
