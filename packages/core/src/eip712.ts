/**
 * `@perpx/core/eip712`: EIP-712 typed data and EVM signatures: `hashTypedData` and its parts
 * (computed by the `ox` library), secp256k1 signer recovery and checks, and the digest and check of
 * the perpx `ServiceTransaction:ApproveAgent` message (its typed data is the root entry's
 * `approveAgentTypedData`). Bad input is an `InvalidArgumentError` naming its path. A separate
 * entry point: the hashing pulls `ox`'s ABI encoder and noble's secp256k1, which the main bundle
 * does without.
 *
 * @packageDocumentation
 */
export type { ApproveAgentParams } from "./approve-agent.js";
export { hashApproveAgent, verifyApproveAgent } from "./evm/approval.js";
export {
  encodeType,
  hashStruct,
  hashType,
  hashTypedData,
  recoverAddress,
  verifyEthSignature,
} from "./evm/eip712.js";
export type { TypedData, TypedDataField, TypedDataValue } from "./typed-data.js";
