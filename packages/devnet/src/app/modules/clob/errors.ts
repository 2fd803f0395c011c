/**
 * The clob module's errors (codespace `clob`): every error the reference chain registers, with its
 * code, its name (the Go name without `Err`) and its registered text (chain-protocol.md 1.10). A
 * failure's log is the SDK's wrapping of the registered text: `"<details>: <text>"`, or the text
 * alone.
 */
import { type ErrorKind, registerError } from "../../lib/errors.js";

/** A registered clob error: its kind (codespace, code, text) and its name on the reference chain. */
export interface ClobErrorKind extends ErrorKind {
  /** The reference chain's name, e.g. `PostOnlyWouldCrossMakerOrder`. */
  readonly name: string;
}

const clob = (code: number, name: string, text: string): ClobErrorKind =>
  Object.freeze({ ...registerError("clob", code, text), name });

/**
 * Every clob error, by the devnet's name for it.
 *
 * @example
 * ```ts
 * abciError(clobErrors.postOnlyWouldCross, "order 7 would cross").log;
 * // "order 7 would cross: Post-only order would cross one or more maker orders"
 * ```
 */
export const clobErrors = {
  orderDoesNotExist: clob(2, "MemClobOrderDoesNotExist", "Order does not exist in memclob"),
  invalidOrderSide: clob(3, "InvalidOrderSide", "Invalid order side"),
  invalidOrderQuantums: clob(4, "InvalidOrderQuantums", "Invalid order quantums"),
  invalidOrderGoodTilBlock: clob(5, "InvalidOrderGoodTilBlock", "Invalid order goodTilBlock"),
  invalidOrderSubticks: clob(6, "InvalidOrderSubticks", "Invalid order subticks"),
  orderIsCanceled: clob(7, "OrderIsCanceled", "Attempt to place an order that is already canceled"),
  invalidClob: clob(8, "InvalidClob", "ClobPair ID does not reference a valid CLOB"),
  memClobCancelAlreadyExists: clob(
    9,
    "MemClobCancelAlreadyExists",
    "A cancel already exists in the memclob for this order with a greater than or equal GoodTilBlock",
  ),
  heightExceedsGoodTilBlock: clob(
    10,
    "HeightExceedsGoodTilBlock",
    "The next block height is greater than the GoodTilBlock of the message",
  ),
  goodTilBlockExceedsWindow: clob(
    11,
    "GoodTilBlockExceedsShortBlockWindow",
    "The GoodTilBlock of the message is further than ShortBlockWindow blocks into the future",
  ),
  invalidPlaceOrder: clob(12, "InvalidPlaceOrder", "MsgPlaceOrder is invalid"),
  invalidMsgProposedMatchOrders: clob(
    13,
    "InvalidMsgProposedMatchOrders",
    "MsgProposedMatchOrders is invalid",
  ),
  stateFilledAmountNoChange: clob(14, "StateFilledAmountNoChange", "State filled amount cannot be unchanged"),
  stateFilledAmountDecreasing: clob(15, "StateFilledAmountDecreasing", "State filled amount cannot decrease"),
  invalidPruneStateFilledAmount: clob(
    16,
    "InvalidPruneStateFilledAmount",
    "Cannot prune state fill amount that does not exist",
  ),
  orderWouldExceedMaxOpenOrdersPerClobAndSide: clob(
    17,
    "OrderWouldExceedMaxOpenOrdersPerClobAndSide",
    "Subaccount cannot open more than 20 orders on a given CLOB and side",
  ),
  fillAmountNotDivisibleByStepSize: clob(
    18,
    "FillAmountNotDivisibleByStepSize",
    "`FillAmount` is not divisible by `StepBaseQuantums` of the specified `ClobPairId`",
  ),
  noClobPairForPerpetual: clob(
    19,
    "NoClobPairForPerpetual",
    "The provided perpetual ID does not have any associated CLOB pairs",
  ),
  invalidReplacement: clob(20, "InvalidReplacement", "Replacing an existing order failed"),
  clobPairAndPerpetualDoNotMatch: clob(
    21,
    "ClobPairAndPerpetualDoNotMatch",
    "Clob pair and perpetual ids do not match",
  ),
  matchedOrderNegativeFee: clob(22, "MatchedOrderNegativeFee", "Matched order has negative fee"),
  subaccountFeeTransferFailed: clob(
    23,
    "SubaccountFeeTransferFailed",
    "Subaccounts updated for a matched order, but fee transfer to fee-collector failed",
  ),
  orderFullyFilled: clob(24, "OrderFullyFilled", "Order is fully filled"),
  premiumWithNonPerpetualClobPair: clob(
    25,
    "PremiumWithNonPerpetualClobPair",
    "Attempting to get price premium with a non-perpetual CLOB pair",
  ),
  zeroIndexPriceForPremiumCalculation: clob(
    26,
    "ZeroIndexPriceForPremiumCalculation",
    "Index price is zero when calculating price premium",
  ),
  invalidClobPairParameter: clob(27, "InvalidClobPairParameter", "Invalid ClobPair parameter"),
  zeroPriceForOracle: clob(28, "ZeroPriceForOracle", "Oracle price must be > 0."),
  invalidStatefulOrderCancellation: clob(
    29,
    "InvalidStatefulOrderCancellation",
    "Invalid stateful order cancellation",
  ),
  orderReprocessed: clob(
    30,
    "OrderReprocessed",
    "An order with the same `OrderId` and `OrderHash` has already been processed for this CLOB",
  ),
  missingMidPrice: clob(31, "MissingMidPrice", "Missing mid price for ClobPair"),
  statefulOrderCancellationAlreadyExists: clob(
    32,
    "StatefulOrderCancellationAlreadyExists",
    "Existing stateful order cancellation has higher-or-equal priority than the new one",
  ),
  clobPairAlreadyExists: clob(33, "ClobPairAlreadyExists", "ClobPair with id already exists"),
  conflictsWithStatus: clob(34, "OrderConflictsWithClobPairStatus", "Order conflicts with ClobPair status"),
  invalidClobPairStatusTransition: clob(
    35,
    "InvalidClobPairStatusTransition",
    "Invalid ClobPair status transition",
  ),
  operationConflictsWithClobPairStatus: clob(
    36,
    "OperationConflictsWithClobPairStatus",
    "Operation conflicts with ClobPair status",
  ),
  perpetualDoesNotExist: clob(37, "PerpetualDoesNotExist", "Perpetual does not exist in state"),
  invalidClobPairUpdate: clob(39, "InvalidClobPairUpdate", "ClobPair update is invalid"),
  invalidAuthority: clob(40, "InvalidAuthority", "Authority is invalid"),
  perpetualAssociatedWithExistingClobPair: clob(
    41,
    "PerpetualAssociatedWithExistingClobPair",
    "perpetual ID is already associated with an existing CLOB pair",
  ),
  unexpectedTimeInForce: clob(42, "UnexpectedTimeInForce", "Unexpected time in force"),
  orderHasRemainingSize: clob(43, "OrderHasRemainingSize", "Order has remaining size"),
  invalidTimeInForce: clob(44, "InvalidTimeInForce", "invalid time in force"),
  invalidBatchCancel: clob(45, "InvalidBatchCancel", "Invalid batch cancel message"),
  batchCancelFailed: clob(46, "BatchCancelFailed", "Batch cancel has failed"),
  clobNotInitialized: clob(47, "ClobNotInitialized", "CLOB has not been initialized"),
  deprecatedField: clob(48, "DeprecatedField", "This field has been deprecated"),
  invalidTwapOrderPlacement: clob(49, "InvalidTwapOrderPlacement", "Invalid TWAP order placement"),
  invalidBuilderCode: clob(50, "InvalidBuilderCode", "Invalid builder code"),
  invalidLiquidationsConfig: clob(
    1000,
    "InvalidLiquidationsConfig",
    "Proposed LiquidationsConfig is invalid",
  ),
  noPerpetualPositionsToLiquidate: clob(
    1001,
    "NoPerpetualPositionsToLiquidate",
    "Subaccount has no perpetual positions to liquidate",
  ),
  subaccountNotLiquidatable: clob(1002, "SubaccountNotLiquidatable", "Subaccount is not liquidatable"),
  noOpenPositionForPerpetual: clob(
    1003,
    "NoOpenPositionForPerpetual",
    "Subaccount does not have an open position for perpetual",
  ),
  invalidLiquidationOrderTotalSize: clob(
    1004,
    "InvalidLiquidationOrderTotalSize",
    "Liquidation order has invalid size",
  ),
  invalidLiquidationOrderSide: clob(
    1005,
    "InvalidLiquidationOrderSide",
    "Liquidation order is on the wrong side",
  ),
  totalFillAmountExceedsOrderSize: clob(
    1006,
    "TotalFillAmountExceedsOrderSize",
    "Total fills amount exceeds size of liquidation order",
  ),
  liquidationContainsNoFills: clob(
    1007,
    "LiquidationContainsNoFills",
    "Liquidation order does not contain any fills",
  ),
  subaccountHasLiquidatedPerpetual: clob(
    1008,
    "SubaccountHasLiquidatedPerpetual",
    "Subaccount has previously liquidated this perpetual in the current block",
  ),
  liquidationOrderSizeSmallerThanMin: clob(
    1009,
    "LiquidationOrderSizeSmallerThanMin",
    "Liquidation order has size smaller than min position notional specified in the liquidation config",
  ),
  liquidationOrderSizeGreaterThanMax: clob(
    1010,
    "LiquidationOrderSizeGreaterThanMax",
    "Liquidation order has size greater than max position notional specified in the liquidation config",
  ),
  liquidationExceedsSubaccountMaxNotionalLiquidated: clob(
    1011,
    "LiquidationExceedsSubaccountMaxNotionalLiquidated",
    "Liquidation exceeds the maximum notional amount that a single subaccount can have liquidated per block",
  ),
  liquidationExceedsSubaccountMaxInsuranceLost: clob(
    1012,
    "LiquidationExceedsSubaccountMaxInsuranceLost",
    "Liquidation exceeds the maximum insurance fund payout amount for a given subaccount per block",
  ),
  insuranceFundHasInsufficientFunds: clob(
    1013,
    "InsuranceFundHasInsufficientFunds",
    "Insurance fund does not have sufficient funds to cover liquidation losses",
  ),
  invalidPerpetualPositionSizeDelta: clob(
    1014,
    "InvalidPerpetualPositionSizeDelta",
    "Invalid perpetual position size delta",
  ),
  invalidQuantumsForInsuranceFundDeltaCalculation: clob(
    1015,
    "InvalidQuantumsForInsuranceFundDeltaCalculation",
    "Invalid delta base and/or quote quantums for insurance fund delta calculation",
  ),
  deleveragingAgainstSelf: clob(
    1017,
    "DeleveragingAgainstSelf",
    "Cannot deleverage subaccount against itself",
  ),
  duplicateDeleveragingFillSubaccounts: clob(
    1018,
    "DuplicateDeleveragingFillSubaccounts",
    "Deleveraging match cannot have fills with same id",
  ),
  zeroDeleveragingFillAmount: clob(
    1019,
    "ZeroDeleveragingFillAmount",
    "Deleveraging match cannot have fills with zero amount",
  ),
  positionCannotBeFullyOffset: clob(1020, "PositionCannotBeFullyOffset", "Position cannot be fully offset"),
  deleveragingIsFinalSettlementFlagMismatch: clob(
    1021,
    "DeleveragingIsFinalSettlementFlagMismatch",
    "Deleveraging match has incorrect value for isFinalSettlement flag",
  ),
  liquidationConflictsWithClobPairStatus: clob(
    1022,
    "LiquidationConflictsWithClobPairStatus",
    "Liquidation conflicts with ClobPair status",
  ),
  fokOrderCouldNotBeFullyFilled: clob(
    2000,
    "FokOrderCouldNotBeFullyFilled",
    "FillOrKill order could not be fully filled",
  ),
  reduceOnlyWouldIncrease: clob(
    2001,
    "ReduceOnlyWouldIncreasePositionSize",
    "Reduce-only orders cannot increase the position size",
  ),
  reduceOnlyWouldChangeSide: clob(
    2002,
    "ReduceOnlyWouldChangePositionSide",
    "Reduce-only orders cannot change the position side",
  ),
  postOnlyWouldCross: clob(
    2003,
    "PostOnlyWouldCrossMakerOrder",
    "Post-only order would cross one or more maker orders",
  ),
  immediateExecutionAlreadyFilled: clob(
    2004,
    "ImmediateExecutionOrderAlreadyFilled",
    "IOC order is already filled, remaining size is cancelled.",
  ),
  wouldViolateIsolatedSubaccountConstraints: clob(
    2005,
    "WouldViolateIsolatedSubaccountConstraints",
    "Order would violate isolated subaccount constraints.",
  ),
  invalidOrderFlag: clob(3000, "InvalidOrderFlag", "Invalid order flags"),
  invalidGoodTilBlockTime: clob(
    3001,
    "InvalidStatefulOrderGoodTilBlockTime",
    "Invalid order goodTilBlockTime",
  ),
  statefulImmediateExecution: clob(
    3002,
    "LongTermOrdersCannotRequireImmediateExecution",
    "Stateful orders cannot require immediate execution",
  ),
  timeExceedsGoodTilBlockTime: clob(
    3003,
    "TimeExceedsGoodTilBlockTime",
    "The block time is greater than the GoodTilBlockTime of the message",
  ),
  goodTilBlockTimeExceedsWindow: clob(
    3004,
    "GoodTilBlockTimeExceedsStatefulOrderTimeWindow",
    "The GoodTilBlockTime of the message is further than StatefulOrderTimeWindow into the future",
  ),
  statefulOrderExists: clob(
    3005,
    "StatefulOrderAlreadyExists",
    "Existing stateful order has higher-or-equal priority than the new one",
  ),
  statefulOrderDoesNotExist: clob(3006, "StatefulOrderDoesNotExist", "Stateful order does not exist"),
  collateralizationCheckFailed: clob(
    3007,
    "StatefulOrderCollateralizationCheckFailed",
    "Stateful order collateralization check failed",
  ),
  statefulOrderPreviouslyCancelled: clob(
    3008,
    "StatefulOrderPreviouslyCancelled",
    "Stateful order was previously cancelled and therefore cannot be placed",
  ),
  statefulOrderPreviouslyRemoved: clob(
    3009,
    "StatefulOrderPreviouslyRemoved",
    "Stateful order was previously removed and therefore cannot be placed",
  ),
  statefulOrderCancellationFailedForAlreadyRemovedOrder: clob(
    3010,
    "StatefulOrderCancellationFailedForAlreadyRemovedOrder",
    "Stateful order cancellation failed because the order was already removed from state",
  ),
  invalidMsgProposedOperations: clob(
    4000,
    "InvalidMsgProposedOperations",
    "MsgProposedOperations is invalid",
  ),
  invalidMatchOrder: clob(4001, "InvalidMatchOrder", "Match Order is invalid"),
  orderPlacementNotInOperationsQueue: clob(
    4002,
    "OrderPlacementNotInOperationsQueue",
    "Order was not previously placed in operations queue",
  ),
  fillAmountIsZero: clob(4003, "FillAmountIsZero", "Fill amount cannot be zero"),
  invalidDeleveragingFill: clob(4004, "InvalidDeleveragingFill", "Deleveraging fill is invalid"),
  invalidDeleveragedSubaccount: clob(
    4005,
    "InvalidDeleveragedSubaccount",
    "Deleveraged subaccount in proposed deleveraged operation failed deleveraging validation",
  ),
  invalidOrderRemoval: clob(4006, "InvalidOrderRemoval", "Order Removal is invalid"),
  invalidOrderRemovalReason: clob(4007, "InvalidOrderRemovalReason", "Order Removal reason is invalid"),
  zeroFillDeleveragingForNonNegativeTncSubaccount: clob(
    4008,
    "ZeroFillDeleveragingForNonNegativeTncSubaccount",
    "Zero-fill deleveraging operation included in block for non-negative TNC subaccount",
  ),
  invalidBlockRateLimitConfig: clob(
    5000,
    "InvalidBlockRateLimitConfig",
    "Proposed BlockRateLimitConfig is invalid",
  ),
  blockRateLimitExceeded: clob(5001, "BlockRateLimitExceeded", "Block rate limit exceeded"),
  invalidConditionType: clob(6000, "InvalidConditionType", "Conditional type is invalid"),
  invalidTriggerSubticks: clob(
    6001,
    "InvalidConditionalOrderTriggerSubticks",
    "Conditional order trigger subticks is invalid",
  ),
  conditionalOrderUntriggered: clob(6002, "ConditionalOrderUntriggered", "Conditional order is untriggered"),
  assetOrdersNotImplemented: clob(9000, "AssetOrdersNotImplemented", "Asset orders are not implemented"),
  assetUpdateNotImplemented: clob(
    9001,
    "AssetUpdateNotImplemented",
    "Updates for assets other than USDC are not implemented",
  ),
  notImplemented: clob(9002, "NotImplemented", "This function is not implemented"),
  reduceOnlyDisabled: clob(
    9003,
    "ReduceOnlyDisabled",
    "Reduce-only is currently disabled for non-IOC orders",
  ),
  invalidEquityTierLimitConfig: clob(
    10000,
    "InvalidEquityTierLimitConfig",
    "Proposed EquityTierLimitConfig is invalid",
  ),
  equityTierLimit: clob(
    10001,
    "OrderWouldExceedMaxOpenOrdersEquityTierLimit",
    "Subaccount cannot open more orders due to equity tier limit.",
  ),
  invalidOrderRouterAddress: clob(11000, "InvalidOrderRouterAddress", "Invalid order router address"),
  invalidAddress: clob(11001, "InvalidAddress", "Invalid address"),
  invalidLeverage: clob(11002, "InvalidLeverage", "Invalid update leverage"),
  leverageExceedsMaximum: clob(
    11003,
    "LeverageExceedsMaximum",
    "Leverage exceeds maximum allowed for perpetual",
  ),
  initialMarginPpmIsZero: clob(11004, "InitialMarginPpmIsZero", "Initial margin ppm is zero"),
} as const;
