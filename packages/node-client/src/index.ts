/**
 * `@perpx/node-client`: a client of one perpx node over CometBFT RPC, REST and gRPC (each loaded on
 * first use): typed queries, message builders and trading actions, a send pipeline whose sequences
 * never lose or double a transaction, and its errors.
 *
 * Beside this entry: `@perpx/node-client/wallets` (keys and signers), `/tx` (transaction
 * envelopes, signing, sequences), `/operator` (snapshots and releases), `/native` (the libsecp256k1
 * signer backend).
 *
 * @packageDocumentation
 */

export {
  CHAIN_ERRORS,
  type ChainCodespace,
  type ChainError,
  chainErrorOfLog,
  GRPC_CODES,
  SDK_CODES,
} from "./chainErrors.js";
export {
  type BoundActions,
  createNodeClient,
  type NodeAction,
  type NodeClient,
  type NodeClientOptions,
} from "./client.js";
export type { BroadcastMode, NodeConnection, TxDefaults } from "./connection.js";
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
  type BatchCancelParams,
  batchCancelMsg,
  type CancelOrderParams,
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
  type OrderMarket,
  type OrderMarketRef,
  type OrderWireAmounts,
  orderWireAmounts,
} from "./messages/market.js";
export { type BankMultiSendParams, bankMultiSendMsg } from "./messages/multiSend.js";
export {
  type ConditionType,
  ORDER_FLAGS,
  type OrderCommonParams,
  type OrderKind,
  type OrderSide,
  type PlaceOrderParams,
  type TimeInForce,
} from "./messages/orderTypes.js";
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
  TWAP_LIMITS,
  TWAP_SUBORDER_FLAGS,
  type TwapParams,
  twapLegs,
  twapParametersOf,
} from "./messages/twap.js";
export { type NodeActions, nodeActions } from "./nodeActions.js";
export * from "./query/accountplus.js";
export * from "./query/affiliates.js";
export * from "./query/amounts.js";
export * from "./query/auth.js";
export * from "./query/bank.js";
export { blockOperations, cancelIn, placementIn } from "./query/blockOrders.js";
export * from "./query/blocks.js";
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
export { type FactOptions, type RestQueryParams, restQuery } from "./query/facts.js";
export * from "./query/ibc.js";
export { type GetMarketParams, getMarket, type Market } from "./query/market.js";
export * from "./query/markets.js";
export * from "./query/node.js";
export { type AllPagesParams, allPages } from "./query/pages.js";
export * from "./query/ratelimit.js";
export * from "./query/subaccounts.js";
export * from "./query/txs.js";
export {
  HEIGHT_HEADER,
  type QueryOptions,
  queryPath,
  type UnaryQueryParams,
  unaryQuery,
} from "./query/unary.js";
export { type WatchBlocksParams, watchBlocks } from "./query/watch.js";
export * from "./query/wrap.js";
export type { CallOptions } from "./transport/call.js";
export type { GrpcInput, GrpcOptions } from "./transport/grpc-options.js";
export type { RestOptions } from "./transport/rest.js";
export {
  FetchRpcClient,
  type JsonRpcClient,
  JsonRpcError,
  type RpcHttpOptions,
  type RpcInjectedOptions,
  type RpcOptions,
} from "./transport/rpc-json.js";
export {
  type SubscribeParams,
  type WebSocketConstructor,
  type WebSocketLike,
  WebSocketRpcClient,
  type WebSocketRpcOptions,
} from "./transport/websocket.js";
export * from "./tx/actions.js";
export {
  type BroadcastResult,
  type BroadcastTxParams,
  broadcastTx,
  isShortTermOrderTx,
  isTxInclusionTimeoutError,
  TxInclusionTimeoutError,
  type WaitForTxParams,
  waitForTx,
} from "./tx/broadcast.js";
export type { TxFee, TxMessage } from "./tx/encode.js";
export * from "./tx/permissioned.js";
export { type BroadcastProgress, type SendTxParams, type SendTxResult, sendTx } from "./tx/send.js";
export { type SimulateTxParams, type SimulationResult, simulateTx } from "./tx/simulate.js";
export * from "./tx/watchOrder.js";
export type { DirectSignature, KeyType, SignDocFields, TxSigner } from "./wallet/signer.js";
