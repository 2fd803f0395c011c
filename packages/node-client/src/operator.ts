/**
 * `@perpx/node-client/operator`: for people who run nodes and the chain. State-sync snapshot names
 * and heights, what a state-synced node cannot serve, release archive checksums, and a builder for
 * every governance message (signed by the gov module account, the default authority, and run when
 * a proposal carrying them passes).
 *
 * @packageDocumentation
 */
export {
  type AffiliateTierInput,
  type SetSmartAccountActiveParams,
  setSmartAccountActiveMsg,
  type UpdateAffiliateOverridesParams,
  type UpdateAffiliateParametersParams,
  type UpdateAffiliateTiersParams,
  type UpdateAffiliateWhitelistParams,
  updateAffiliateOverridesMsg,
  updateAffiliateParametersMsg,
  updateAffiliateTiersMsg,
  updateAffiliateWhitelistMsg,
} from "./operator/governance/affiliates.js";
export {
  type BridgeEventInput,
  type CompleteBridgeParams,
  completeBridgeMsg,
  type UpdateBridgeEventParamsParams,
  type UpdateBridgeProposeParamsParams,
  type UpdateBridgeSafetyParamsParams,
  updateBridgeEventParamsMsg,
  updateBridgeProposeParamsMsg,
  updateBridgeSafetyParamsMsg,
} from "./operator/governance/bridge.js";
export {
  type BlockRateLimitInput,
  type ClobPairInput,
  type ClobPairParams,
  type ClobPairStatus,
  createClobPairMsg,
  type EquityTierLimitInput,
  type UpdateBlockRateLimitConfigParams,
  type UpdateEquityTierLimitConfigParams,
  type UpdateLiquidationsConfigParams,
  updateBlockRateLimitConfigMsg,
  updateClobPairMsg,
  updateEquityTierLimitConfigMsg,
  updateLiquidationsConfigMsg,
} from "./operator/governance/clob.js";
export {
  type MarketFeeDiscountInput,
  type PerpetualFeeTierInput,
  type SetMarketFeeDiscountParamsParams,
  type SetStakingTiersParams,
  type StakingTierInput,
  setMarketFeeDiscountParamsMsg,
  setStakingTiersMsg,
  type UpdatePerpetualFeeParamsParams,
  updatePerpetualFeeParamsMsg,
} from "./operator/governance/fees.js";
export { type GovernanceParams, moduleAccountAddress } from "./operator/governance/fields.js";
export {
  type DeleteWrapRuleParams,
  deleteWrapRuleMsg,
  type SendFromAccountToAccountParams,
  type SendFromModuleToAccountParams,
  type SetWrapRuleParams,
  type SetWrapRulesParams,
  sendFromAccountToAccountMsg,
  sendFromModuleToAccountMsg,
  setWrapRuleMsg,
  setWrapRulesMsg,
  type WrapRuleInput,
} from "./operator/governance/funds.js";
export {
  type CreateOracleMarketParams,
  type CreatePerpetualParams,
  createOracleMarketMsg,
  createPerpetualMsg,
  type LiquidityTierInput,
  type MarketParamInput,
  type PerpetualParamsInput,
  type SetLiquidityTierParams,
  setLiquidityTierMsg,
  type UpdateMarketParamParams,
  type UpdatePerpetualParamsParams,
  type UpdatePerpetualsModuleParamsParams,
  updateMarketParamMsg,
  updatePerpetualParamsMsg,
  updatePerpetualsModuleParamsMsg,
} from "./operator/governance/markets.js";
export {
  type LimiterInput,
  type SetAssetChainDailyLimitParams,
  type SetAssetWithdrawalConfigParams,
  type SetLimitParamsParams,
  setAssetChainDailyLimitMsg,
  setAssetWithdrawalConfigMsg,
  setLimitParamsMsg,
} from "./operator/governance/ratelimit.js";
export {
  type SetMarketMapperRevenueShareParams,
  type SetMarketMapperRevShareDetailsForMarketParams,
  type SetOrderRouterRevShareParams,
  setMarketMapperRevenueShareMsg,
  setMarketMapperRevShareDetailsForMarketMsg,
  setOrderRouterRevShareMsg,
  type UpdateUnconditionalRevShareConfigParams,
  updateUnconditionalRevShareConfigMsg,
} from "./operator/governance/revshare.js";
export { type UpdateRewardParamsParams, updateRewardParamsMsg } from "./operator/governance/rewards.js";
export {
  parseReleaseChecksum,
  type ReleaseVerification,
  type VerifyReleaseParams,
  verifyReleaseArchive,
} from "./operator/release.js";
export {
  canServeHeight,
  type LatestSnapshotParams,
  latestSnapshotHeight,
  type NewestSnapshotOptions,
  newestSnapshot,
  parseSnapshotName,
  type SnapshotName,
  STATE_SYNCED_NODE_CANNOT_SERVE,
} from "./operator/snapshots.js";
