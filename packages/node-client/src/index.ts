/**
 * `@perpx/node-client`: a client of one perpx node over CometBFT RPC, REST and gRPC (each loaded on
 * first use), sized for a trader: the client, trading and transfer actions, the account, balance,
 * order and market reads, a send pipeline whose sequences never lose or double a transaction, and
 * its errors.
 *
 * Beside this entry: `@perpx/node-client/queries` (every chain-module query: IBC, rate limits,
 * bridge, affiliates, accountplus, blocks and txs, node facts; and `queryActions` for
 * `client.extend`), `/wallets` (keys and signers), `/tx` (message builders, transaction envelopes,
 * signing, sequences, chain error codes), `/operator` (snapshots and releases), `/native` (the
 * libsecp256k1 signer backend).
 *
 * @packageDocumentation
 */

export {
  type BoundActions,
  createNodeClient,
  type NodeAction,
  type NodeClient,
  type NodeClientOptions,
} from "./client.js";
export type { BroadcastMode, NodeConnection, TxDefaults } from "./connection.js";
export {
  AuthenticatorRefusedError,
  type BroadcastFailureReason,
  BroadcastTxError,
  broadcastFailureReason,
  CLOB_ERRORS,
  type ClobErrorName,
  isAuthenticatorRefusedError,
  isBroadcastTxError,
  isQueryError,
  isSequenceMismatchError,
  isTransportError,
  QueryError,
  SequenceMismatchError,
  TransportError,
} from "./errors.js";
export type { BatchCancelParams, CancelOrderParams } from "./messages/clob.js";
export type { OrderMarket, OrderMarketRef } from "./messages/market.js";
export type {
  ConditionType,
  OrderKind,
  OrderSide,
  PlaceOrderParams,
  TimeInForce,
} from "./messages/orderTypes.js";
export type {
  BankSendParams,
  DepositToSubaccountParams,
  TransferParams,
  WithdrawFromSubaccountParams,
} from "./messages/transfers.js";
export { type NodeActions, nodeActions } from "./nodeActions.js";
export { type SubaccountBalances, subaccountBalances } from "./query/amounts.js";
export { type AccountInfo, getAccount, getAccountSequence } from "./query/auth.js";
export { type Balance, getBalance, getBalances } from "./query/bank.js";

export { getChainId, getLatestBlock, type LatestBlock } from "./query/chain.js";
export { type GetMarketParams, getMarket, type Market } from "./query/market.js";
export { getStatefulOrder, marketQueries } from "./query/markets.js";
export { getLeverage, getSubaccount, getSubaccounts } from "./query/subaccounts.js";
export { getTx, type TxInfo } from "./query/txs.js";
export type { QueryOptions } from "./query/unary.js";
export type { CallOptions } from "./transport/call.js";
export type { GrpcInput, GrpcOptions } from "./transport/grpc-options.js";
export type { RestOptions } from "./transport/rest.js";
export type { RpcOptions } from "./transport/rpc-json.js";
export {
  type ActionOptions,
  bankMultiSend,
  bankSend,
  batchCancel,
  cancelOrder,
  depositToSubaccount,
  placeOrder,
  transfer,
  updateLeverage,
  withdrawFromSubaccount,
} from "./tx/actions.js";
export {
  type BroadcastResult,
  broadcastTx,
  isTxInclusionTimeoutError,
  TxInclusionTimeoutError,
  waitForTx,
} from "./tx/broadcast.js";
export type { TxMessage } from "./tx/encode.js";
export { registerTradingKey, sendWithTradingKey } from "./tx/permissioned.js";
export { type SendTxParams, type SendTxResult, sendTx } from "./tx/send.js";
export { simulateTx } from "./tx/simulate.js";
export { type ShortTermOrderOutcome, watchShortTermOrder } from "./tx/watchOrder.js";
export type { TxSigner } from "./wallet/signer.js";
