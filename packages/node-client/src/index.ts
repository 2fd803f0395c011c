/**
 * `@perpx/node-client`: one client of a perpx node over CometBFT RPC, REST and gRPC (TLS); typed
 * queries; wallets (Cosmos, EVM, trading keys, external signers); message builders; signing with
 * protobuf-es; a send pipeline whose sequences never lose or double a transaction.
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
export { createNodeClient, NodeClient, type NodeClientOptions } from "./client.js";
export type { BroadcastMode, NodeConnection, TxDefaults } from "./connection.js";
export {
  activeSignerBackend,
  jsSignerBackend,
  loadNativeSignerBackend,
  resolveSignerBackend,
  type SignerBackend,
  type SignerBackendName,
  type SignerBackendOption,
} from "./crypto/backend.js";
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
export * from "./eip712.js";
export {
  type AuthenticatorCheck,
  AuthenticatorRefusedError,
  type BroadcastFailureReason,
  BroadcastTxError,
  type BroadcastTxErrorParameters,
  broadcastFailureReason,
  broadcastTxError,
  CLOB_CODES,
  CLOB_ERRORS,
  type ClobErrorName,
  isAuthenticatorRefusedError,
  isBroadcastTxError,
  isQueryError,
  isSequenceMismatchError,
  isTransportError,
  parseAuthenticatorRefusal,
  parseSequenceMismatch,
  QueryError,
  type QueryErrorParameters,
  SequenceMismatchError,
  sdkCodeFromLog,
  TransportError,
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
  type BatchCancelParams,
  batchCancelMsg,
  type CancelOrderParams,
  type ConditionType,
  cancelOrderMsg,
  isFeeFreeClobMessage,
  isShortTermClobMessage,
  MAX_BATCH_CANCELS,
  ORDER_FLAGS,
  type OrderCommonParams,
  type OrderKind,
  type OrderSide,
  type PlaceOrderParams,
  placeOrderMsg,
  type TimeInForce,
} from "./messages/clob.js";
export {
  type BankSendParams,
  bankSendMsg,
  type CoinInput,
  type DepositToSubaccountParams,
  depositToSubaccountMsg,
  type IbcTransferParams,
  ibcTransferMsg,
  type TransferParams,
  transferMsg,
  type WithdrawFromSubaccountParams,
  type WrapRedeemParams,
  type WrapWithdrawParams,
  withdrawFromSubaccountMsg,
  wrapRedeemMsg,
  wrapWithdrawMsg,
} from "./messages/transfers.js";
export {
  parseReleaseChecksum,
  type ReleaseVerification,
  type VerifyReleaseParams,
  verifyReleaseArchive,
} from "./operator/release.js";
export {
  canServeHeight,
  latestSnapshotHeight,
  type NewestSnapshotOptions,
  newestSnapshot,
  parseSnapshotName,
  type SnapshotName,
  STATE_SYNC_INTERVAL_BLOCKS,
  STATE_SYNCED_NODE_CANNOT_SERVE,
} from "./operator/snapshots.js";
export * from "./query/accountplus.js";
export * from "./query/affiliates.js";
export * from "./query/amounts.js";
export * from "./query/auth.js";
export * from "./query/bank.js";
export * from "./query/bridge.js";
export {
  getAccountplusParams,
  getAsset,
  getAssets,
  getCollateralPoolAddress,
  getLeverage,
  getLiquidationsConfig,
  getLiquidityTiers,
  getMarketFeeDiscount,
  getMarketFeeDiscounts,
  getMarketParam,
  getMarketParams,
  getNextIds,
  getPendingSendPackets,
  getPerpetualsParams,
  getStakingTiers,
  getUserStakingTier,
  getWithdrawalsBlockedInfo,
  type MarketFeeDiscountParams,
  type PerpetualIdParams,
  type UserStakingTierParams,
} from "./query/catalog.js";
export * from "./query/chain.js";
export { type FactOptions, restQuery } from "./query/facts.js";
export * from "./query/markets.js";
export * from "./query/node.js";
export { allPages } from "./query/pages.js";
export * from "./query/ratelimit.js";
export * from "./query/subaccounts.js";
export * from "./query/txs.js";
export { HEIGHT_HEADER, type QueryOptions, queryPath, unaryQuery } from "./query/unary.js";
export * from "./query/wrap.js";
export { type CallOptions, withDeadline } from "./transport/call.js";
export type { GrpcInput, GrpcOptions } from "./transport/grpc-web.js";
export type { RestOptions } from "./transport/rest.js";
export {
  FetchRpcClient,
  type JsonRpcClient,
  JsonRpcError,
  type RpcHttpOptions,
  type RpcInjectedOptions,
  type RpcOptions,
  type WebSocketConstructor,
} from "./transport/rpc-json.js";
export {
  type RpcSubscription,
  WebSocketRpcClient,
  type WebSocketRpcOptions,
} from "./transport/rpc-socket.js";
export * from "./tx/actions.js";
export {
  type BroadcastResult,
  type BroadcastTxParams,
  broadcastTx,
  isTxInclusionTimeoutError,
  submitTx,
  TxInclusionTimeoutError,
  type WaitForTxParams,
  waitForTx,
} from "./tx/broadcast.js";
export {
  encodeAuthInfo,
  encodePublicKey,
  encodeSignDoc,
  encodeTxBody,
  encodeTxRaw,
  type FeeCoinInput,
  type TxFee,
  type TxMessage,
  toAny,
  txHash,
} from "./tx/encode.js";
export * from "./tx/permissioned.js";
export {
  CLOB_GAS_LIMIT,
  gasWithMultiplier,
  resolveGasPrice,
  type SendTxParams,
  type SendTxResult,
  sendTx,
} from "./tx/send.js";
export {
  type AccountSequence,
  SequenceManager,
  type SequenceManagerOptions,
  type SequenceMode,
  TIMESTAMP_NONCE_MIN,
} from "./tx/sequence.js";
export { type SignedTx, type SignTxParams, signTx, txExtension } from "./tx/sign.js";
export { type SimulateTxParams, type SimulationResult, simulateTx } from "./tx/simulate.js";
export { needsOrderWindow, type OrderWindowContext, validateOrderWindows } from "./tx/validateOrders.js";
export { EvmWallet } from "./wallet/evmWallet.js";
export { cosmosHdPath, evmHdPath, generateMnemonic24, isValidMnemonic } from "./wallet/hd.js";
export {
  type FromMnemonicOptions,
  LocalWallet,
  type WalletJson,
  type WalletOptions,
} from "./wallet/localWallet.js";
export {
  type FromOfflineSignerOptions,
  fromOfflineSigner,
  type OfflineDirectSignerLike,
} from "./wallet/offlineSigner.js";
export { SecretKey } from "./wallet/secretKey.js";
export {
  type DirectSignature,
  type KeyType,
  PUBKEY_TYPE_URLS,
  type SignDocFields,
  type TxSigner,
} from "./wallet/signer.js";
export { type TradingKey, tradingKeyFromCredential } from "./wallet/tradingKey.js";
