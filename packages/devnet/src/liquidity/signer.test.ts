import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { addressBytesToBech32 } from "@perpx/address";
import { describe, expect, it } from "vitest";
import { devnetSigner } from "./signer.js";

describe("devnetSigner", () => {
  it("derives the compressed public key and the address of SHA-256(label), as noble does", () => {
    for (const label of ["perpx devnet liquidity", "perpx devnet faucet", "", "x".repeat(200)]) {
      const secret = sha256(new TextEncoder().encode(label));
      const publicKey = secp256k1.getPublicKey(secret, true);
      const signer = devnetSigner(label);
      expect(signer.publicKey).toEqual(publicKey);
      expect(signer.address).toBe(addressBytesToBech32(ripemd160(sha256(publicKey))));
    }
  });
});
