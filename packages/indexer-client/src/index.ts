/**
 * `@perpx/indexer-client`: typed REST calls to a perpx indexer, a WebSocket connection that
 * reconnects and resubscribes, and local order books and account views built from its feeds.
 *
 * The response types come from `@perpx/core/indexer`, the contract this client shares with the
 * devnet's indexer.
 *
 * @packageDocumentation
 */

export {
  type SubaccountAsset,
  type SubaccountPosition,
  SubaccountView,
  type SubaccountViewOptions,
} from "./account/subaccountView.js";
// The WebSocket client, order books and account views.
export {
  LiveSubaccount,
  type LiveSubaccountEvents,
  type WatchSubaccountOptions,
  watchSubaccount,
} from "./account/watch.js";
export { type BookSideName, type DepthLevel, type FillEstimate, OrderBook } from "./book/orderBook.js";
export {
  LiveOrderBook,
  type LiveOrderBookEvents,
  type WatchOrderBookOptions,
  watchOrderBook,
} from "./book/watch.js";
export {
  blockedCodeOf,
  ComplianceBlockedError,
  GeoBlockedError,
  httpErrorOf,
  IndexerDecodeError,
  type IndexerHttpAnswer,
  IndexerHttpError,
  IndexerNotFoundError,
  IndexerRateLimitError,
  IndexerTimeoutError,
  IndexerTransportError,
  IndexerValidationError,
  isComplianceBlockedError,
  isGeoBlockedError,
  isIndexerHttpError,
  isIndexerNotFoundError,
  isIndexerRateLimitError,
  isIndexerTransportError,
  isIndexerValidationError,
} from "./errors.js";
export {
  type GetAddressParams,
  type GetParentPerpetualPositionsParams,
  type GetPerpetualPositionsParams,
  getAddress,
  getAssetPositions,
  getParentAssetPositions,
  getParentPerpetualPositions,
  getParentSubaccount,
  getPerpetualPositions,
  getSubaccount,
  type PerpetualPositionFilters,
} from "./rest/actions/accounts.js";
export {
  type GetFillsParams,
  type GetParentFillsParams,
  type GetParentTransfersParams,
  type GetTransfersBetweenParams,
  type GetTransfersParams,
  getFills,
  getParentFills,
  getParentTransfers,
  getTransfers,
  getTransfersBetween,
  type MarketFilter,
} from "./rest/actions/fills.js";
export {
  type GetCandlesParams,
  type GetHistoricalFundingParams,
  type GetOrderbookParams,
  type GetPerpetualMarketsParams,
  type GetSparklinesParams,
  type GetTradesParams,
  getCandles,
  getHistoricalFunding,
  getOrderbook,
  getPerpetualMarkets,
  getSparklines,
  getTrades,
} from "./rest/actions/markets.js";
export {
  type GetOrderParams,
  type GetOrdersParams,
  type GetParentOrdersParams,
  getOrder,
  getOrders,
  getParentOrders,
  type OrderFilters,
} from "./rest/actions/orders.js";
export {
  type FundingPaymentFilters,
  type GetFundingPaymentsParams,
  type GetHistoricalBlockTradingRewardsParams,
  type GetHistoricalPnlParams,
  type GetHistoricalTradingRewardAggregationsParams,
  type GetParentFundingPaymentsParams,
  type GetParentHistoricalPnlParams,
  type GetParentPnlParams,
  type GetParentTradeHistoryParams,
  type GetPnlParams,
  type GetTradeHistoryParams,
  getFundingPayments,
  getHistoricalBlockTradingRewards,
  getHistoricalPnl,
  getHistoricalTradingRewardAggregations,
  getParentFundingPayments,
  getParentHistoricalPnl,
  getParentPnl,
  getParentTradeHistory,
  getPnl,
  getTradeHistory,
  type TradingRewardBounds,
} from "./rest/actions/pnl.js";
export {
  type AddressParams,
  type GetAffiliateAddressParams,
  type GetAffiliateSnapshotParams,
  getAffiliateAddress,
  getAffiliateMetadata,
  getAffiliateSnapshot,
  getAffiliateTotalVolume,
  getComplianceScreen,
  getHealth,
  getHeight,
  getMegavaultHistoricalPnl,
  getMegavaultPositions,
  getScreen,
  getTime,
  getVaultsHistoricalPnl,
  type SearchTraderParams,
  searchTrader,
  type VaultPnlParams,
} from "./rest/actions/utility.js";
export { type IndexerActions, indexerActions } from "./rest/actions.js";
export {
  type BoundIndexerActions,
  createIndexerClient,
  type IndexerAction,
  type IndexerClient,
  type IndexerClientOptions,
} from "./rest/client.js";
export {
  type BodyShape,
  createIndexerConnection,
  type IndexerConnection,
  type IndexerConnectionOptions,
} from "./rest/connection.js";
export type { CallOptions } from "./rest/deadline.js";
export {
  CANDLE_DECIMAL_FIELDS,
  FILL_DECIMAL_FIELDS,
  FUNDING_DECIMAL_FIELDS,
  ORDER_DECIMAL_FIELDS,
  PERPETUAL_MARKET_DECIMAL_FIELDS,
  PERPETUAL_POSITION_DECIMAL_FIELDS,
  PNL_DECIMAL_FIELDS,
  PRICE_SIZE_DECIMAL_FIELDS,
  SUBACCOUNT_DECIMAL_FIELDS,
  type WithDecimals,
  withDecimals,
} from "./rest/decimals.js";
export {
  type HeightWalk,
  iterateFillPages,
  iterateFills,
  iterateFundingPaymentPages,
  iterateHistoricalPnl,
  iterateHistoricalPnlPages,
  iterateParentFillPages,
  iterateParentTransferPages,
  iteratePerpetualPositions,
  iteratePnl,
  iterateTradeHistoryPages,
  iterateTradePages,
  iterateTrades,
  iterateTransferPages,
  iterateTransfers,
  type PageIterationParams,
  pagesOf,
  walkBackOf,
} from "./rest/paginate.js";
export type {
  CreatedBeforeParams,
  CreatedOnOrAfterParams,
  LimitParams,
  PageParams,
  ParentSubaccountParams,
  SubaccountParams,
} from "./rest/params.js";
export type { RetryOptions } from "./rest/retry.js";
export { createStaticFetch, type StaticRoute } from "./rest/static-fetch.js";
export type { HeightInput, TimeInput } from "./rest/validate.js";
export { INDEXER_API_VERSION } from "./version.js";
export type { ReconnectOptions } from "./ws/backoff.js";
export { connectIndexerSocket } from "./ws/connect.js";
export { IndexerSocket } from "./ws/connection.js";
export { Emitter } from "./ws/emitter.js";
export {
  IndexerFrameError,
  IndexerListenerError,
  IndexerMessageError,
  IndexerSubscriptionError,
  isIndexerFrameError,
  isIndexerListenerError,
  isIndexerSubscriptionError,
  isSubscriptionLimitError,
  isWebSocketClosedError,
  SubscriptionLimitError,
  WebSocketClosedError,
} from "./ws/errors.js";
export type { DisconnectCause, IndexerSocketEvents, SubscribeOptions } from "./ws/events.js";
export type { IndexerSocketOptions } from "./ws/options.js";
export {
  type ResetReason,
  Subscription,
  type SubscriptionEvent,
  type SubscriptionEvents,
  type SubscriptionState,
} from "./ws/subscription.js";
export type { IndexerWebSocket, IndexerWebSocketConstructor } from "./ws/transport.js";
