/**
 * The table of every indexer action: one source for the free functions and the client's methods.
 */
import {
  getAddress,
  getAssetPositions,
  getParentAssetPositions,
  getParentPerpetualPositions,
  getParentSubaccount,
  getPerpetualPositions,
  getSubaccount,
} from "./actions/accounts.js";
import {
  getFills,
  getParentFills,
  getParentTransfers,
  getTransfers,
  getTransfersBetween,
} from "./actions/fills.js";
import {
  getCandles,
  getHistoricalFunding,
  getOrderbook,
  getPerpetualMarkets,
  getSparklines,
  getTrades,
} from "./actions/markets.js";
import { getOrder, getOrders, getParentOrders } from "./actions/orders.js";
import {
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
} from "./actions/pnl.js";
import {
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
  searchTrader,
} from "./actions/utility.js";
import {
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
} from "./paginate.js";

/**
 * Every action of an indexer client, by name: each is a free function `action(client, params)`,
 * and a client built by `createIndexerClient` has it as a method `client.action(params)`.
 *
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/height": { height: "7", time: "2026-01-01T00:00:00.000Z" } }) });
 * (await indexerActions.getHeight(client)).height; // "7"
 * ```
 */
export const indexerActions = {
  // Accounts
  getAddress,
  getSubaccount,
  getParentSubaccount,
  getPerpetualPositions,
  getParentPerpetualPositions,
  getAssetPositions,
  getParentAssetPositions,
  // Orders
  getOrders,
  getParentOrders,
  getOrder,
  // Fills and transfers
  getFills,
  getParentFills,
  getTransfers,
  getParentTransfers,
  getTransfersBetween,
  // PnL, rewards, funding payments, trade history
  getHistoricalPnl,
  getParentHistoricalPnl,
  getPnl,
  getParentPnl,
  getHistoricalTradingRewardAggregations,
  getHistoricalBlockTradingRewards,
  getFundingPayments,
  getParentFundingPayments,
  getTradeHistory,
  getParentTradeHistory,
  // Markets
  getPerpetualMarkets,
  getOrderbook,
  getTrades,
  getCandles,
  getHistoricalFunding,
  getSparklines,
  // Utility, vaults, affiliates, social
  getTime,
  getHeight,
  getHealth,
  getScreen,
  getComplianceScreen,
  getMegavaultHistoricalPnl,
  getVaultsHistoricalPnl,
  getMegavaultPositions,
  getAffiliateMetadata,
  getAffiliateAddress,
  getAffiliateSnapshot,
  getAffiliateTotalVolume,
  searchTrader,
  // Iterators
  iterateFills,
  iterateFillPages,
  iterateParentFillPages,
  iterateTransfers,
  iterateTransferPages,
  iterateParentTransferPages,
  iterateTrades,
  iterateTradePages,
  iterateHistoricalPnl,
  iterateHistoricalPnlPages,
  iteratePnl,
  iteratePerpetualPositions,
  iterateFundingPaymentPages,
  iterateTradeHistoryPages,
};

/**
 * The type of {@link indexerActions}.
 *
 * @example
 * ```ts
 * type Names = keyof IndexerActions; // "getFills" | "getHeight" | ...
 * ```
 */
export type IndexerActions = typeof indexerActions;
