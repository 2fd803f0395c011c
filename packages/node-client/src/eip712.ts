/**
 * EIP-712 typed data and the perpx `ServiceTransaction:ApproveAgent` message. The definitions live
 * in `@perpx/core` (one definition for the client that signs and the devnet that verifies); this
 * module re-exports them so the node client's public API is unchanged.
 *
 * @module
 */
export {
  APPROVE_AGENT_DOMAIN_NAME,
  APPROVE_AGENT_DOMAIN_VERSION,
  APPROVE_AGENT_PRIMARY_TYPE,
  APPROVE_AGENT_TYPES,
  type ApproveAgentParams,
  approveAgentTypedData,
  encodeType,
  hashApproveAgent,
  hashStruct,
  hashType,
  hashTypedData,
  recoverAddress,
  type TypedData,
  type TypedDataField,
  type TypedDataValue,
  verifyApproveAgent,
} from "@perpx/core";
