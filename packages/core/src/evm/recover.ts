/**
 * secp256k1 signer recovery for EVM signatures (`ecrecover`): the signer of a digest, the check of
 * an `eth_secp256k1` signature against an address, and of a trading-key approval against its master. `@perpx/core/evm-verify`'s: noble's
 * secp256k1 is the biggest library of the SDK's browser bundles, and only a verifier needs it.
 *
 * @module
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { addressBytes, addressBytesToHex } from "@perpx/address";
import { InvalidArgumentError } from "@perpx/errors";
import * as Bytes from "ox/Bytes";
import * as Hash from "ox/Hash";
import { type ApproveAgentParams, approveAgentTypedData } from "../approve-agent.js";
import { hashTypedData } from "./eip712.js";

/** Signature bytes from bytes or hex (`0x` optional); `undefined` for text that is not hex bytes. */
function signatureBytes(signature: Uint8Array | string): Uint8Array | undefined {
  if (typeof signature !== "string") return signature;
  const hex = signature.replace(/^0[xX]/, "");
  return /^([0-9a-fA-F]{2})*$/.test(hex) ? Bytes.fromHex(`0x${hex}`) : undefined;
}

/**
 * Recovers the 0x address (EIP-55) that produced a 65-byte `r || s || v` signature over a digest
 * (`v` may be 0/1 or 27/28).
 *
 * @param digest - the 32-byte digest that was signed.
 * @param signature - 65 bytes `r || s || v` (v 27/28 or 0/1), as bytes or `0x` hex.
 * @returns the signer's checksummed `0x` address.
 * @throws {InvalidArgumentError} for a malformed signature.
 *
 * @example
 * ```ts
 * import { hashTypedData } from "@perpx/core/evm";
 *
 * // The EIP-712 specification's example, signed by the key keccak256("cow").
 * const mail: TypedData = {
 *   types: {
 *     EIP712Domain: [
 *       { name: "name", type: "string" },
 *       { name: "version", type: "string" },
 *       { name: "chainId", type: "uint256" },
 *       { name: "verifyingContract", type: "address" },
 *     ],
 *     Person: [
 *       { name: "name", type: "string" },
 *       { name: "wallet", type: "address" },
 *     ],
 *     Mail: [
 *       { name: "from", type: "Person" },
 *       { name: "to", type: "Person" },
 *       { name: "contents", type: "string" },
 *     ],
 *   },
 *   primaryType: "Mail",
 *   domain: { name: "Ether Mail", version: "1", chainId: 1, verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC" },
 *   message: {
 *     from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
 *     to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
 *     contents: "Hello, Bob!",
 *   },
 * };
 * const signature =
 *   "0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d" +
 *   "07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c";
 * recoverAddress(hashTypedData(mail), signature); // "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"
 * ```
 */
export function recoverAddress(digest: Uint8Array, signature: Uint8Array | string): `0x${string}` {
  const bytes = typeof signature === "string" ? signatureBytes(signature) : signature;
  if (bytes === undefined || bytes.length !== 65) {
    throw new InvalidArgumentError("signature", "expected 65 bytes r || s || v");
  }
  const v = bytes[64]! >= 27 ? bytes[64]! - 27 : bytes[64]!;
  if (v !== 0 && v !== 1) throw new InvalidArgumentError("signature", `bad recovery id ${bytes[64]}`);
  const recovered = new Uint8Array(65);
  recovered[0] = v;
  recovered.set(bytes.subarray(0, 64), 1);
  const publicKey = secp256k1.recoverPublicKey(recovered, digest, { prehash: false });
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return addressBytesToHex(Hash.keccak256(uncompressed.subarray(1)).subarray(12));
}

/**
 * Checks an Ethereum-style secp256k1 signature over a 32-byte digest against a 20-byte EVM address:
 * `r || s || v` (65 bytes, `v` 0/1/27/28) must recover to the address; a bare `r || s` (64 bytes,
 * as eth_secp256k1 keys verify it, `v` dropped) passes when either recovery id does. High-`s`
 * signatures are refused.
 *
 * @param digest - the 32-byte message hash (Keccak-256 of the signed bytes, or an EIP-712 digest).
 * @param signature - 64 or 65 bytes (or 0x-hex).
 * @param address - the expected signer: 20 bytes, `0x...` or `perpx1...`.
 * @returns true when the signature is the address's.
 *
 * @example
 * ```ts
 * import { secp256k1 } from "@noble/curves/secp256k1.js";
 * import { keccak_256 } from "@noble/hashes/sha3.js";
 *
 * const secret = keccak_256(new TextEncoder().encode("cow")); // the key of 0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826
 * const digest = keccak_256(new TextEncoder().encode("sign bytes"));
 * const recovered = secp256k1.sign(digest, secret, { prehash: false, format: "recovered" }); // v, r, s
 * const signature = Uint8Array.of(...recovered.subarray(1), recovered[0]! + 27); // r, s, v
 * verifyEthSignature(digest, signature, "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"); // true
 * verifyEthSignature(digest, signature, "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"); // false
 * ```
 */
export function verifyEthSignature(
  digest: Uint8Array,
  signature: Uint8Array | string,
  address: Uint8Array | string,
): boolean {
  let expected: Uint8Array;
  try {
    expected = typeof address === "string" ? addressBytes(address) : address;
  } catch {
    return false;
  }
  const bytes = typeof signature === "string" ? signatureBytes(signature) : signature;
  if (bytes === undefined || digest.length !== 32 || expected.length !== 20) return false;
  const candidates: Uint8Array[] = [];
  if (bytes.length === 65) candidates.push(bytes);
  else if (bytes.length === 64) {
    for (const v of [27, 28]) {
      const full = new Uint8Array(65);
      full.set(bytes);
      full[64] = v;
      candidates.push(full);
    }
  } else return false;
  const want = addressBytesToHex(expected).toLowerCase();
  for (const candidate of candidates) {
    try {
      const sig = secp256k1.Signature.fromBytes(candidate.subarray(0, 64), "compact");
      if (sig.hasHighS()) return false;
      if (recoverAddress(digest, candidate).toLowerCase() === want) return true;
    } catch {
      // not recoverable with this id
    }
  }
  return false;
}

/**
 * Checks an approval signature: it must recover to `params.masterAddress`, and the approval must
 * not have expired at `nowSeconds`.
 *
 * @param params - the approval that was signed.
 * @param signature - 65 bytes `r || s || v` (bytes or 0x-hex).
 * @param nowSeconds - the time to check expiry against; omit to skip the expiry check.
 * @returns true when the signature is the master's and the approval is current.
 *
 * @example
 * ```ts
 * import { secp256k1 } from "@noble/curves/secp256k1.js";
 * import { keccak_256 } from "@noble/hashes/sha3.js";
 * import { approveAgentTypedData } from "@perpx/core";
 * import { hashTypedData } from "@perpx/core/evm";
 *
 * const master = keccak_256(new TextEncoder().encode("cow")); // the key of 0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826
 * const params: ApproveAgentParams = {
 *   evmChainId: 31337,
 *   masterAddress: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
 *   agentPublicKey: secp256k1.getPublicKey(new Uint8Array(32).fill(2)),
 *   nonce: 1_700_000_000_000,
 *   expiry: 1_800_000_000,
 * };
 * const recovered = secp256k1.sign(hashTypedData(approveAgentTypedData(params)), master, { prehash: false, format: "recovered" });
 * const signature = Uint8Array.of(...recovered.subarray(1), recovered[0]! + 27);
 * verifyApproveAgent(params, signature, 1_700_000_000); // true
 * verifyApproveAgent(params, signature, 1_900_000_000); // false: expired
 * ```
 */
export function verifyApproveAgent(
  params: ApproveAgentParams,
  signature: Uint8Array | string,
  nowSeconds?: number | bigint,
): boolean {
  const typedData = approveAgentTypedData(params);
  const expiry = BigInt(params.expiry ?? 0);
  if (nowSeconds !== undefined && expiry !== 0n && BigInt(nowSeconds) > expiry) return false;
  let signer: string;
  try {
    signer = recoverAddress(hashTypedData(typedData), signature);
  } catch {
    return false;
  }
  return signer.toLowerCase() === String(typedData.message.masterAddress).toLowerCase();
}
