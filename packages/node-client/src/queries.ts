/**
 * `@perpx/node-client/queries`: every chain-module query beside the trader's reads of the root
 * entry: assets and market parameters, fee and staking tiers, authenticators, wrap, bridge, rate
 * limits, IBC packets and vouchers, affiliates, node facts, blocks and transactions, block
 * watches, and the typed `unaryQuery` / `restQuery` every one of them runs on.
 *
 * Each is a free function `query(client, params)`; `queryActions` gives them to a client as
 * methods: `createNodeClient(options).extend(queryActions)`.
 *
 * @packageDocumentation
 */

export { coinAmount } from "./errors/query.js";
export * from "./query/accountplus.js";
export * from "./query/affiliates.js";
export {
  type AffiliateAmounts,
  affiliateAmounts,
  type LimiterCapacityAmounts,
  limiterCapacities,
  type PerpetualAmounts,
  type PerpetualPositionAmounts,
  perpetualAmounts,
} from "./query/amounts.js";
export type { GetAccountParams } from "./query/auth.js";
export type { GetBalanceParams, GetBalancesParams } from "./query/bank.js";
export { blockOperations, cancelIn, placementIn } from "./query/blockOrders.js";
export * from "./query/blocks.js";
export * from "./query/bridge.js";
export { catalogQueries } from "./query/catalog.js";
export { DEFAULT_P2P_PORT, type GenesisDoc, getGenesis, getPeers, type Peer } from "./query/chain.js";
export { type FactOptions, type RestQueryParams, restQuery } from "./query/facts.js";
export * from "./query/ibc.js";
export type { GetStatefulOrderParams } from "./query/markets.js";
export {
  type AppliedPlanParams,
  checkUpgradeHistory,
  getAppliedPlan,
  getIbcChannels,
  getMinimumGasPrices,
  getNodeInfo,
  type IbcChannel,
  type NodeInfo,
  parseGasPrices,
  type UpgradeCheck,
  type UpgradeHistoryParams,
  type UpgradeHistoryReport,
} from "./query/node.js";
export { type AllPagesParams, allPages } from "./query/pages.js";
export { type QueryActions, queryActions } from "./query/queryActions.js";
export * from "./query/ratelimit.js";
export { createQueryClient, type QueryClient } from "./query/service.js";
export type { GetSubaccountParams } from "./query/subaccounts.js";
export { type GetTxParams, type SearchTxsParams, searchTxs, type TxEvent } from "./query/txs.js";
export { HEIGHT_HEADER, queryPath, type UnaryQueryParams, unaryQuery } from "./query/unary.js";
export { type WatchBlocksParams, watchBlocks } from "./query/watch.js";
export * from "./query/wrap.js";
