import { accountplusQueries, getAuthenticators } from "./accountplus.js";
import { affiliateQueries } from "./affiliates.js";
import { getBlock, getBlockHeaders, getBlockResults } from "./blocks.js";
import { bridgeQueries, getBridgeEvents } from "./bridge.js";
import { catalogQueries } from "./catalog.js";
import { getGenesis, getPeers } from "./chain.js";
import { ibcQueries } from "./ibc.js";
import {
  checkUpgradeHistory,
  getAppliedPlan,
  getIbcChannels,
  getMinimumGasPrices,
  getNodeInfo,
} from "./node.js";
import { ratelimitQueries } from "./ratelimit.js";
import { searchTxs } from "./txs.js";
import { watchBlocks } from "./watch.js";
import { getBacking, wrapQueries } from "./wrap.js";

/**
 * The chain-module queries as a table of actions, for `client.extend(queryActions)`.
 * @example
 * ```ts
 * const chain = client.extend(queryActions);
 * (await chain.getAssets()).some((asset) => asset.denom === "uusdc"); // true
 * ```
 */
export const queryActions = {
  // The modules' tables of rows, and the few of their queries exported on their own.
  ...catalogQueries,
  ...accountplusQueries,
  ...wrapQueries,
  ...bridgeQueries,
  ...ratelimitQueries,
  ...ibcQueries,
  ...affiliateQueries,
  getAuthenticators,
  getBacking,
  getBridgeEvents,
  // Node and chain facts
  getMinimumGasPrices,
  getNodeInfo,
  getAppliedPlan,
  checkUpgradeHistory,
  getIbcChannels,
  getGenesis,
  getPeers,
  getBlock,
  getBlockResults,
  getBlockHeaders,
  searchTxs,
  watchBlocks,
} as const;

/**
 * The type of {@link queryActions}.
 * @example
 * ```ts
 * type Names = keyof QueryActions; // "getAssets" | "getPacketCommitment" | ...
 * ```
 */
export type QueryActions = typeof queryActions;
