/**
 * The Node side of the platform seam (`#crypto-platform` resolves here under every condition but
 * `browser`): SHA-256 through OpenSSL, which is faster than a JavaScript hash on the signing hot
 * path, and the `secp256k1` addon loaded with `require`.
 */
import { hash } from "node:crypto";
import { createRequire } from "node:module";

/**
 * SHA-256 of `message` (OpenSSL).
 *
 * @example
 * ```ts
 * sha256Digest(new TextEncoder().encode("test")).length; // 32
 * ```
 */
export function sha256Digest(message: Uint8Array): Uint8Array {
  return hash("sha256", message, "buffer");
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
  return hash("sha256", message, "hex").toUpperCase();
}

/**
 * Loads the `secp256k1` package's addon-backed `bindings` module. The package root would silently
 * fall back to elliptic when the addon is missing, which is slower than noble; the module is
 * CommonJS, so it is `require`d.
 *
 * @returns the module's exports, unchecked.
 * @throws {Error} when the package is not installed or its addon does not load.
 *
 * @example
 * ```ts
 * const bindings = requireSecp256k1Bindings();
 * ```
 */
export function requireSecp256k1Bindings(): unknown {
  const require = createRequire(import.meta.url);
  return require("secp256k1/bindings");
}
