import { getAccountState, getAuthenticator, getAuthenticators } from "./query/accountplus.js";
import {
  getAffiliateInfo,
  getAffiliateOverrides,
  getAffiliateParameters,
  getAffiliateTiers,
  getAffiliateWhitelist,
  getReferredBy,
} from "./query/affiliates.js";
import { getAccount, getAccountSequence } from "./query/auth.js";
import { getBalance, getBalances } from "./query/bank.js";
import { getBlock, getBlockHeaders, getBlockResults } from "./query/blocks.js";
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
} from "./query/bridge.js";
import {
  getAccountplusParams,
  getAsset,
  getAssets,
  getCollateralPoolAddress,
  getLeverage,
  getLiquidationsConfig,
  getLiquidityTiers,
  getMarketFeeDiscount,
  getMarketFeeDiscounts,
  getMarketParam,
  getMarketParams,
  getNextIds,
  getPendingSendPackets,
  getPerpetualsParams,
  getStakingTiers,
  getUserStakingTier,
  getWithdrawalsBlockedInfo,
} from "./query/catalog.js";
import { getChainId, getGenesis, getLatestBlock, getPeers } from "./query/chain.js";
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
} from "./query/ibc.js";
import { getMarket } from "./query/market.js";
import {
  getBlockRateLimits,
  getClobPair,
  getClobPairs,
  getEquityTiers,
  getFeeTiers,
  getMarketPrice,
  getMarketPrices,
  getPerpetual,
  getPerpetuals,
  getStatefulOrder,
  getUserFeeTier,
} from "./query/markets.js";
import {
  checkUpgradeHistory,
  getAppliedPlan,
  getIbcChannels,
  getMinimumGasPrices,
  getNodeInfo,
} from "./query/node.js";
import {
  getCapacityByDenom,
  getDailyLimits,
  getDailyUsage,
  getLimitParams,
  getWithdrawalConfigs,
} from "./query/ratelimit.js";
import { getSubaccount, getSubaccounts } from "./query/subaccounts.js";
import { getTx, searchTxs } from "./query/txs.js";
import { watchBlocks } from "./query/watch.js";
import { getBacking, getWrapRule, getWrapRules } from "./query/wrap.js";
import {
  addAuthenticator,
  bankMultiSend,
  bankSend,
  batchCancel,
  cancelOrder,
  depositToSubaccount,
  ibcTransfer,
  initiateWithdrawal,
  placeOrder,
  registerAffiliate,
  removeAuthenticator,
  transfer,
  updateLeverage,
  withdrawFromSubaccount,
  wrapRedeem,
  wrapWithdraw,
} from "./tx/actions.js";
import { broadcastTx, waitForTx } from "./tx/broadcast.js";
import { registerTradingKey, sendWithTradingKey } from "./tx/permissioned.js";
import { sendTx } from "./tx/send.js";
import { simulateTx } from "./tx/simulate.js";
import { watchShortTermOrder } from "./tx/watchOrder.js";

/**
 * Every action of a node client, by name: each is a free function `action(client, params)`, and a
 * client built by {@link createNodeClient} has it as a method `client.action(params)`. This table is
 * the one source of both.
 *
 * @example
 * ```ts
 * await nodeActions.getBalances(client, { address: wallet.address }); // what client.getBalances({ address: wallet.address }) does
 * ```
 */
export const nodeActions = {
  // Accounts and balances
  getAccount,
  getAccountSequence,
  getBalances,
  getBalance,
  getSubaccount,
  getSubaccounts,
  getLeverage,
  getCollateralPoolAddress,
  // Assets
  getAsset,
  getAssets,
  // Markets
  getMarket,
  getClobPair,
  getClobPairs,
  getPerpetual,
  getPerpetuals,
  getMarketPrice,
  getMarketPrices,
  getFeeTiers,
  getUserFeeTier,
  getBlockRateLimits,
  getEquityTiers,
  getStatefulOrder,
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
  getLatestBlock,
  getBlock,
  getBlockResults,
  getBlockHeaders,
  getChainId,
  getTx,
  searchTxs,
  watchBlocks,
  // Transactions
  sendTx,
  simulateTx,
  broadcastTx,
  waitForTx,
  watchShortTermOrder,
  // One-message actions
  placeOrder,
  cancelOrder,
  batchCancel,
  depositToSubaccount,
  withdrawFromSubaccount,
  transfer,
  bankSend,
  bankMultiSend,
  addAuthenticator,
  removeAuthenticator,
  wrapWithdraw,
  wrapRedeem,
  ibcTransfer,
  updateLeverage,
  registerAffiliate,
  initiateWithdrawal,
  registerTradingKey,
  sendWithTradingKey,
} as const;

/**
 * The type of {@link nodeActions}.
 *
 * @example
 * ```ts
 * type Names = keyof NodeActions; // "getBalances" | "sendTx" | ...
 * ```
 */
export type NodeActions = typeof nodeActions;
