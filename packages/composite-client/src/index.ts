/**
 * `@perpx/composite-client`: one network config joins the node client and the faucet; trade in
 * human units behind one client, and follow every order to its end.
 */

export {
  type AccountFill,
  type AccountOrder,
  type AccountView,
  accountView,
  fundingPaymentsOf,
  imfOf,
  type Position,
} from "./account.js";
export { checkBookReach } from "./book.js";
export { type BridgeDeposit, type BridgeDepositParams, bridgeDeposit } from "./bridgeDeposit.js";
export { batchCancelOrders, cancelAllOrders } from "./cancels.js";
export {
  type ClientContext,
  type ConnectEndpoints,
  type ConnectOptions,
  connectContext,
  marketOf,
  type Trader,
} from "./client.js";
export { ClientIds } from "./clientIds.js";
export { checkCollateral, InsufficientCollateralError, setMarketLeverage } from "./collateral.js";
export { CompositeClient } from "./composite.js";
export {
  type AccountDisplay,
  accountDisplay,
  DISPLAY_ROUNDING,
  formatDecimal,
  formatPrice,
  formatRatio,
  formatSize,
  formatUsd,
  type PositionDisplay,
  RATIO_DECIMALS,
} from "./display.js";
export { BridgeDepositError, type BridgeDepositErrorReason, evmRpcCall } from "./evmRpc.js";
export { FaucetError, type FaucetGrant, faucetFor, requestFaucetTokens } from "./faucet.js";
export { type LiveFeed, type LiveFeedOptions, startLiveFeed } from "./feed.js";
export { type FollowOrder, handleOver, type OrderHandle, orderHandle } from "./handle.js";
export { type HeightTracker, type HeightTrackerOptions, startHeightTracker } from "./height.js";
export {
  isOrderOutcomeUnknownError,
  type LostTx,
  OrderOutcomeUnknownError,
  watchSend,
} from "./inFlight.js";
export { type InFlightOrder, inFlightHandle } from "./lookUp.js";
export {
  effectiveInitialMarginFraction,
  type MarginPosition,
  type MarginPositionInput,
  type MarginSummary,
  marginSummary,
  type OpenInterestInput,
} from "./margin.js";
export {
  type CompositeMarket,
  createMarketCache,
  type MarketCache,
  type MarketCacheOptions,
} from "./markets.js";
export { depositUsdc, withdrawUsdc } from "./money.js";
export { type BookTop, MarketBook, type MarketBookEvents, watchMarketBook } from "./orderBook.js";
export { fillTotals, followOnFeed, orderOutcome, rejectionOf } from "./orderOutcome.js";
export {
  type GoodTil,
  type HumanOrder,
  type OrderRounding,
  type OrderType,
  orderKind,
  type PlanContext,
  planOrder,
  slippagePpm,
  type WireOrder,
  worstSubticks,
} from "./orderPlan.js";
export { checkChainRules, type RuleCheckedOrder } from "./orderRules.js";
export { closeMarketPosition } from "./positions.js";
export {
  followOrder,
  type OrderFill,
  type OrderResult,
  type OrderStatus,
  type TrackedOrder,
} from "./tracking.js";
export { subaccountOf, traderOf, walletOf } from "./trader.js";
export {
  cancelling,
  cancelPlacedOrder,
  type PlacedOrders,
  placeHumanOrder,
  sendClob,
} from "./trading.js";
export {
  ApproveAgentError,
  type AuthorizedKey,
  approveAgentFromEvm,
  authorizeTradingKey,
} from "./tradingKeys.js";
export { type TransferParams, transferUsdc, usdcAmount } from "./transfers.js";
export { type HumanTwap, twapOfHuman } from "./twapPlan.js";
export {
  type BridgeDepositStatus,
  trackBridgeDeposit,
  wrapRedeemUsdc,
  wrapWithdrawUsdc,
} from "./wrapBridge.js";
