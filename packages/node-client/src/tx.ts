/**
 * `@perpx/node-client/tx`: the low-level parts of a transaction. The envelope encoders (`TxBody`,
 * `AuthInfo`, `SignDoc`, `TxRaw`), signing and hashing, account sequences and timestamp nonces, gas
 * and fee helpers, order-window checks, and byte helpers. The trading client needs none of them
 * directly.
 *
 * @packageDocumentation
 */
export { fromBase64, fromHexString, toBase64, toHexString } from "./bytes.js";
export {
  compressedPublicKey,
  cosmosAddressBytes,
  ethAddressBytes,
  type SignOptions,
  signCosmos,
  signEthereum,
  verifyCosmos,
  verifyEthereum,
} from "./crypto/secp256k1.js";
export { type DeadlineParams, withDeadline } from "./transport/call.js";
export {
  encodeAuthInfo,
  encodePublicKey,
  encodeSignDoc,
  encodeTxBody,
  encodeTxRaw,
  type FeeCoinInput,
  toAny,
  txHash,
} from "./tx/encode.js";
export { CLOB_GAS_LIMIT, gasWithMultiplier, type ResolveGasPriceParams, resolveGasPrice } from "./tx/send.js";
export {
  type AccountSequence,
  SequenceManager,
  type SequenceManagerOptions,
  type SequenceMode,
  type SequenceRunParams,
  TIMESTAMP_NONCE_MIN,
} from "./tx/sequence.js";
export { type SignedTx, type SignTxParams, signTx, txExtension } from "./tx/sign.js";
export { needsOrderWindow, type OrderWindowContext, validateOrderWindows } from "./tx/validateOrders.js";
export { PUBKEY_TYPE_URLS } from "./wallet/signer.js";
