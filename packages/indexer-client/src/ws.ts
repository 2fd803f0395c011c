/**
 * `@perpx/indexer-client/ws`: the WebSocket's parts beneath `connectIndexerSocket` and the live
 * books and views of the root: subscriptions and their events, the emitter, reconnection options,
 * the socket's events, the transport it takes, and its errors.
 *
 * @packageDocumentation
 */

export type { ReconnectOptions } from "./ws/backoff.js";
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
  SubscriptionLimitError,
} from "./ws/errors.js";
export type { DisconnectCause, IndexerSocketEvents, SubscribeOptions } from "./ws/events.js";
export {
  type ResetReason,
  Subscription,
  type SubscriptionEvent,
  type SubscriptionEvents,
  type SubscriptionState,
} from "./ws/subscription.js";
export type { IndexerWebSocket, IndexerWebSocketConstructor } from "./ws/transport.js";
