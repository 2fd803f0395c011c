/**
 * The trading-key approval's digest (`@perpx/core/evm`) and signature check
 * (`@perpx/core/evm-verify`, which recovers the signer with secp256k1): EIP-712 of `./eip712.ts`
 * (the `ox` library) over the `ServiceTransaction:ApproveAgent` typed data that
 * `../approve-agent.ts` builds (the root entry's, described there).
 *
 * @module
 */
import { type ApproveAgentParams, approveAgentTypedData } from "../approve-agent.js";
import { hashTypedData } from "./eip712.js";
import { recoverAddress } from "./recover.js";

/**
 * The digest an EVM wallet signs to approve a trading key.
 *
 * @param params - the approval, as {@link approveAgentTypedData} takes it.
 * @returns the 32-byte EIP-712 digest the owner signs.
 *
 * @example
 * ```ts
 * import { secp256k1 } from "@noble/curves/secp256k1.js";
 *
 * const params: ApproveAgentParams = {
 *   evmChainId: 31337,
 *   masterAddress: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
 *   agentPublicKey: secp256k1.getPublicKey(new Uint8Array(32).fill(2)),
 *   nonce: 1_700_000_000_000,
 * };
 * hashApproveAgent(params).length; // 32
 * ```
 */
export function hashApproveAgent(params: ApproveAgentParams): Uint8Array {
  return hashTypedData(approveAgentTypedData(params));
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
 * import { hashApproveAgent } from "@perpx/core/evm";
 *
 * const master = keccak_256(new TextEncoder().encode("cow")); // the key of 0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826
 * const params: ApproveAgentParams = {
 *   evmChainId: 31337,
 *   masterAddress: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
 *   agentPublicKey: secp256k1.getPublicKey(new Uint8Array(32).fill(2)),
 *   nonce: 1_700_000_000_000,
 *   expiry: 1_800_000_000,
 * };
 * const recovered = secp256k1.sign(hashApproveAgent(params), master, { prehash: false, format: "recovered" });
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
