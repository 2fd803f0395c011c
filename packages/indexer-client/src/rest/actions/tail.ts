/**
 * The REST calls beyond the root's common reads, as rows of the route table: each row is the call of
 * its route (`call(name)`), its params derived from the route's row in `@perpx/core/indexer` and its
 * answer the route's response type.
 */
import type {
  AffiliateAddressResponse,
  AffiliateMetadataResponse,
  AffiliateSnapshotResponse,
  AffiliateTotalVolumeResponse,
  AssetPositionsResponse,
  ComplianceScreenResponse,
  FillsResponse,
  FundingPaymentsResponse,
  HealthResponse,
  HistoricalBlockTradingRewardsResponse,
  HistoricalPnlResponse,
  HistoricalTradingRewardAggregationsResponse,
  IndexerRouteName,
  MegavaultHistoricalPnlResponse,
  MegavaultPositionsResponse,
  ParentSubaccountResponse,
  ParentSubaccountTransfersResponse,
  PerpetualPositionsResponse,
  PnlResponse,
  ScreenResponse,
  SparklinesResponse,
  TradeHistoryResponse,
  TraderSearchResponse,
  TransfersBetweenResponse,
  VaultsHistoricalPnlResponse,
} from "@perpx/core/indexer";
import { call, type OptionalRouteAction, type RouteAction } from "../call.js";
import type { RouteCallParams } from "../route-types.js";
import { getParentOrders } from "./orders.js";

/** The call of a route whose params are required, answering `R`. */
const required =
  <R>() =>
  <N extends IndexerRouteName>(name: N): RouteAction<RouteCallParams<N>, R> =>
    call(name);
/** The call of a route whose params may be left out, answering `R`. */
const optional =
  <R>() =>
  <N extends IndexerRouteName>(name: N): OptionalRouteAction<RouteCallParams<N>, R> =>
    call(name);

/**
 * The REST calls beyond the root's, each `call(client, params)` (and a method of every client built by
 * `createIndexerClient`), its params those of its route (`GetParentFillsParams`, ... in
 * `@perpx/indexer-client/rest`). A parent subaccount's (`{ owner, number }`, number 0..127):
 * `getParentSubaccount`, `getParentPerpetualPositions`, `getParentAssetPositions`,
 * `getParentOrders`, `getParentFills`, `getParentTransfers`, `getParentHistoricalPnl`,
 * `getParentPnl`, `getParentFundingPayments`, `getParentTradeHistory`. A subaccount's: `getPnl`,
 * `getTradeHistory`, `getTransfersBetween({ source, recipient })`. Rewards:
 * `getHistoricalTradingRewardAggregations`, `getHistoricalBlockTradingRewards`. Markets:
 * `getSparklines({ timePeriod })`. Utility: `getHealth`, `getScreen` and `getComplianceScreen`
 * (`{ address }`), `getMegavaultHistoricalPnl`, `getVaultsHistoricalPnl`, `getMegavaultPositions`,
 * `getAffiliateMetadata`, `getAffiliateAddress({ referralCode })`, `getAffiliateSnapshot`,
 * `getAffiliateTotalVolume`, `searchTrader({ searchParam })`. Each checks its params before the
 * request leaves and throws the REST errors of its route (`IndexerNotFoundError`, ...).
 *
 * @example
 * ```ts
 * const owner = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/fills/parentSubaccountNumber": { fills: [] }, "/v4/sparklines": { "BTC-USD": ["65010", "65000"] } }) });
 * (await restActions.getParentFills(client, { owner, number: 0 })).fills; // []
 * (await restActions.getSparklines(client, { timePeriod: "ONE_DAY" }))["BTC-USD"]; // ["65010", "65000"]
 * ```
 */
export const restActions = {
  getParentSubaccount: required<ParentSubaccountResponse>()("getParentSubaccount"),
  getParentPerpetualPositions: required<PerpetualPositionsResponse>()("getParentPerpetualPositions"),
  getParentAssetPositions: required<AssetPositionsResponse>()("getParentAssetPositions"),
  getParentOrders,
  getParentFills: required<FillsResponse>()("getParentFills"),
  getParentTransfers: required<ParentSubaccountTransfersResponse>()("getParentTransfers"),
  getTransfersBetween: required<TransfersBetweenResponse>()("getTransfersBetween"),
  getParentHistoricalPnl: required<HistoricalPnlResponse>()("getParentHistoricalPnl"),
  getPnl: required<PnlResponse>()("getPnl"),
  getParentPnl: required<PnlResponse>()("getParentPnl"),
  getHistoricalTradingRewardAggregations: required<HistoricalTradingRewardAggregationsResponse>()(
    "getHistoricalTradingRewardAggregations",
  ),
  getHistoricalBlockTradingRewards: required<HistoricalBlockTradingRewardsResponse>()(
    "getHistoricalBlockTradingRewards",
  ),
  getParentFundingPayments: required<FundingPaymentsResponse>()("getParentFundingPayments"),
  getTradeHistory: required<TradeHistoryResponse>()("getTradeHistory"),
  getParentTradeHistory: required<TradeHistoryResponse>()("getParentTradeHistory"),
  getSparklines: required<SparklinesResponse>()("getSparklines"),
  getHealth: optional<HealthResponse>()("getHealth"),
  getScreen: required<ScreenResponse>()("getScreen"),
  getComplianceScreen: required<ComplianceScreenResponse>()("getComplianceScreen"),
  getMegavaultHistoricalPnl: optional<MegavaultHistoricalPnlResponse>()("getMegavaultHistoricalPnl"),
  getVaultsHistoricalPnl: optional<VaultsHistoricalPnlResponse>()("getVaultsHistoricalPnl"),
  getMegavaultPositions: optional<MegavaultPositionsResponse>()("getMegavaultPositions"),
  getAffiliateMetadata: required<AffiliateMetadataResponse>()("getAffiliateMetadata"),
  getAffiliateAddress: required<AffiliateAddressResponse>()("getAffiliateAddress"),
  getAffiliateSnapshot: optional<AffiliateSnapshotResponse>()("getAffiliateSnapshot"),
  getAffiliateTotalVolume: required<AffiliateTotalVolumeResponse>()("getAffiliateTotalVolume"),
  searchTrader: required<TraderSearchResponse>()("searchTrader"),
} as const;
