/**
 * `@perpx/node-client/tx`: the low-level parts of a transaction. The message builders (`placeOrderMsg`,
 * `transferMsg`, ...) and the chain-module transaction actions (authenticators, wrap, IBC, affiliates,
 * bridge withdrawals), the envelope encoders (`TxBody`, `AuthInfo`, `SignDoc`, `TxRaw`), signing and
 * hashing, account sequences and timestamp nonces, gas and fee helpers, order-window checks, the
 * chain's error codes and their parsers, the JSON-RPC transports one can inject, and byte helpers.
 * The trading client of the root entry needs none of them directly.
 *
 * @packageDocumentation
 */

export { fromBase64, fromHexString, toBase64, toHexString } from "./bytes.js";
export {
  CHAIN_ERRORS,
  type ChainCodespace,
  type ChainError,
  chainErrorOfLog,
  GRPC_CODES,
  SDK_CODES,
} from "./chainErrors.js";
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
export {
  type AuthenticatorCheck,
  type BroadcastTxErrorParameters,
  broadcastTxError,
  CLOB_CODES,
  parseAuthenticatorRefusal,
  parseSequenceMismatch,
  type QueryErrorParameters,
  sdkCodeFromLog,
  type TransportErrorParameters,
} from "./errors.js";
export {
  type InitiateWithdrawalParams,
  initiateWithdrawalMsg,
  type LeverageSetting,
  type RegisterAffiliateParams,
  registerAffiliateMsg,
  type UpdateLeverageParams,
  updateLeverageMsg,
} from "./messages/account.js";
export {
  type AddAuthenticatorParams,
  type AuthenticatorNode,
  type AuthenticatorType,
  addAuthenticatorMsg,
  encodeAuthenticatorConfig,
  MAX_AUTHENTICATOR_DATA_BYTES,
  type RemoveAuthenticatorParams,
  removeAuthenticatorMsg,
  tradingKeyAuthenticator,
} from "./messages/accountplus.js";
export {
  batchCancelMsg,
  cancelOrderMsg,
  isFeeFreeClobMessage,
  isShortTermClobMessage,
  MAX_BATCH_CANCELS,
  placeOrderMsg,
} from "./messages/clob.js";
export {
  clobPairIdOf,
  type OrderAmounts,
  type OrderHumanAmounts,
  type OrderWireAmounts,
  orderWireAmounts,
} from "./messages/market.js";
export { type BankMultiSendParams, bankMultiSendMsg } from "./messages/multiSend.js";
export { ORDER_FLAGS, type OrderCommonParams } from "./messages/orderTypes.js";
export {
  bankSendMsg,
  type CoinInput,
  depositToSubaccountMsg,
  type IbcTransferParams,
  ibcTransferMsg,
  transferMsg,
  type WrapRedeemParams,
  type WrapWithdrawParams,
  withdrawFromSubaccountMsg,
  wrapRedeemMsg,
  wrapWithdrawMsg,
} from "./messages/transfers.js";
export {
  TWAP_LIMITS,
  TWAP_SUBORDER_FLAGS,
  type TwapParams,
  twapLegs,
  twapParametersOf,
} from "./messages/twap.js";
export { type DeadlineParams, withDeadline } from "./transport/call.js";
export {
  FetchRpcClient,
  type JsonRpcClient,
  JsonRpcError,
  type RpcHttpOptions,
  type RpcInjectedOptions,
} from "./transport/rpc-json.js";
export {
  type SubscribeParams,
  type WebSocketConstructor,
  type WebSocketLike,
  WebSocketRpcClient,
  type WebSocketRpcOptions,
} from "./transport/websocket.js";
export {
  addAuthenticator,
  ibcTransfer,
  initiateWithdrawal,
  registerAffiliate,
  removeAuthenticator,
  wrapRedeem,
  wrapWithdraw,
} from "./tx/actions.js";
export { type BroadcastTxParams, isShortTermOrderTx, type WaitForTxParams } from "./tx/broadcast.js";
export type { TxFee } from "./tx/encode.js";
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
export type { RegisterTradingKeyParams, SendWithTradingKeyParams } from "./tx/permissioned.js";
export type { BroadcastProgress } from "./tx/send.js";
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
export type { SimulateTxParams, SimulationResult } from "./tx/simulate.js";
export { needsOrderWindow, type OrderWindowContext, validateOrderWindows } from "./tx/validateOrders.js";
export {
  fillsOf,
  proposedOperations,
  removalOf,
  type ShortTermOrderFill,
  type WatchShortTermOrderParams,
} from "./tx/watchOrder.js";
export type { DirectSignature, KeyType, SignDocFields } from "./wallet/signer.js";
export { PUBKEY_TYPE_URLS } from "./wallet/signer.js";
