import { secp256k1 } from "@noble/curves/secp256k1.js";
import { InvalidArgumentError } from "@perpx/errors";
import { requireSecp256k1Bindings } from "#crypto-platform";

/**
 * The name of a signing backend:
 * - `native`: libsecp256k1 through the `secp256k1` package's Node addon (an optional dependency,
 *   built or taken from its prebuilds at install time);
 * - `js`: `@noble/curves` (pure JavaScript, always available).
 *
 * @example
 * ```ts
 * const name: SignerBackendName = wallet.signerBackend; // "native" or "js"
 * ```
 */
export type SignerBackendName = "native" | "js";

/**
 * Which backend signs: `auto` (the native addon when it loads, else JavaScript), `native` (the
 * addon, or an error when it cannot load), `js`, or a {@link SignerBackend} object of your own.
 *
 * @example
 * ```ts
 * LocalWallet.fromMnemonic(mnemonic, { backend: "js" });
 * ```
 */
export type SignerBackendOption = "auto" | SignerBackendName | SignerBackend;

/**
 * An ECDSA secp256k1 implementation that signs 32-byte digests. Every backend gives the same bytes:
 * RFC 6979 deterministic nonces, low-S, compact `r || s`.
 *
 * @example
 * ```ts
 * const backend: SignerBackend = resolveSignerBackend("auto");
 * const digest = sha256Digest(new TextEncoder().encode("sign me"));
 * backend.sign(digest, randomPrivateKey()).length; // 64
 * ```
 */
export interface SignerBackend {
  /** Which implementation this is. */
  readonly name: SignerBackendName;
  /**
   * Signs a 32-byte digest.
   *
   * @returns 64 bytes `r || s`, low-S.
   */
  sign(digest: Uint8Array, privateKey: Uint8Array): Uint8Array;
  /**
   * Signs a 32-byte digest and appends the recovery id.
   *
   * @returns 65 bytes `r || s || v`, `v` in {0, 1}, low-S.
   */
  signRecoverable(digest: Uint8Array, privateKey: Uint8Array): Uint8Array;
  /**
   * The public key of a valid secret key.
   *
   * @returns the 33-byte compressed point.
   */
  publicKey(privateKey: Uint8Array): Uint8Array;
}

const NOBLE_COMPACT = { prehash: false, lowS: true, format: "compact" } as const;
const NOBLE_RECOVERED = { prehash: false, lowS: true, format: "recovered" } as const;

/**
 * The pure-JavaScript backend (`@noble/curves`), always available.
 *
 * @example
 * ```ts
 * const digest = sha256Digest(new TextEncoder().encode("sign me"));
 * jsSignerBackend.sign(digest, randomPrivateKey()).length; // 64
 * ```
 */
export const jsSignerBackend: SignerBackend = Object.freeze({
  name: "js" as const,
  sign(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
    return secp256k1.sign(digest, privateKey, NOBLE_COMPACT);
  },
  signRecoverable(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
    const recovered = secp256k1.sign(digest, privateKey, NOBLE_RECOVERED);
    // noble's "recovered" format is `recovery || r || s`; Ethereum puts the recovery byte last.
    const out = new Uint8Array(65);
    out.set(recovered.subarray(1), 0);
    out[64] = recovered[0]!;
    return out;
  },
  publicKey(privateKey: Uint8Array): Uint8Array {
    return secp256k1.getPublicKey(privateKey, true);
  },
});

/** The part of the `secp256k1` package's `bindings` module (its addon-backed API) that we call. */
interface Secp256k1Bindings {
  ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  publicKeyCreate(privateKey: Uint8Array, compressed: boolean): Uint8Array;
}

function nativeBackend(bindings: Secp256k1Bindings): SignerBackend {
  return Object.freeze({
    name: "native" as const,
    sign(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
      // libsecp256k1 always produces normalized (low-S) signatures with RFC 6979 nonces.
      return bindings.ecdsaSign(digest, privateKey).signature;
    },
    signRecoverable(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
      const { signature, recid } = bindings.ecdsaSign(digest, privateKey);
      const out = new Uint8Array(65);
      out.set(signature, 0);
      out[64] = recid;
      return out;
    },
    publicKey(privateKey: Uint8Array): Uint8Array {
      return bindings.publicKeyCreate(privateKey, true);
    },
  });
}

function requireBindings(): Secp256k1Bindings {
  // `secp256k1/bindings` is the addon itself (the platform module loads it; a browser has none).
  const bindings = requireSecp256k1Bindings() as Partial<Secp256k1Bindings>;
  if (typeof bindings.ecdsaSign !== "function" || typeof bindings.publicKeyCreate !== "function") {
    throw new TypeError("secp256k1/bindings does not have the expected API (ecdsaSign, publicKeyCreate)");
  }
  return bindings as Secp256k1Bindings;
}

let loaded: { backend: SignerBackend } | { error: unknown } | undefined;

/**
 * The native backend (libsecp256k1 through the `secp256k1` addon), loaded on first call and
 * remembered, success or failure. Nothing is loaded at import time.
 *
 * @returns the native backend.
 * @throws {InvalidArgumentError} (`argument` `backend`, the load failure as `cause`) when the addon
 * is not installed or does not load on this platform.
 *
 * @example
 * ```ts
 * const backend = loadNativeSignerBackend(); // throws without the addon
 * ```
 */
export function loadNativeSignerBackend(): SignerBackend {
  if (loaded === undefined) {
    try {
      loaded = { backend: nativeBackend(requireBindings()) };
    } catch (error) {
      loaded = { error };
    }
  }
  if ("backend" in loaded) return loaded.backend;
  throw new InvalidArgumentError(
    "backend",
    'the "native" signer backend is not available: the optional dependency secp256k1 is not installed or its addon did not load',
    { cause: loaded.error },
  );
}

/**
 * Resolves a {@link SignerBackendOption} to the backend that will sign.
 *
 * @param option - `auto` (native when it loads, else js), `native`, `js`, or a backend object.
 * @param loadNative - how to load the native backend; tests inject a failing one to exercise the
 * fallback.
 * @returns the backend.
 * @throws {InvalidArgumentError} when `native` is asked for and cannot load, or the option is unknown.
 *
 * @example
 * ```ts
 * resolveSignerBackend("auto").name; // "native" where the addon loads, else "js"
 * resolveSignerBackend("js").name; // "js"
 * ```
 */
export function resolveSignerBackend(
  option: SignerBackendOption = "auto",
  loadNative: () => SignerBackend = loadNativeSignerBackend,
): SignerBackend {
  if (typeof option === "object" && option !== null) return option;
  switch (option) {
    case "js":
      return jsSignerBackend;
    case "native":
      return loadNative();
    case "auto":
      try {
        return loadNative();
      } catch {
        return jsSignerBackend;
      }
    default:
      throw new InvalidArgumentError(
        "backend",
        `must be "auto", "native", "js" or a SignerBackend, got ${JSON.stringify(String(option))}`,
      );
  }
}

/**
 * The backend that `auto` picks in this process: `native` when the addon loads, else `js`.
 *
 * @returns `native` or `js`.
 * @example
 * ```ts
 * activeSignerBackend(); // "native"
 * ```
 */
export function activeSignerBackend(): SignerBackendName {
  return resolveSignerBackend("auto").name;
}
