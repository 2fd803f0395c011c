import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { sha256Digest } from "#crypto-platform";
import { resolveSignerBackend, type SignerBackend, type SignerBackendOption } from "./backend.js";

/**
 * Options of the signing functions.
 *
 * @example
 * ```ts
 * const options: SignOptions = { backend: "js" };
 * signCosmos(randomPrivateKey(), new TextEncoder().encode("sign me"), options).length; // 64
 * ```
 */
export interface SignOptions {
  /**
   * Which secp256k1 implementation signs: `auto` takes the native addon (libsecp256k1) when it
   * loads, else `@noble/curves`. Every backend gives the same bytes.
   * @default "auto"
   */
  backend?: SignerBackendOption;
}

function backendOf(options: SignOptions | undefined): SignerBackend {
  return resolveSignerBackend(options?.backend ?? "auto");
}

/**
 * Signs `message` the Cosmos way: ECDSA secp256k1 over SHA-256(message), deterministic (RFC 6979),
 * low-S, 64 bytes `r || s`.
 *
 * @param privateKey - 32-byte secret key.
 * @param message - the bytes to sign (a serialized SignDoc).
 * @param options - the backend (`auto` by default).
 * @returns the 64-byte compact signature.
 * @throws {InvalidArgumentError} when `backend: "native"` is asked for and the addon cannot load.
 *
 * @example
 * ```ts
 * const privateKey = randomPrivateKey();
 * const message = new TextEncoder().encode("sign me");
 * const signature = signCosmos(privateKey, message); // r || s over sha256(message)
 * verifyCosmos(signature, message, compressedPublicKey(privateKey)); // true
 * ```
 */
export function signCosmos(privateKey: Uint8Array, message: Uint8Array, options?: SignOptions): Uint8Array {
  return backendOf(options).sign(sha256Digest(message), privateKey);
}

/**
 * Signs a 32-byte digest the Ethereum way and returns 65 bytes `r || s || v` with `v` the recovery
 * id (0 or 1), low-S. Add 27 to `v` for the `eth_sign` / EIP-712 wire form.
 *
 * @param privateKey - 32-byte secret key.
 * @param digest - the 32-byte hash to sign.
 * @param options - the backend (`auto` by default).
 * @returns `r || s || recovery`.
 *
 * @example
 * ```ts
 * const digest = sha256Digest(new TextEncoder().encode("sign me"));
 * signDigestRecoverable(randomPrivateKey(), digest).length; // 65
 * ```
 */
export function signDigestRecoverable(
  privateKey: Uint8Array,
  digest: Uint8Array,
  options?: SignOptions,
): Uint8Array {
  return backendOf(options).signRecoverable(digest, privateKey);
}

/**
 * Signs `message` as an eth_secp256k1 key signs a Cosmos tx: ECDSA over Keccak-256(message),
 * 65 bytes `r || s || v` with `v` in {0, 1}, as cosmos/evm's keyring produces. Same backends as
 * {@link signCosmos}.
 *
 * @param privateKey - the 32-byte secret key.
 * @param message - the bytes to sign (a serialized SignDoc).
 * @param options - the signer backend to use.
 * @returns the 65-byte signature `r || s || v`, low-S.
 * @example
 * ```ts
 * const privateKey = randomPrivateKey();
 * const message = new TextEncoder().encode("sign me");
 * const signature = signEthereum(privateKey, message); // r || s over keccak256(message)
 * verifyEthereum(signature, message, compressedPublicKey(privateKey)); // true
 * ```
 */
export function signEthereum(privateKey: Uint8Array, message: Uint8Array, options?: SignOptions): Uint8Array {
  return backendOf(options).signRecoverable(keccak_256(message), privateKey);
}

/**
 * Verifies a 64-byte (or 65-byte, `v` ignored) signature over SHA-256(message).
 *
 * @param signature - the signature, 64 bytes (`r || s`) or 65 (`v` ignored).
 * @param message - the signed bytes.
 * @param publicKey - the signer's public key, compressed or not.
 * @returns `true` when the signature is valid and low-S; `false` for any malformed input.
 * @example
 * ```ts
 * const privateKey = randomPrivateKey();
 * const message = new TextEncoder().encode("sign me");
 * verifyCosmos(signCosmos(privateKey, message), message, compressedPublicKey(privateKey)); // true
 * verifyCosmos(signCosmos(privateKey, message), new TextEncoder().encode("other"), compressedPublicKey(privateKey)); // false
 * ```
 */
export function verifyCosmos(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  return secp256k1.verify(signature.subarray(0, 64), sha256(message), publicKey, { prehash: false });
}

/**
 * Verifies a 64- or 65-byte signature over Keccak-256(message) (low-S required).
 *
 * @param signature - the signature, 64 or 65 bytes.
 * @param message - the signed bytes.
 * @param publicKey - the signer's public key, compressed or not.
 * @returns `true` when the signature is valid and low-S; `false` for any malformed input.
 * @example
 * ```ts
 * const privateKey = randomPrivateKey();
 * const message = new TextEncoder().encode("sign me");
 * verifyEthereum(signEthereum(privateKey, message), message, compressedPublicKey(privateKey)); // true
 * ```
 */
export function verifyEthereum(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  return secp256k1.verify(signature.subarray(0, 64), keccak_256(message), publicKey, { prehash: false });
}

/**
 * The 33-byte compressed public key of a 32-byte secret key.
 *
 * @param options - the backend (`auto` by default).
 * @param privateKey - the 32-byte secp256k1 secret key.
 * @returns the 33-byte compressed public key.
 * @throws {Error} when the key is not a valid secp256k1 scalar.
 *
 * @example
 * ```ts
 * compressedPublicKey(randomPrivateKey()).length; // 33
 * ```
 */
export function compressedPublicKey(privateKey: Uint8Array, options?: SignOptions): Uint8Array {
  return backendOf(options).publicKey(privateKey);
}

/**
 * True when `privateKey` is a valid secp256k1 secret key (32 bytes, 0 < k < n).
 *
 * @example
 * ```ts
 * isValidPrivateKey(new Uint8Array(32)); // false
 * ```
 */
export function isValidPrivateKey(privateKey: Uint8Array): boolean {
  return secp256k1.utils.isValidSecretKey(privateKey);
}

/**
 * A fresh random secret key from the platform CSPRNG.
 *
 * @example
 * ```ts
 * const privateKey = randomPrivateKey();
 * ```
 */
export function randomPrivateKey(): Uint8Array {
  return secp256k1.utils.randomSecretKey();
}

/**
 * The Cosmos account bytes of a secp256k1 public key: RIPEMD-160(SHA-256(compressed key)).
 *
 * @param compressedKey - the 33-byte compressed public key.
 * @returns the 20 account bytes (bech32-encode them for a `perpx1...` address).
 * @example
 * ```ts
 * cosmosAddressBytes(wallet.publicKey).length; // 20
 * ```
 */
export function cosmosAddressBytes(compressedKey: Uint8Array): Uint8Array {
  return ripemd160(sha256(compressedKey));
}

/**
 * The Ethereum account bytes of a public key (compressed or not): the last 20 bytes of
 * Keccak-256 of the 64-byte uncompressed key without its `0x04` prefix.
 *
 * @param publicKey - the public key, compressed (33 bytes) or not (65 bytes).
 * @returns the 20 account bytes (the `0x` address, and the same account on this chain).
 * @example
 * ```ts
 * ethAddressBytes(wallet.publicKey).length; // 20
 * ```
 */
export function ethAddressBytes(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}
