/**
 * `@perpx/indexer-client`: a client of a perpx indexer, the common REST reads, and live order
 * books and account views over its WebSocket. The long tail of REST calls, iterators and decimal
 * conversions is in `@perpx/indexer-client/rest`; the socket's internals (subscriptions, the
 * emitter, frame errors) in `@perpx/indexer-client/ws`.
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
  IndexerHttpError,
  IndexerNotFoundError,
  IndexerRateLimitError,
  IndexerTimeoutError,
  IndexerTransportError,
  IndexerValidationError,
  isIndexerHttpError,
  isIndexerNotFoundError,
} from "./errors.js";
export {
  getAddress,
  getAssetPositions,
  getPerpetualPositions,
  getSubaccount,
} from "./rest/actions/accounts.js";
export { getFills, getTransfers } from "./rest/actions/fills.js";
export { getCandles, getOrderbook, getPerpetualMarkets, getTrades } from "./rest/actions/markets.js";
export { getOrder, getOrders } from "./rest/actions/orders.js";
export { getHistoricalPnl } from "./rest/actions/pnl.js";
export { getHeight, getTime } from "./rest/actions/utility.js";
export { createIndexerClient, type IndexerClient, type IndexerClientOptions } from "./rest/client.js";
export type { CallOptions } from "./rest/deadline.js";
export type {
  GetAddressParams,
  GetCandlesParams,
  GetFillsParams,
  GetHistoricalPnlParams,
  GetOrderbookParams,
  GetOrderParams,
  GetOrdersParams,
  GetPerpetualMarketsParams,
  GetPerpetualPositionsParams,
  GetSubaccountParams,
  GetTradesParams,
  GetTransfersParams,
} from "./rest/params.js";
export type { SubaccountParams } from "./rest/route-types.js";
export { createStaticFetch, type StaticRoute } from "./rest/static-fetch.js";
export type { HeightInput, TimeInput } from "./rest/validate.js";
export { INDEXER_API_VERSION } from "./version.js";
export { connectIndexerSocket } from "./ws/connect.js";
export { IndexerSocket } from "./ws/connection.js";
export { isWebSocketClosedError, WebSocketClosedError } from "./ws/errors.js";
export type { IndexerSocketOptions } from "./ws/options.js";
