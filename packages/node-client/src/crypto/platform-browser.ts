/**
 * The browser side of the platform seam (`#crypto-platform` resolves here under the `browser`
 * condition): hashing with `@noble/hashes`, and no native addon. Nothing here touches a `node:`
 * module, `Buffer` or `process`.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { PerpxError } from "@perpx/errors";

/**
 * SHA-256 of `message` (`@noble/hashes`).
 *
 * @example
 * ```ts
 * sha256Digest(new TextEncoder().encode("test")).length; // 32
 * ```
 */
export function sha256Digest(message: Uint8Array): Uint8Array {
  return sha256(message);
}

/**
 * SHA-256 of `message` as upper-case hex, as CometBFT prints a tx hash.
 *
 * @example
 * ```ts
 * sha256HexUpper(new TextEncoder().encode("test")); // "9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08"
 * ```
 */
export function sha256HexUpper(message: Uint8Array): string {
  return bytesToHex(sha256(message)).toUpperCase();
}

/**
 * A browser has no native addon: always throws, and the `native` signer backend reports it as
 * unavailable (`auto` then signs with `@noble/curves`).
 *
 * @throws {PerpxError} always, code `MISSING_DEPENDENCY`.
 *
 * @example
 * ```ts
 * requireSecp256k1Bindings(); // throws PerpxError (MISSING_DEPENDENCY): no native addon in a browser
 * ```
 */
export function requireSecp256k1Bindings(): unknown {
  throw new PerpxError("MISSING_DEPENDENCY", "the secp256k1 native addon cannot load in a browser");
}
