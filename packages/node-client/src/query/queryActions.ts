import { getAccountState, getAuthenticator, getAuthenticators } from "./accountplus.js";
import {
  getAffiliateInfo,
  getAffiliateOverrides,
  getAffiliateParameters,
  getAffiliateTiers,
  getAffiliateWhitelist,
  getReferredBy,
} from "./affiliates.js";
import { getBlock, getBlockHeaders, getBlockResults } from "./blocks.js";
import {
  getAcknowledgedBridgeEventInfo,
  getAggregatedWithdrawal,
  getAggregatedWithdrawals,
  getBridgeEventParams,
  getBridgeEvents,
  getBridgeProposeParams,
  getBridgeSafetyParams,
  getDelayedCompleteBridgeMessages,
  getRecognizedBridgeEventInfo,
} from "./bridge.js";
import {
  getAccountplusParams,
  getAsset,
  getAssets,
  getCollateralPoolAddress,
  getLiquidationsConfig,
  getLiquidityTiers,
  getMarketFeeDiscount,
  getMarketFeeDiscounts,
  getMarketMapperRevShareParams,
  getMarketParam,
  getMarketParams,
  getNextIds,
  getPendingSendPackets,
  getPerpetualsParams,
  getRewardsParams,
  getStakingTiers,
  getUserStakingTier,
  getWithdrawalsBlockedInfo,
} from "./catalog.js";
import { getGenesis, getPeers } from "./chain.js";
import {
  getDenomTrace,
  getDenomTraces,
  getEscrowAddress,
  getNextSequenceReceive,
  getPacketAcknowledgement,
  getPacketAcknowledgements,
  getPacketCommitment,
  getPacketCommitments,
  getPacketReceipt,
  getTotalEscrow,
  getUnreceivedAcks,
  getUnreceivedPackets,
} from "./ibc.js";
import { getBlockRateLimits, getEquityTiers } from "./markets.js";
import {
  checkUpgradeHistory,
  getAppliedPlan,
  getIbcChannels,
  getMinimumGasPrices,
  getNodeInfo,
} from "./node.js";
import {
  getCapacityByDenom,
  getDailyLimits,
  getDailyUsage,
  getLimitParams,
  getWithdrawalConfigs,
} from "./ratelimit.js";
import { searchTxs } from "./txs.js";
import { watchBlocks } from "./watch.js";
import { getBacking, getWrapRule, getWrapRules } from "./wrap.js";

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
  // Accounts, assets and markets
  getCollateralPoolAddress,
  getAsset,
  getAssets,
  getBlockRateLimits,
  getEquityTiers,
  getMarketParam,
  getMarketParams,
  getLiquidityTiers,
  getPerpetualsParams,
  getLiquidationsConfig,
  getNextIds,
  getMarketFeeDiscount,
  getMarketFeeDiscounts,
  getStakingTiers,
  getUserStakingTier,
  // Authenticators (trading keys)
  getAuthenticators,
  getAuthenticator,
  getAccountState,
  getAccountplusParams,
  // Wrap
  getWrapRules,
  getWrapRule,
  getBacking,
  // Bridge
  getBridgeEventParams,
  getBridgeProposeParams,
  getBridgeSafetyParams,
  getAcknowledgedBridgeEventInfo,
  getRecognizedBridgeEventInfo,
  getDelayedCompleteBridgeMessages,
  getBridgeEvents,
  getAggregatedWithdrawals,
  getAggregatedWithdrawal,
  // Rate limits
  getLimitParams,
  getCapacityByDenom,
  getWithdrawalConfigs,
  getDailyLimits,
  getDailyUsage,
  getPendingSendPackets,
  getWithdrawalsBlockedInfo,
  // IBC packets and vouchers
  getPacketCommitment,
  getPacketCommitments,
  getPacketReceipt,
  getPacketAcknowledgement,
  getPacketAcknowledgements,
  getUnreceivedPackets,
  getUnreceivedAcks,
  getNextSequenceReceive,
  getDenomTrace,
  getDenomTraces,
  getEscrowAddress,
  getTotalEscrow,
  // Affiliates
  getAffiliateInfo,
  getReferredBy,
  getAffiliateTiers,
  getAffiliateWhitelist,
  getAffiliateParameters,
  getAffiliateOverrides,
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
  getMarketMapperRevShareParams,
  getRewardsParams,
} as const;

/**
 * The type of {@link queryActions}.
 * @example
 * ```ts
 * type Names = keyof QueryActions; // "getAssets" | "getPacketCommitment" | ...
 * ```
 */
export type QueryActions = typeof queryActions;
