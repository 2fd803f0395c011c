import * as accountplus from "./accountplus.js";
import * as affiliates from "./affiliates.js";
import { getBlock, getBlockHeaders, getBlockResults } from "./blocks.js";
import * as bridge from "./bridge.js";
import * as catalog from "./catalog.js";
import { getGenesis, getPeers } from "./chain.js";
import * as ibc from "./ibc.js";
import { getBlockRateLimits, getEquityTiers } from "./markets.js";
import {
  checkUpgradeHistory,
  getAppliedPlan,
  getIbcChannels,
  getMinimumGasPrices,
  getNodeInfo,
} from "./node.js";
import * as ratelimit from "./ratelimit.js";
import { searchTxs } from "./txs.js";
import { watchBlocks } from "./watch.js";
import * as wrap from "./wrap.js";

/**
 * The chain-module queries as a table of actions, for `client.extend(queryActions)`: each is a free
 * function `query(client, params)` of `@perpx/node-client/queries`, and an extended client has it
 * as a method `client.query(params)`.
 * @example
 * ```ts
 * const chain = client.extend(queryActions);
 * (await chain.getAssets()).some((asset) => asset.denom === "uusdc"); // true
 * ```
 */
export const queryActions = {
  // Modules whose files hold only query actions: every value they export.
  ...catalog,
  ...accountplus,
  ...wrap,
  ...bridge,
  ...ratelimit,
  ...ibc,
  ...affiliates,
  getBlockRateLimits,
  getEquityTiers,
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
