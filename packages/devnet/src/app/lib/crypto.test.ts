import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utf8 } from "./codec.js";
import {
  addressOfKey,
  forgetNativeVerdicts,
  isLowSCompact,
  KNOWN_VALIDATOR_LABELS,
  recordNativeVerdict,
  signEd25519,
  validatorKeyFromLabel,
  verifySignature,
  verifySignatureOrVerdict,
} from "./crypto.js";

const N = secp256k1.Point.Fn.ORDER;

describe("signature verification", () => {
  it("property: the native secp256k1 verifier agrees with noble's on valid, tampered, high-S, out-of-range and foreign signatures", () => {
    const keys = [1, 2, 3].map((i) => sha256(new Uint8Array([i])));
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 200 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom("none", "flip", "highS", "zero", "rIsN", "sIsN", "sZero", "bytes"),
        fc.nat(63),
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        (message, signerIndex, keyIndex, tamper, position, bytes) => {
          const secret = keys[signerIndex] as Uint8Array;
          const key = secp256k1.getPublicKey(keys[keyIndex] as Uint8Array, true);
          const digest = sha256(message);
          let sig = secp256k1.sign(digest, secret, { prehash: false });
          if (tamper === "flip") {
            sig = sig.slice();
            sig[position] = (sig[position] as number) ^ 1;
          } else if (tamper === "highS") {
            const s = BigInt(`0x${Buffer.from(sig.subarray(32)).toString("hex")}`);
            const high = (N - s).toString(16).padStart(64, "0");
            sig = new Uint8Array([...sig.subarray(0, 32), ...Buffer.from(high, "hex")]);
          } else if (tamper === "zero") {
            sig = new Uint8Array(64);
          } else if (tamper === "rIsN" || tamper === "sIsN" || tamper === "sZero") {
            // r or s out of [1, n): OpenSSL and noble must both refuse.
            const value = tamper === "sZero" ? new Uint8Array(32) : Buffer.from(N.toString(16), "hex");
            sig = sig.slice();
            sig.set(value, tamper === "rIsN" ? 0 : 32);
          } else if (tamper === "bytes") {
            sig = bytes;
          }
          const reference = (() => {
            try {
              return secp256k1.verify(sig, digest, key, { prehash: false, lowS: true });
            } catch {
              return false;
            }
          })();
          expect(verifySignature("secp256k1", key, message, sig)).toBe(reference);
          // Repeat use (cached and precomputed key) gives the same answer.
          for (let i = 0; i < 5; i++) expect(verifySignature("secp256k1", key, message, sig)).toBe(reference);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("property: the byte-level low-S check accepts exactly the compact signatures noble parses as low-S", () => {
    const half = N >> 1n;
    // r and s near every boundary (0, 1, n/2, n, 2^256 - 1) and anywhere.
    const edges = [0n, 1n, half - 1n, half, half + 1n, N - 1n, N, N + 1n, (1n << 256n) - 1n];
    const scalar = fc.oneof(
      fc.constantFrom(...edges),
      fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
      fc
        .tuple(fc.constantFrom(...edges), fc.integer({ min: -300, max: 300 }))
        .map(([e, d]) => BigInt.asUintN(256, e + BigInt(d))),
    );
    const bytes32 = (v: bigint) => Buffer.from(v.toString(16).padStart(64, "0"), "hex");
    fc.assert(
      fc.property(scalar, scalar, (r, s) => {
        const sig = new Uint8Array([...bytes32(r), ...bytes32(s)]);
        const reference = (() => {
          try {
            return !secp256k1.Signature.fromBytes(sig, "compact").hasHighS();
          } catch {
            return false;
          }
        })();
        expect(isLowSCompact(sig)).toBe(reference);
      }),
      { numRuns: 2000 },
    );
    expect(isLowSCompact(new Uint8Array(63))).toBe(false);
  });

  it("a low-S signature and its high-S twin: both verify mathematically, only the low one passes", () => {
    const secret = sha256(new Uint8Array([7]));
    const key = secp256k1.getPublicKey(secret, true);
    const message = utf8("cosmos rejects high S");
    const sig = secp256k1.sign(sha256(message), secret, { prehash: false });
    const s = BigInt(`0x${Buffer.from(sig.subarray(32)).toString("hex")}`);
    const high = new Uint8Array([
      ...sig.subarray(0, 32),
      ...Buffer.from((N - s).toString(16).padStart(64, "0"), "hex"),
    ]);
    expect(secp256k1.verify(high, sha256(message), key, { prehash: false, lowS: false })).toBe(true);
    expect(verifySignature("secp256k1", key, message, sig)).toBe(true);
    expect(verifySignature("secp256k1", key, message, high)).toBe(false);
  });

  it("a key off the curve or cut short, or a wrong-length signature, is false (never a throw)", () => {
    const secret = sha256(new Uint8Array([5]));
    const message = utf8("m");
    const sig = secp256k1.sign(sha256(message), secret, { prehash: false });
    const key = secp256k1.getPublicKey(secret, true);
    const notOnCurve = key.slice();
    notOnCurve[0] = 0x05;
    expect(verifySignature("secp256k1", notOnCurve, message, sig)).toBe(false);
    expect(verifySignature("secp256k1", key.subarray(1), message, sig)).toBe(false);
    expect(verifySignature("secp256k1", key, message, sig.subarray(0, 63))).toBe(false);
    expect(verifySignature("secp256k1", key, message, new Uint8Array([...sig, 0]))).toBe(false);
  });

  it("eth_secp256k1: Keccak-256 digest, 64 or 65 bytes, and the Ethereum address", () => {
    const secret = sha256(new Uint8Array([9]));
    const key = secp256k1.getPublicKey(secret, true);
    const message = new TextEncoder().encode("sign doc");
    const sig = secp256k1.sign(keccak_256(message), secret, { prehash: false });
    expect(verifySignature("eth_secp256k1", key, message, sig)).toBe(true);
    expect(verifySignature("eth_secp256k1", key, message, new Uint8Array([...sig, 27]))).toBe(true);
    expect(verifySignature("secp256k1", key, message, sig)).toBe(false);
    expect(verifySignature("eth_secp256k1", key, message, sig.subarray(0, 63))).toBe(false);
    const expected = keccak_256(secp256k1.getPublicKey(secret, false).subarray(1)).subarray(12);
    expect(addressOfKey("eth_secp256k1", key)).toEqual(expected);
  });
});

describe("validator key (native ed25519)", () => {
  it("matches noble's ed25519: public key, address and deterministic signatures (property)", () => {
    fc.assert(
      fc.property(fc.string(), fc.uint8Array({ maxLength: 200 }), (label, message) => {
        const key = validatorKeyFromLabel(label);
        expect(key.secretKey).toEqual(sha256(utf8(label)));
        expect(key.publicKey).toEqual(ed25519.getPublicKey(key.secretKey));
        expect(key.address).toEqual(sha256(key.publicKey).subarray(0, 20));
        const signature = signEd25519(key, message);
        expect(signature).toEqual(ed25519.sign(message, key.secretKey));
        expect(ed25519.verify(signature, message, key.publicKey)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it("knows the public key of each profile's validator as ed25519 derives it, and signs with its key", () => {
    expect(KNOWN_VALIDATOR_LABELS).toEqual([
      "perpx local validator",
      "perpx testnet validator",
      "perpx mainnet validator",
    ]);
    for (const label of KNOWN_VALIDATOR_LABELS) {
      const key = validatorKeyFromLabel(label);
      expect(key.publicKey).toEqual(ed25519.getPublicKey(sha256(utf8(label))));
      expect(key.address).toEqual(sha256(key.publicKey).subarray(0, 20));
      const signature = signEd25519(key, utf8("block"));
      expect(ed25519.verify(signature, utf8("block"), key.publicKey)).toBe(true);
    }
  });
});

describe("recorded verdicts", () => {
  it("answer the ante's check for exactly the recorded bytes, never the plain verification", () => {
    const secret = sha256(new Uint8Array([7]));
    const key = secp256k1.getPublicKey(secret, true);
    const message = utf8("sign doc");
    // A low-S signature over other bytes: invalid for `message`, but it passes the prechecks.
    const signature = secp256k1.sign(sha256(utf8("other")), secret, { prehash: false, lowS: true });
    expect(verifySignature("secp256k1", key, message, signature)).toBe(false);
    recordNativeVerdict(key, message, signature);
    try {
      expect(verifySignatureOrVerdict("secp256k1", key, message, signature)).toBe(true);
      expect(verifySignature("secp256k1", key, message, signature)).toBe(false);
      expect(verifySignatureOrVerdict("secp256k1", key, utf8("sign doc!"), signature)).toBe(false);
    } finally {
      forgetNativeVerdicts();
    }
    expect(verifySignatureOrVerdict("secp256k1", key, message, signature)).toBe(false);
  });
});
