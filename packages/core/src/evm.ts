/**
 * `@perpx/core/evm`: what a client needs to make EVM transactions: RLP, EIP-1559 and legacy
 * transactions (encode, sign with any `r || s || v` signer such as `EvmWallet`, decode and recover
 * the sender), and the ABI words of the bridge's and USDC's calls. The encoding is the `ox`
 * library's (its narrow modules, so a bundle keeps only what it uses); bad input is an
 * `InvalidArgumentError` naming the field. A separate entry point, so the main bundle does not
 * carry it; EIP-712 typed data is `@perpx/core/eip712`'s.
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
export { bytesToUint, type RlpItem, rlpDecode, rlpEncode, uintToBytes } from "./evm/rlp.js";
export {
  decodeSignedEvmTx,
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
