import { InvalidArgumentError } from "@perpx/errors";
import { fromHexString } from "../bytes.js";
import { compressedPublicKey, isValidPrivateKey } from "../crypto/secp256k1.js";

const REDACTED = "[redacted]";
const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/**
 * A 32-byte secp256k1 secret key that never shows itself: its bytes live in a private field, and
 * `toString`, `toJSON` and `util.inspect` print `[redacted]`. Wallets hold one of these.
 *
 * @example
 * ```ts
 * const key = SecretKey.from(randomPrivateKey());
 * JSON.stringify({ key }); // '{"key":"[redacted]"}'
 * ```
 */
export class SecretKey {
  readonly #bytes: Uint8Array;

  private constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  /**
   * Wraps a private key given as 32 bytes or 64 hex digits (with or without `0x`).
   *
   * @param input - the key; copied, so later changes to the caller's array do not reach it.
   * @param argument - the argument name used in the error.
   * @returns the wrapped key.
   * @throws {InvalidArgumentError} when it is not a valid secp256k1 secret key; the message never
   * contains the input.
   *
   * @example
   * ```ts
   * const key = SecretKey.from(new Uint8Array(32).fill(1));
   * ```
   */
  static from(input: Uint8Array | string, argument = "privateKey"): SecretKey {
    const bytes = typeof input === "string" ? fromHexString(input.trim()) : new Uint8Array(input);
    if (bytes === undefined || bytes.length !== 32) {
      throw new InvalidArgumentError(argument, "expected 32 bytes or 64 hex digits (value not shown)");
    }
    if (!isValidPrivateKey(bytes)) {
      throw new InvalidArgumentError(argument, "not a valid secp256k1 secret key (value not shown)");
    }
    return new SecretKey(bytes);
  }

  /**
   * Runs `use` with the raw key bytes. The bytes are the key itself: do not keep them.
   *
   * @param use - a function of the raw 32 key bytes; do not keep them beyond the call.
   * @returns what `use` returns.
   * @example
   * ```ts
   * const key = SecretKey.from(randomPrivateKey());
   * const signature = key.use((bytes) => signCosmos(bytes, new TextEncoder().encode("sign me")));
   * signature.length; // 64
   * ```
   */
  use<T>(use: (bytes: Uint8Array) => T): T {
    return use(this.#bytes);
  }

  /**
   * The 33-byte compressed public key.
   *
   * @returns the 33-byte compressed secp256k1 public key.
   * @example
   * ```ts
   * const key = SecretKey.from(randomPrivateKey());
   * key.publicKey().length; // 33
   * ```
   */
  publicKey(): Uint8Array {
    return compressedPublicKey(this.#bytes);
  }

  /**
   * `[redacted]`.
   *
   * @returns `[redacted]`, never the key.
   */
  toString(): string {
    return REDACTED;
  }

  /**
   * `[redacted]`.
   *
   * @returns `[redacted]`, never the key.
   */
  toJSON(): string {
    return REDACTED;
  }

  /**
   * `[redacted]` for `util.inspect` and `console.log`.
   *
   * @returns `[redacted]`, never the key.
   */
  [INSPECT](): string {
    return REDACTED;
  }
}
