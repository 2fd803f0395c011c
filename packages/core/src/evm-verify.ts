/**
 * `@perpx/core/evm-verify`: checking EVM signatures, by secp256k1 recovery (`ecrecover`): the
 * signer of a digest, an `eth_secp256k1` signature against an address, a trading-key approval
 * (`ServiceTransaction:ApproveAgent`) against its master, and a raw signed transaction decoded with
 * its sender. What a verifier needs; a client that only builds and signs does not, so noble's
 * secp256k1 stays out of `@perpx/core/evm` and the main entry. Bad input is an
 * `InvalidArgumentError` naming the field.
 *
 * @packageDocumentation
 */
export type { ApproveAgentParams } from "./approve-agent.js";
export { recoverAddress, verifyApproveAgent, verifyEthSignature } from "./evm/recover.js";
export type { EvmTx, EvmTxSignature, SignedEvmTx } from "./evm/tx.js";
export { decodeSignedEvmTx } from "./evm/tx-decode.js";
