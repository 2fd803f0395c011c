/**
 * `@perpx/indexer-client/rest`: every REST call of the indexer beyond the common reads at the
 * root (parent subaccounts, PnL, rewards, funding payments, vaults, affiliates, compliance), the
 * list iterators, the action table and its parts, the connection, decimal conversions, and the
 * REST errors beyond the common ones.
 *
 * @packageDocumentation
 */

export {
  blockedCodeOf,
  ComplianceBlockedError,
  GeoBlockedError,
  httpErrorOf,
  IndexerDecodeError,
  type IndexerHttpAnswer,
  isComplianceBlockedError,
  isGeoBlockedError,
  isIndexerRateLimitError,
  isIndexerTransportError,
  isIndexerValidationError,
} from "./errors.js";
export { getHistoricalFunding } from "./rest/actions/markets.js";
export { getFundingPayments } from "./rest/actions/pnl.js";
export { restActions } from "./rest/actions/tail.js";
export { type IndexerActions, indexerActions } from "./rest/actions.js";
export type { OptionalRouteAction, RouteAction } from "./rest/call.js";
export type { BoundIndexerActions, IndexerAction } from "./rest/client.js";
export {
  type BodyShape,
  createIndexerConnection,
  type IndexerConnection,
  type IndexerConnectionOptions,
} from "./rest/connection.js";
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
export { type HeightWalk, type PageIterationParams, pagesOf, walkBackOf } from "./rest/iterate.js";
export { restIterators } from "./rest/paginate.js";
export type {
  AddressParams,
  GetAffiliateAddressParams,
  GetAffiliateSnapshotParams,
  GetFundingPaymentsParams,
  GetHistoricalBlockTradingRewardsParams,
  GetHistoricalFundingParams,
  GetHistoricalTradingRewardAggregationsParams,
  GetParentFillsParams,
  GetParentFundingPaymentsParams,
  GetParentHistoricalPnlParams,
  GetParentOrdersParams,
  GetParentPerpetualPositionsParams,
  GetParentPnlParams,
  GetParentSubaccountParams,
  GetParentTradeHistoryParams,
  GetParentTransfersParams,
  GetPnlParams,
  GetSparklinesParams,
  GetTradeHistoryParams,
  GetTransfersBetweenParams,
  SearchTraderParams,
  VaultPnlParams,
} from "./rest/params.js";
export { requestRoute } from "./rest/request.js";
export type { RetryOptions } from "./rest/retry.js";
export type { RouteCallParams } from "./rest/route-types.js";
