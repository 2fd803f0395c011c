/**
 * `@perpx/indexer-client`: typed REST calls to a perpx indexer, a WebSocket connection that
 * reconnects and resubscribes, and local order books and account views built from its feeds.
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
export { INDEXER_API_VERSION } from "./version.js";
export type { ReconnectOptions } from "./ws/backoff.js";
export {
  connectIndexerSocket,
  type DisconnectCause,
  IndexerSocket,
  type IndexerSocketEvents,
  type SubscribeOptions,
} from "./ws/connection.js";
export { Emitter } from "./ws/emitter.js";
export {
  IndexerMessageError,
  IndexerSubscriptionError,
  isIndexerSubscriptionError,
  isSubscriptionLimitError,
  isWebSocketClosedError,
  SubscriptionLimitError,
  WebSocketClosedError,
} from "./ws/errors.js";
export type { IndexerSocketOptions } from "./ws/options.js";
export {
  type ResetReason,
  Subscription,
  type SubscriptionEvent,
  type SubscriptionEvents,
  type SubscriptionState,
} from "./ws/subscription.js";
export type { IndexerWebSocket, IndexerWebSocketConstructor } from "./ws/transport.js";
