/**
 * `@perpx/core/evm`: what a client needs to make EVM transactions and signatures: RLP, EIP-1559
 * and legacy transactions (encode, sign with any `r || s || v` signer such as `EvmWallet`), the ABI
 * words of the bridge's and USDC's calls, and EIP-712 typed-data hashing (the ApproveAgent digest is
 * `hashTypedData(approveAgentTypedData(params))`, the typed data being the root entry's). The
 * encoding is the `ox` library's (its narrow modules, so a bundle keeps only what it uses); bad input is an `InvalidArgumentError` naming the field. A separate entry point, so the
 * main bundle does not carry it. Nothing here needs secp256k1: recovering a signer (decoding a
 * signed transaction, checking an approval) is `@perpx/core/evm-verify`'s.
 *
 * @packageDocumentation
 */

export {
  BRIDGE_ABI,
  decodeEvmRevert,
  decodeEvmString,
  decodeEvmWords,
  encodeEvmCall,
  encodeEvmRevert,
  encodeEvmString,
  evmEventTopic,
  evmSelector,
  evmWord,
  wordToAddress,
} from "./evm/abi.js";
export { encodeType, hashStruct, hashType, hashTypedData } from "./evm/eip712.js";
export { bytesToUint, type RlpItem, rlpDecode, rlpEncode, uintToBytes } from "./evm/rlp.js";
export {
  type Eip1559Tx,
  type EvmTx,
  type EvmTxBase,
  type EvmTxSignature,
  type EvmTxSigner,
  encodeSignedEvmTx,
  evmTxSigningPayload,
  type LegacyTx,
  type SignedEvmTx,
  signEvmTx,
} from "./evm/tx.js";
export type { TypedData, TypedDataField, TypedDataValue } from "./typed-data.js";
