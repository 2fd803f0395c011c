/**
 * The trading-key approval's digest: EIP-712 of `./eip712.ts` (the `ox` library) over the
 * `ServiceTransaction:ApproveAgent` typed data that `../approve-agent.ts` builds (the root entry's,
 * described there). Its signature check is `./recover.ts`'s (`verifyApproveAgent`).
 *
 * @module
 */
import { type ApproveAgentParams, approveAgentTypedData } from "../approve-agent.js";
import { hashTypedData } from "./eip712.js";

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
