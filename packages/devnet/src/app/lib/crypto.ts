/**
 * Key types the chain accepts, their addresses and signature checks, and the validator's ed25519
 * key. Pure functions over bytes.
 */
import { createPrivateKey, createPublicKey, type KeyObject, verify as nodeVerify, sign } from "node:crypto";
import { createRequire } from "node:module";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesKey, fromHex, utf8 } from "./codec.js";
import { sha256 } from "./sha256.js";
import { VerdictCache } from "./verdict-cache.js";

/** Type URL of a Cosmos secp256k1 public key. */
export const SECP256K1_PUBKEY_TYPE_URL = "/cosmos.crypto.secp256k1.PubKey";
/** Type URL of a cosmos/evm eth_secp256k1 public key. */
export const ETH_SECP256K1_PUBKEY_TYPE_URL = "/cosmos.evm.crypto.v1.ethsecp256k1.PubKey";
/** Type URL of the Ethermint/Evmos eth_secp256k1 key (accepted as the same key type). */
export const ETHERMINT_SECP256K1_PUBKEY_TYPE_URL = "/ethermint.crypto.v1.ethsecp256k1.PubKey";

/** The two account key algorithms. */
export type KeyAlgo = "secp256k1" | "eth_secp256k1";

/** The key algorithm of a public key type URL, or undefined for a type the chain does not accept. */
export function keyAlgoOf(typeUrl: string): KeyAlgo | undefined {
  if (typeUrl === SECP256K1_PUBKEY_TYPE_URL) return "secp256k1";
  if (typeUrl === ETH_SECP256K1_PUBKEY_TYPE_URL || typeUrl === ETHERMINT_SECP256K1_PUBKEY_TYPE_URL) {
    return "eth_secp256k1";
  }
  return undefined;
}

/** True when `key` is a valid 33-byte compressed secp256k1 point (decoded once, then cached). */
export function isValidCompressedKey(key: Uint8Array): boolean {
  if (key.length !== 33) return false;
  if (keyCache.has(bytesKey(key))) return true;
  try {
    secp256k1.Point.fromBytes(key);
    return true;
  } catch {
    return false;
  }
}

/**
 * The 20 address bytes of a public key: RIPEMD-160(SHA-256(compressed key)) for secp256k1, the last
 * 20 bytes of Keccak-256(uncompressed key without its 0x04 prefix) for eth_secp256k1.
 */
export function addressOfKey(algo: KeyAlgo, key: Uint8Array): Uint8Array {
  if (algo === "secp256k1") {
    // Every tx of a signer derives the same address: keep it with the decoded key when there is one.
    const entry = keyCache.get(bytesKey(key));
    if (entry === undefined) return ripemd160(sha256(key));
    entry.address ??= ripemd160(sha256(key));
    return entry.address.slice();
  }
  const uncompressed = secp256k1.Point.fromBytes(key).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

type Point = ReturnType<typeof secp256k1.Point.fromBytes>;

/**
 * A decoded public key: as Node's crypto holds it (secp256k1 verification is native), and as a
 * noble point for eth_secp256k1 (a Keccak-256 digest, which Node's ECDSA cannot take prehashed).
 * Hot points get precomputed multiplication tables.
 */
interface CachedKey {
  readonly native: KeyObject;
  /** The secp256k1 (Cosmos) address of the key, once asked for. */
  address?: Uint8Array;
  point: Point;
  uses: number;
  window: number;
}

/** Keys kept decoded (oldest dropped first). */
const KEY_CACHE_SIZE = 4096;
const keyCache = new Map<string, CachedKey>();

/** DER (SPKI) of a compressed secp256k1 public key, up to the 33 key bytes that follow. */
const SECP256K1_SPKI_PREFIX = Uint8Array.from([
  0x30, 0x36, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x05, 0x2b, 0x81, 0x04,
  0x00, 0x0a, 0x03, 0x22, 0x00,
]);

/**
 * The decoded key, from a bounded cache. A key noble refuses throws (so the keys accepted are
 * noble's, whichever side verifies).
 */
function cachedKey(key: Uint8Array): CachedKey {
  const id = bytesKey(key);
  let entry = keyCache.get(id);
  if (entry === undefined) {
    const point = secp256k1.Point.fromBytes(key);
    const native = createPublicKey({
      key: Buffer.concat([SECP256K1_SPKI_PREFIX, point.toBytes(true)]),
      format: "der",
      type: "spki",
    });
    entry = { native, point, uses: 0, window: 0 };
    if (keyCache.size >= KEY_CACHE_SIZE) {
      const oldest = keyCache.keys().next().value;
      if (oldest !== undefined) keyCache.delete(oldest);
    }
    keyCache.set(id, entry);
  }
  return entry;
}

/**
 * The noble point of a cached key. From the 4th use the point gets a 4-bit wNAF table (~12 ms once,
 * then ~4× faster), from the 64th an 8-bit one (~70 ms once, ~7×). A pure speed-up: results are
 * those of a plain decode.
 */
function tabledPoint(entry: CachedKey, key: Uint8Array): Point {
  entry.uses++;
  const want = entry.uses >= 64 ? 8 : entry.uses >= 4 ? 4 : 0;
  if (want > entry.window) {
    // Precomputed tables live with the point object; a new object gets the wider window.
    entry.point = secp256k1.Point.fromBytes(key);
    entry.point.precompute(want);
    entry.window = want;
  }
  return entry.point;
}

/**
 * The signature's r and s when both are in [1, n) and s ≤ n/2 (low-S, as Cosmos requires; OpenSSL
 * and noble's plain verify would take a high S), else undefined.
 */
function lowSSignature(signature: Uint8Array): { r: bigint; s: bigint } | undefined {
  const sig = secp256k1.Signature.fromBytes(signature, "compact");
  return sig.hasHighS() ? undefined : sig;
}

/** 32 big-endian bytes of a number below 2^256. */
const bytes32 = (value: bigint) => Buffer.from(value.toString(16).padStart(64, "0"), "hex");
/** The secp256k1 group order n, big-endian. */
const ORDER = bytes32(secp256k1.Point.Fn.ORDER);
/** ⌊n/2⌋, big-endian: the largest low S. */
const HALF_ORDER = bytes32(secp256k1.Point.Fn.ORDER >> 1n);

/** -1, 0 or 1 as the 32 big-endian bytes of `bytes` at `at` are below, equal to or above `bound`. */
function compare32(bytes: Uint8Array, at: number, bound: Uint8Array): number {
  for (let i = 0; i < 32; i++) {
    const a = bytes[at + i] as number;
    const b = bound[i] as number;
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

/** True when 32 bytes of `bytes` at `at` are all zero. */
function isZero32(bytes: Uint8Array, at: number): boolean {
  for (let i = 0; i < 32; i++) if (bytes[at + i] !== 0) return false;
  return true;
}

/**
 * True when the 64-byte compact signature `r || s` has r in [1, n) and s in [1, n/2]: what
 * {@link lowSSignature} accepts, by comparing bytes instead of decoding them into numbers.
 */
export function isLowSCompact(signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  if (isZero32(signature, 0) || compare32(signature, 0, ORDER) >= 0) return false;
  return !isZero32(signature, 32) && compare32(signature, 32, HALF_ORDER) <= 0;
}

/**
 * ECDSA verification over secp256k1 of a 32-byte digest: r and s in [1, n), s ≤ n/2 (low-S), and
 * (h·s⁻¹)·G + (r·s⁻¹)·P has x ≡ r (mod n). The same checks as `secp256k1.verify(sig, digest, key,
 * { prehash: false, lowS: true })`, with cached keys.
 */
function verifyDigest(key: Uint8Array, digest: Uint8Array, signature: Uint8Array): boolean {
  const { Point } = secp256k1;
  const Fn = Point.Fn;
  const sig = lowSSignature(signature);
  if (sig === undefined) return false;
  const P = tabledPoint(cachedKey(key), key);
  if (P.is0()) return false;
  let h = 0n;
  for (const byte of digest) h = (h << 8n) | BigInt(byte);
  const is = Fn.inv(sig.s);
  const u1 = Fn.create(Fn.create(h) * is);
  const u2 = Fn.create(sig.r * is);
  const R = Point.BASE.multiplyUnsafe(u1).add(P.multiplyUnsafe(u2));
  if (R.is0()) return false;
  return Fn.create(R.toAffine().x) === sig.r;
}

/** The part of the `secp256k1` package's addon (libsecp256k1) the devnet uses. */
interface Libsecp256k1 {
  /** True when `signature` (64 bytes r||s, low-S) signs the 32-byte `digest` under `publicKey`. */
  ecdsaVerify(signature: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): boolean;
}

/** The addon once loaded, null when it is not installed or does not load. */
let libsecp256k1: Libsecp256k1 | null | undefined;

/**
 * libsecp256k1 through the optional `secp256k1` package's native bindings (not its root, which
 * would fall back to a slower JavaScript curve without saying so), loaded on first use.
 */
function nativeSecp256k1(): Libsecp256k1 | null {
  if (libsecp256k1 === undefined) {
    try {
      const loaded = createRequire(import.meta.url)("secp256k1/bindings") as Partial<Libsecp256k1>;
      libsecp256k1 = typeof loaded.ecdsaVerify === "function" ? (loaded as Libsecp256k1) : null;
    } catch {
      libsecp256k1 = null;
    }
  }
  return libsecp256k1;
}

/**
 * The file the optional `secp256k1` addon loads from, when it loads here (another thread can
 * `require` it), else undefined.
 */
export function secp256k1AddonPath(): string | undefined {
  return nativeSecp256k1() === null
    ? undefined
    : createRequire(import.meta.url).resolve("secp256k1/bindings");
}

/**
 * True when a secp256k1 signature passes every check {@link verifySignature} makes besides the
 * curve equation: 64 bytes r||s with r in [1, n) and s in [1, n/2], and a key noble accepts (which
 * this decodes and keeps, as a verification would).
 */
export function passesSecp256k1Prechecks(key: Uint8Array, signature: Uint8Array): boolean {
  if (!isLowSCompact(signature)) return false;
  try {
    cachedKey(key);
    return true;
  } catch {
    return false;
  }
}

/** Positive secp256k1 verdicts reached elsewhere (see {@link recordNativeVerdict}). */
const verdicts = new VerdictCache(4096);

/**
 * Records that libsecp256k1's `ecdsaVerify` (the addon {@link secp256k1AddonPath} names, run on
 * another thread) accepted `signature` over SHA-256 of `signBytes` under `key`: with
 * {@link passesSecp256k1Prechecks}, what {@link verifySignature} checks, so it answers true for
 * these exact bytes without the curve math. Ignored unless the prechecks pass.
 */
export function recordNativeVerdict(key: Uint8Array, signBytes: Uint8Array, signature: Uint8Array): void {
  if (passesSecp256k1Prechecks(key, signature)) verdicts.add("secp256k1", key, signBytes, signature);
}

/** Drops the verdicts {@link recordNativeVerdict} recorded. */
export function forgetNativeVerdicts(): void {
  verdicts.clear();
}

/**
 * ECDSA over SHA-256 of `message`, low-S, verified natively: the checks of {@link verifyDigest}
 * over `sha256(message)`. libsecp256k1 when the optional addon is installed (about 6x faster than
 * OpenSSL's generic curve code, which is the fallback); both check r and s in [1, n) and the
 * equation, and the low-S rule is checked here first. The key was accepted by noble before
 * (`cachedKey`), so every side verifies the same keys.
 */
function verifySha256Native(key: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (!isLowSCompact(signature)) return false;
  const cached = cachedKey(key);
  const addon = nativeSecp256k1();
  if (addon !== null) {
    try {
      return addon.ecdsaVerify(signature, sha256(message), key);
    } catch {
      return false;
    }
  }
  return nodeVerify("sha256", message, { key: cached.native, dsaEncoding: "ieee-p1363" }, signature);
}

/**
 * Verifies a SIGN_MODE_DIRECT signature over `signBytes` (the SignDoc bytes).
 * secp256k1: ECDSA over SHA-256, exactly 64 bytes r||s, low-S. eth_secp256k1: ECDSA over Keccak-256,
 * 64 bytes or 65 with a recovery byte (ignored), low-S. Never throws: malformed input is `false`.
 */
export function verifySignature(
  algo: KeyAlgo,
  key: Uint8Array,
  signBytes: Uint8Array,
  signature: Uint8Array,
): boolean {
  try {
    if (algo === "secp256k1") {
      if (signature.length !== 64) return false;
      return verifySha256Native(key, signBytes, signature);
    }
    if (signature.length !== 64 && signature.length !== 65) return false;
    return verifyDigest(key, keccak_256(signBytes), signature.subarray(0, 64));
  } catch {
    return false;
  }
}

/**
 * {@link verifySignature}, answered first by a secp256k1 verdict {@link recordNativeVerdict} recorded
 * for exactly these bytes (the ante step's check: the curve math may have run on another thread).
 * Never throws.
 *
 * @param algo - the signer's key algorithm.
 * @param key - the signer's public key.
 * @param signBytes - the SignDoc bytes.
 * @param signature - the tx's signature.
 * @returns whether the signature is valid.
 * @example
 * ```ts
 * verifySignatureOrVerdict("secp256k1", new Uint8Array(33), new Uint8Array(0), new Uint8Array(64)); // false
 * ```
 */
export function verifySignatureOrVerdict(
  algo: KeyAlgo,
  key: Uint8Array,
  signBytes: Uint8Array,
  signature: Uint8Array,
): boolean {
  if (algo === "secp256k1" && verdicts.size > 0 && verdicts.has(algo, key, signBytes, signature)) return true;
  return verifySignature(algo, key, signBytes, signature);
}

/** The devnet's single validator key: ed25519 from a fixed seed, so every run is the same chain. */
export interface ValidatorKey {
  /** 32-byte seed (the private key). */
  readonly secretKey: Uint8Array;
  /** 32-byte ed25519 public key. */
  readonly publicKey: Uint8Array;
  /** 20-byte consensus address: the first 20 bytes of SHA-256(public key), as CometBFT derives it. */
  readonly address: Uint8Array;
  /** The key as Node's crypto holds it (signing with it is native). */
  readonly keyObject: KeyObject;
}

/** DER (PKCS#8) of an ed25519 private key, up to the 32-byte seed that follows. */
const ED25519_PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);
/** Length of the DER (SPKI) header of an ed25519 public key; the 32 key bytes follow it. */
const ED25519_SPKI_HEADER_LENGTH = 12;

/**
 * The public keys of the labels the devnet derives its validator from (one per profile), as
 * {@link validatorKeyFromLabel} derives them (a test derives them again): a start does without
 * Node's ed25519 key parsing, whose first use costs about a millisecond.
 */
const KNOWN_PUBLIC_KEYS: ReadonlyMap<string, string> = new Map([
  ["perpx local validator", "b081f4aa6ad20fe178ec52b5eb0b0ebeb4a80906cc1c9e140be26126c4779cd1"],
  ["perpx testnet validator", "b6302995532302ac0b12a2282fd68490f5502761cae7153f148424afb1b3133b"],
  ["perpx mainnet validator", "0f1061d4f37c1b9b41a0243a29ae406e045ef13dcabac57f3299b599833f6071"],
]);

/** The labels whose validator public key {@link validatorKeyFromLabel} knows without deriving it (one per profile). */
export const KNOWN_VALIDATOR_LABELS: readonly string[] = [...KNOWN_PUBLIC_KEYS.keys()];

/**
 * Derives the validator key from a label (SHA-256 of it is the seed). Node's native ed25519 does
 * the work: noble's first use builds its tables, a cost the devnet's start-up does without. The
 * key object is made on first use (the first signature); a known label's public key is not derived.
 *
 * @param label - any text; the seed is its SHA-256.
 */
export function validatorKeyFromLabel(label: string): ValidatorKey {
  const secretKey = sha256(utf8(label));
  let keyObject: KeyObject | undefined;
  const privateKey = () => {
    keyObject ??= createPrivateKey({
      key: Buffer.concat([ED25519_PKCS8_PREFIX, secretKey]),
      format: "der",
      type: "pkcs8",
    });
    return keyObject;
  };
  const known = KNOWN_PUBLIC_KEYS.get(label);
  const publicKey =
    known === undefined
      ? new Uint8Array(
          createPublicKey(privateKey())
            .export({ format: "der", type: "spki" })
            .subarray(ED25519_SPKI_HEADER_LENGTH),
        )
      : fromHex(known);
  return {
    secretKey,
    publicKey,
    address: sha256(publicKey).subarray(0, 20),
    get keyObject() {
      return privateKey();
    },
  };
}

/** Signs bytes with the validator key (block commit signatures). */
export function signEd25519(key: ValidatorKey, message: Uint8Array): Uint8Array {
  return new Uint8Array(sign(null, message, key.keyObject));
}
