/**
 * The table of every indexer action: one source for the free functions and the client's methods.
 */
import { getAddress, getAssetPositions, getPerpetualPositions, getSubaccount } from "./actions/accounts.js";
import { getFills, getTransfers } from "./actions/fills.js";
import {
  getCandles,
  getHistoricalFunding,
  getOrderbook,
  getPerpetualMarkets,
  getTrades,
} from "./actions/markets.js";
import { getOrder, getOrders } from "./actions/orders.js";
import { getFundingPayments, getHistoricalPnl } from "./actions/pnl.js";
import { restActions } from "./actions/tail.js";
import { getHeight, getTime } from "./actions/utility.js";
import { restIterators } from "./paginate.js";

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
  // The calls beyond the root's: parent subaccounts, PnL, rewards, vaults, affiliates, compliance
  ...restActions,
  // Accounts
  getAddress,
  getSubaccount,
  getPerpetualPositions,
  getAssetPositions,
  // Orders
  getOrders,
  getOrder,
  // Fills and transfers
  getFills,
  getTransfers,
  // PnL, rewards, funding payments, trade history
  getHistoricalPnl,
  getFundingPayments,
  // Markets
  getPerpetualMarkets,
  getOrderbook,
  getTrades,
  getCandles,
  getHistoricalFunding,
  // Utility
  getTime,
  getHeight,
  // Iterators
  ...restIterators,
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
